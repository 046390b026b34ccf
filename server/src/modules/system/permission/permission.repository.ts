import { sql } from 'kysely';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter, type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { type MenuNode, Permission, type PermissionNode } from './permission.schema';

export const permissionList: ListSpec = {
  sort: { sort: 'sort', code: 'code', name: 'name', type: 'type', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: 'sort',
  filters: {
    keyword: { kind: 'keyword', columns: ['name', 'name_en', 'code', 'path', 'locale_key'] },
    type: { kind: 'in', column: 'type', values: ['directory', 'menu', 'button'] },
    status: statusFilter,
    platformOnly: { kind: 'eq', column: 'platform_only', values: ['true', 'false'] },
    parentId: { kind: 'eq', column: 'parent_id', pattern: ID_PATTERN },
    createdAt: createdAtFilter,
  },
};

const permissions = tableRepository({
  name: 'permission',
  columns: columnsOf(Permission),
});

type Values = Partial<Omit<Permission, 'id' | 'createdAt' | 'updatedAt' | 'version'>>;

export const listPermissions = async (tx: Tx, query: ListQuery) =>
  (await permissions.list(tx, query)) as { rows: Permission[]; total: number };
export const findPermission = async (tx: Tx, id: string) => (await permissions.find(tx, id)) as Permission | undefined;
export const findPermissionByKey = async (tx: Tx, localeKey: string) =>
  (await permissions.findBy(tx, 'localeKey', localeKey)) as Permission | undefined;
export const insertPermission = async (tx: Tx, values: Values, actor: Actor) =>
  (await permissions.insert(tx, values, actor)) as Permission;
export const updatePermission = async (tx: Tx, id: string, values: Values, actor: Actor, version?: number) =>
  (await permissions.update(tx, id, values, actor, version)) as Permission | undefined;
export const deletePermissions = (tx: Tx, ids: string[], actor: Actor) => permissions.remove(tx, ids, actor);

/** Every permission, parents before children within a level by sort. */
export async function allPermissions(tx: Tx): Promise<Permission[]> {
  return (await permissions.list(tx, { page: null, sort: [{ column: 'sort', desc: false }], filters: [] }))
    .rows as Permission[];
}

export function toTree<T extends { id: string; parentId: string | null }>(
  rows: T[],
): (T & { children: (T & { children: unknown[] })[] })[] {
  type Node = T & { children: Node[] };
  const nodes = new Map<string, Node>(rows.map((r) => [r.id, { ...r, children: [] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent) parent.children.push(node);
    else if (!node.parentId) roots.push(node);
  }
  return roots;
}

export const permissionTree = async (tx: Tx): Promise<PermissionNode[]> =>
  toTree(await allPermissions(tx)) as PermissionNode[];

/** Ids of the permission and of every ancestor of it (to refuse a parent that would close a cycle). */
export async function ancestorIds(tx: Tx, id: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    WITH RECURSIVE up (id, parent_id) AS (
      SELECT id, parent_id FROM permission WHERE id = ${id}
      UNION ALL
      SELECT p.id, p.parent_id FROM permission p JOIN up ON p.id = up.parent_id)
    SELECT id::text AS id FROM up`.execute(tx);
  return rows.rows.map((r) => String(r.id));
}

export async function hasChildren(tx: Tx, ids: string[]): Promise<boolean> {
  const row = await tx
    .selectFrom('permission')
    .select('id')
    .where('parent_id', 'in', ids)
    .where('id', 'not in', ids)
    .executeTakeFirst();
  return row !== undefined;
}

/** Held by a role (of any tenant) or a package. */
export async function isReferenced(tx: Tx, ids: string[]): Promise<boolean> {
  const role = await tx
    .selectFrom('role_permission')
    .select('role_id')
    .where('permission_id', 'in', ids)
    .executeTakeFirst();
  if (role) return true;
  const pkg = await tx
    .selectFrom('package_permission')
    .select('package_id')
    .where('permission_id', 'in', ids)
    .executeTakeFirst();
  return pkg !== undefined;
}

/** A permission turned platform-only leaves every package and every role outside the platform tenant. */
export async function withdrawFromTenants(tx: Tx, permissionId: string, platformTenantId: string): Promise<void> {
  await tx.deleteFrom('package_permission').where('permission_id', '=', permissionId).execute();
  await tx
    .deleteFrom('role_permission')
    .where('permission_id', '=', permissionId)
    .where('tenant_id', '!=', platformTenantId)
    .execute();
}

export async function permissionsByIds(
  tx: Tx,
  ids: string[],
): Promise<Pick<Permission, 'id' | 'code' | 'name' | 'platformOnly'>[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .selectFrom('permission')
    .select(['id', 'code', 'name', 'platform_only'])
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => ({ id: r.id, code: r.code, name: r.name, platformOnly: r.platform_only }));
}

/** The console menu: enabled directories and menus whose code the user holds; directories left empty are dropped. */
export async function menuTree(tx: Tx, held: ReadonlySet<string>): Promise<MenuNode[]> {
  const rows = await tx
    .selectFrom('permission')
    .select([
      'id',
      'parent_id',
      'type',
      'name',
      'name_en',
      'locale_key',
      'code',
      'path',
      'icon',
      'sort',
      'hidden_in_menu',
      'keep_alive',
    ])
    .where('type', 'in', ['directory', 'menu'])
    .where('status', '=', 'enabled')
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const visible = rows.filter((r) => r.type === 'directory' || (r.code !== null && held.has(r.code)));
  const tree = toTree(
    visible.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      type: r.type as 'directory' | 'menu',
      name: r.name,
      nameEn: r.name_en,
      localeKey: r.locale_key,
      code: r.code,
      path: r.path,
      icon: r.icon,
      sort: r.sort,
      hiddenInMenu: r.hidden_in_menu,
      keepAlive: r.keep_alive,
    })),
  ) as unknown as (MenuNode & { parentId?: string | null })[];
  const prune = (nodes: (MenuNode & { parentId?: string | null })[]): MenuNode[] =>
    nodes.flatMap(({ parentId: _, children, ...node }) => {
      const kept = prune(children as (MenuNode & { parentId?: string | null })[]);
      return node.type === 'directory' && kept.length === 0 ? [] : [{ ...node, children: kept }];
    });
  return prune(tree);
}
