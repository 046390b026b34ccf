import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { Id } from '../../../core/resource/id-param';

const STATUSES = ['enabled', 'disabled'] as const;

export const TenantPackage = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(STATUSES),
    remark: z.string().nullable(),
    permissionIds: z.array(z.string()),
    tenantCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('TenantPackage');
export type TenantPackage = z.infer<typeof TenantPackage>;

const name = z.string().trim().min(1).max(100).openapi({ example: '标准套餐' });
const remark = z.string().max(500);
const permissionIds = z.array(Id).max(2000).openapi({ description: 'Permissions that are not platform-only' });

export const CreateTenantPackage = z
  .object({
    name,
    status: z.enum(STATUSES).default('enabled'),
    remark: remark.nullable().optional(),
    permissionIds: permissionIds.default([]),
  })
  .strict()
  .openapi('CreateTenantPackage');
export type CreateTenantPackage = z.infer<typeof CreateTenantPackage>;

export const UpdateTenantPackage = z
  .object({
    name,
    status: z.enum(STATUSES).optional(),
    remark: remark.nullable().optional(),
    permissionIds: permissionIds
      .optional()
      .openapi({ description: 'Changing them re-syncs the roles of every tenant on the package' }),
    version: Version,
  })
  .strict()
  .openapi('UpdateTenantPackage');
export type UpdateTenantPackage = z.infer<typeof UpdateTenantPackage>;

export const TenantPackageImportRow = z.object({
  name,
  status: z.enum(STATUSES).optional(),
  remark: remark.optional(),
});
