import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { Id } from '../../../core/resource/id-param';
import { formatRule } from '../../../core/validation';

const STATUSES = ['enabled', 'disabled'] as const;

export const Tenant = z
  .object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    packageId: z.string().nullable(),
    packageName: z.string().nullable(),
    status: z.enum(STATUSES),
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
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('Tenant');
export type Tenant = z.infer<typeof Tenant>;

const code = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9-]{1,31}$/, formatRule('tenantCode'))
  .openapi({ example: 'renji' });
const name = z.string().trim().min(1).max(100).openapi({ example: '仁济医院' });
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
  shortName: z.string().trim().max(50).nullable().optional(),
  packageId: Id,
  maxAccounts: z.number().int().min(1).max(1_000_000),
  domains: z.array(domain).max(20).optional(),
  contactName: z.string().trim().min(1).max(50).optional(),
  contactMobile: z
    .string()
    .trim()
    .max(20)
    .regex(/^\+?[0-9][0-9 -]{4,19}$/, formatRule('phone'))
    .nullable()
    .optional(),
  contactEmail: z.email().max(100).nullable().optional(),
  address: z.string().trim().max(255).nullable().optional(),
  remark: z.string().max(500).nullable().optional(),
};

/** Provisioning: the tenant, its `tenant_admin` role and first administrator, in one transaction. */
export const CreateTenant = z
  .object({
    code,
    ...fields,
    expiresAt: expiresAt.optional(),
    adminUserName: z
      .string()
      .trim()
      .toLowerCase()
      .min(2)
      .max(50)
      .regex(/^[a-z0-9][a-z0-9._@-]*$/, formatRule('userName'))
      .openapi({ example: 'admin' }),
    adminPassword: z.string().min(1).max(128).openapi({ description: 'Checked against the password policy' }),
    adminDisplayName: z.string().trim().min(1).max(50).openapi({ example: '管理员' }),
  })
  .strict()
  .openapi('CreateTenant');
export type CreateTenant = z.infer<typeof CreateTenant>;

export const UpdateTenant = z
  .object({
    ...fields,
    packageId: Id.nullable().openapi({ description: 'null only for the platform tenant' }),
    version: Version,
  })
  .strict()
  .openapi('UpdateTenant');
export type UpdateTenant = z.infer<typeof UpdateTenant>;

/** Import: the package by name; a new tenant's administrator must change the password at first sign-in. */
export const TenantImportRow = z.object({
  code,
  name,
  packageName: z.string().trim().min(1).max(100),
  maxAccounts: z.coerce.number().int().min(1).max(1_000_000),
  expiresAt: z.string().trim().optional(),
  contactName: z.string().trim().max(50).optional(),
  contactMobile: z
    .string()
    .trim()
    .max(20)
    .regex(/^\+?[0-9][0-9 -]{4,19}$/, formatRule('phone'))
    .optional(),
  adminUserName: z
    .string()
    .trim()
    .toLowerCase()
    .min(2)
    .max(50)
    .regex(/^[a-z0-9][a-z0-9._@-]*$/, formatRule('userName'))
    .optional(),
  adminDisplayName: z.string().trim().min(1).max(50).optional(),
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
