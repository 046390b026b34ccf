import { z } from '@hono/zod-openapi';
import { ref } from '../../../core/references';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';

export const Tenant = recordRow({
  code: z.string(),
  name: z.string(),
  shortName: z.string().nullable(),
  packageId: z.string().nullable(),
  packageName: z.string().nullable(),
  status: field.status,
  expired: z.boolean().openapi({ description: 'expiresAt has passed: sign-in is refused' }),
  expiresAt: z.string().nullable(),
  maxAccounts: z.number().int(),
  accountCount: z.number().int(),
  domains: z.array(z.string()),
  contactName: z.string().nullable(),
  contactMobile: z.string().nullable(),
  contactEmail: z.string().nullable(),
  adminUserId: z.string().nullable(),
  address: z.string().nullable(),
  remark: z.string().nullable(),
}).openapi('Tenant');
export type Tenant = z.infer<typeof Tenant>;

const code = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{1,31}$/, formatRule('tenantCode'))
  .openapi({ example: 'renji' });
const name = field.requiredText(100).openapi({ example: '仁济医院' });
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, formatRule('hostName'));
const expiresAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .openapi({ description: 'null: never expires', example: '2027-12-31T23:59:59+08:00' });
const fields = {
  name,
  shortName: field.optionalText(50),
  packageId: ref('tenant_package'),
  maxAccounts: z.number().int().min(1).max(1_000_000),
  domains: z.array(domain).max(20).optional(),
  contactName: z.string().trim().min(1).max(50).optional(),
  contactMobile: field.phone.nullable().optional(),
  contactEmail: z.email().max(100).nullable().optional(),
  address: field.optionalText(255),
  remark: field.remark,
};

/** Provisioning: the tenant, its `tenant_admin` role and first administrator, in one transaction. */
export const CreateTenant = requestBody('CreateTenant', {
  code,
  ...fields,
  expiresAt: expiresAt.optional(),
  adminUserName: field.userName.openapi({ example: 'admin' }),
  adminPassword: z.string().min(1).max(128).openapi({ description: 'Checked against the password policy' }),
  adminDisplayName: field.requiredText(50).openapi({ example: '管理员' }),
});
export type CreateTenant = z.infer<typeof CreateTenant>;

export const UpdateTenant = updateBody('UpdateTenant', {
  ...fields,
  packageId: ref('tenant_package').nullable().openapi({ description: 'null only for the platform tenant' }),
});
export type UpdateTenant = z.infer<typeof UpdateTenant>;

/** Import: the package by name; a new tenant's administrator must change the password at first sign-in. */
export const TenantImportRow = z.object({
  code,
  name,
  packageName: field.requiredText(100),
  maxAccounts: z.coerce.number().int().min(1).max(1_000_000),
  expiresAt: z.string().trim().optional(),
  contactName: z.string().trim().max(50).optional(),
  contactMobile: field.phone.optional(),
  adminUserName: field.userName.optional(),
  adminDisplayName: field.requiredText(50).optional(),
  adminPassword: z.string().max(128).optional(),
});
export type TenantImportRow = z.infer<typeof TenantImportRow>;

export const RenewTenant = z.object({ expiresAt }).strict().openapi('RenewTenant');

export const ResolveTenantQuery = z
  .object({
    code: z.string().trim().toLowerCase().max(32).optional(),
    domain: z.string().trim().toLowerCase().max(253).optional(),
  })
  .strict();

export const ResolvedTenant = z
  .object({
    code: z.string(),
    name: z.string(),
    status: z.enum(['enabled', 'disabled', 'expired']),
  })
  .openapi('ResolvedTenant');
export type ResolvedTenant = z.infer<typeof ResolvedTenant>;
