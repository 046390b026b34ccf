import type { ForcedLogout, TemporaryPassword } from '@server/modules/system/admin/admin.schema';
import type { RoleOption as RoleOptionSchema } from '@server/modules/system/role/role.schema';
import type { z } from 'zod';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import type { AdminUser, CreateAdminUser, UpdateAdminUser } from './descriptor';

export const adminUsers = resourceService<AdminUser, CreateAdminUser, UpdateAdminUser>('system/admin');

export type StatusAction = 'enable' | 'disable' | 'unlock';

export const changeStatus = (id: string, action: StatusAction) => adminUsers.action(id, action);
export const resetPassword = (id: string) => adminUsers.action<z.infer<typeof TemporaryPassword>>(id, 'reset-password');
export const forceLogout = (id: string) => adminUsers.action<z.infer<typeof ForcedLogout>>(id, 'force-logout');
export const assignRoles = (id: string, roleIds: string[], options?: Options) =>
  request.put<AdminUser>(`/api/system/admin/${id}/roles`, { ...options, data: { roleIds } });

export type RoleOption = z.infer<typeof RoleOptionSchema>;

/** The tenant's enabled roles, for the role select (needs system:admin:list or system:role:list). */
export const fetchRoleOptions = () => request.get<RoleOption[]>('/api/system/role/options');
