import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { Id } from '../../../core/resource/id-param';
import { importRowOf, recordRow, remark, requiredText, Status } from '../../../core/schema-kit';

export const TenantPackage = recordRow({
  name: z.string(),
  status: Status,
  remark: z.string().nullable(),
  permissionIds: z.array(z.string()),
  tenantCount: z.number().int(),
}).openapi('TenantPackage');
export type TenantPackage = z.infer<typeof TenantPackage>;

const name = requiredText(100).openapi({ example: '标准套餐' });
const permissionIds = z.array(Id).max(2000).openapi({ description: 'Permissions that are not platform-only' });

export const CreateTenantPackage = z
  .object({
    name,
    status: Status.default('enabled'),
    remark,
    permissionIds: permissionIds.default([]),
  })
  .strict()
  .openapi('CreateTenantPackage');
export type CreateTenantPackage = z.infer<typeof CreateTenantPackage>;

export const UpdateTenantPackage = z
  .object({
    name,
    status: Status.optional(),
    remark,
    permissionIds: permissionIds
      .optional()
      .openapi({ description: 'Changing them re-syncs the roles of every tenant on the package' }),
    version: Version,
  })
  .strict()
  .openapi('UpdateTenantPackage');
export type UpdateTenantPackage = z.infer<typeof UpdateTenantPackage>;

export const TenantPackageImportRow = importRowOf(CreateTenantPackage.omit({ permissionIds: true }).shape);
