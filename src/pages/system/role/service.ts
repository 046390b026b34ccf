import type { AdminUser } from '@server/modules/system/admin/admin.schema';
import type {
  RoleMember as RoleMemberSchema,
  RolePermissions as RolePermissionsSchema,
} from '@server/modules/system/role/role.schema';
import type { z } from 'zod';
import { type ListAnswer, resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import type { CreateRole, Role, UpdateRole } from './descriptor';

export const roles = resourceService<Role, CreateRole, UpdateRole>('system/role');

export type RoleMember = z.infer<typeof RoleMemberSchema>;
/** What the role holds, and what it may be given: the tenant's package as a tree. */
export type RolePermissions = z.infer<typeof RolePermissionsSchema>;

export const fetchRolePermissions = (id: string) => request.get<RolePermissions>(`/api/system/role/${id}/permissions`);
export const saveRolePermissions = (id: string, permissionIds: string[]) =>
  request.put<RolePermissions>(`/api/system/role/${id}/permissions`, { data: { permissionIds } });

export const saveDataScope = (
  id: string,
  data: { dataScope: Role['dataScope']; dataScopeOrgIds: string[] },
  options?: Options,
) => request.put<Role>(`/api/system/role/${id}/data-scope`, { ...options, data });

export const fetchMembers = (id: string) => request.get<RoleMember[]>(`/api/system/role/${id}/members`);
export const addMembers = (id: string, userIds: string[]) =>
  request.post<RoleMember[]>(`/api/system/role/${id}/members`, { data: { userIds } });
export const removeMember = (id: string, userId: string) =>
  request.delete<void>(`/api/system/role/${id}/members/${userId}`);

/** Accounts of the tenant matching a keyword, for the add-members select (needs system:admin:list). */
export async function adminUserOptions(keyword?: string) {
  const params: Record<string, string> = { current: '1', pageSize: '20', sort: 'userName' };
  if (keyword?.trim()) params.keyword = keyword.trim();
  const { data } = await request.get<ListAnswer<AdminUser>>('/api/system/admin', { params });
  return data.map((u) => ({ label: `${u.displayName} (${u.userName})`, value: u.id }));
}
