import type { Permission } from '@server/modules/system/permission/permission.schema';
import request from '@/utils/request';

export type { Permission };
export type PermissionNode = Permission & { children: PermissionNode[] };

/** Every permission as a tree ordered by sort (platform operators: system:permission:list). */
export const fetchPermissionTree = () => request.get<PermissionNode[]>('/api/system/permission/tree');

/** The tree without the nodes a tenant can never be given. */
export function grantable(tree: PermissionNode[]): PermissionNode[] {
  return tree.filter((n) => !n.platformOnly).map((n) => ({ ...n, children: grantable(n.children ?? []) }));
}

/** A permission's name in the interface language (the Chinese one when no English name was given). */
export const permissionName = (node: Pick<Permission, 'name' | 'nameEn'>, locale: string): string =>
  (locale === 'en-US' && node.nameEn) || node.name;

/**
 * The tree cut to the nodes whose name (either language) or code contains `text`, with their ancestors and
 * everything below them.
 */
export function searchTree(tree: PermissionNode[], text: string): PermissionNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return tree;
  const hit = (n: PermissionNode) => [n.name, n.nameEn, n.code].some((value) => value?.toLowerCase().includes(needle));
  return tree.flatMap((node) => {
    if (hit(node)) return [node];
    const children = searchTree(node.children ?? [], text);
    return children.length ? [{ ...node, children }] : [];
  });
}
