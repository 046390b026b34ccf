import { z } from '@hono/zod-openapi';
import { ref } from '../../../core/references';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';

export const ADMIN_USER_STATUSES = ['enabled', 'disabled', 'locked'] as const;

const userName = field.userName.openapi({ example: 'zhangsan' });
const displayName = field.requiredText(50).openapi({ example: '张三' });
const mobile = field.phone.openapi({ example: '13800000000' });
const email = z.email().max(100).openapi({ example: 'zhangsan@example.com' });

export const AdminUser = recordRow({
  userName: z.string(),
  displayName: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  orgId: z.string().nullable(),
  status: z.enum(ADMIN_USER_STATUSES),
  mustChangePassword: z.boolean(),
  lockedUntil: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  lastLoginIp: z.string().nullable(),
  remark: z.string().nullable(),
  roleIds: z.array(z.string()),
  roles: z.array(z.object({ id: z.string(), code: z.string(), name: z.string() })),
}).openapi('AdminUser');
export type AdminUser = z.infer<typeof AdminUser>;

export const CreateAdminUser = requestBody('CreateAdminUser', {
  userName,
  displayName,
  password: z.string().min(1).max(128).openapi({ description: 'Checked against the password policy of the settings' }),
  mobile: mobile.nullable().optional(),
  email: email.nullable().optional(),
  orgId: ref('organization').nullable().optional(),
  roleIds: z.array(ref('role')).max(50).default([]),
  remark: field.remark,
  mustChangePassword: z.boolean().optional().openapi({
    description: 'Ask for a new password at the first sign-in (default); false: the password is the user’s own',
  }),
});
export type CreateAdminUser = z.infer<typeof CreateAdminUser>;

export const UpdateAdminUser = updateBody('UpdateAdminUser', {
  displayName,
  mobile: mobile.nullable().optional(),
  email: email.nullable().optional(),
  orgId: ref('organization').nullable().optional(),
  roleIds: z.array(ref('role')).max(50).optional(),
  remark: field.remark,
});
export type UpdateAdminUser = z.infer<typeof UpdateAdminUser>;

/** One row of an import file: roles by code (comma-separated); the password is used only for new accounts. */
export const AdminUserImportRow = z.object({
  userName,
  displayName,
  mobile: mobile.optional(),
  email: email.optional(),
  roles: z.string().max(500).optional(),
  remark: field.remark,
  password: z.string().max(128).optional(),
});
export type AdminUserImportRow = z.infer<typeof AdminUserImportRow>;

export const AssignRoles = requestBody('AssignRoles', { roleIds: z.array(ref('role')).max(50) });

export const TemporaryPassword = z
  .object({
    temporaryPassword: z.string().openapi({ description: 'Shown once; the user must change it at the next sign-in' }),
  })
  .openapi('TemporaryPassword');

export const ForcedLogout = z.object({ revokedSessions: z.number().int() }).openapi('ForcedLogout');
