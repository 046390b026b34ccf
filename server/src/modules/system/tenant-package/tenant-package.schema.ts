import { z } from '@hono/zod-openapi';
import { ref } from '../../../core/references';
import { field, importRowOf, recordRow, requestBody, updateBody } from '../../../core/schema-kit';

export const TenantPackage = recordRow({
  name: z.string(),
  status: field.status,
  remark: z.string().nullable(),
  permissionIds: z.array(z.string()),
  tenantCount: z.number().int(),
}).openapi('TenantPackage');
export type TenantPackage = z.infer<typeof TenantPackage>;

const name = field.requiredText(100).openapi({ example: '标准套餐' });
const permissionIds = z
  .array(ref('permission'))
  .max(2000)
  .openapi({ description: 'Permissions that are not platform-only' });

export const CreateTenantPackage = requestBody('CreateTenantPackage', {
  name,
  status: field.status.default('enabled'),
  remark: field.remark,
  permissionIds: permissionIds.default([]),
});
export type CreateTenantPackage = z.infer<typeof CreateTenantPackage>;

export const UpdateTenantPackage = updateBody('UpdateTenantPackage', {
  name,
  status: field.status.optional(),
  remark: field.remark,
  permissionIds: permissionIds
    .optional()
    .openapi({ description: 'Changing them re-syncs the roles of every tenant on the package' }),
});
export type UpdateTenantPackage = z.infer<typeof UpdateTenantPackage>;

export const TenantPackageImportRow = importRowOf(CreateTenantPackage.omit({ permissionIds: true }).shape);
