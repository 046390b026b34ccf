import type { Permission } from '@server/modules/permission/permission.schema';
import request from '@/utils/request';

export type { Permission };
export type PermissionNode = Permission & { children: PermissionNode[] };

/** Every permission as a tree ordered by sort (platform operators: system:permission:list). */
export const fetchPermissionTree = () => request.get<PermissionNode[]>('/api/permissions/tree');

/** The tree without the nodes a tenant can never be given. */
export function grantable(tree: PermissionNode[]): PermissionNode[] {
  return tree.filter((n) => !n.platformOnly).map((n) => ({ ...n, children: grantable(n.children ?? []) }));
}
