import { sql } from 'kysely';
import { createdAtFilter, type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { PLATFORM_TENANT } from '../../../core/tenancy';
import { allPermissions } from '../permission/permission.repository';
import type { Permission } from '../permission/permission.schema';
import { Role, TENANT_ADMIN_ROLE } from './role.schema';

export const roleList: ListSpec = {
  sort: { sort: 'sort', code: 'code', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: 'sort',
  filters: {
    keyword: { kind: 'keyword', columns: ['code', 'name', 'remark'] },
    status: statusFilter,
    type: { kind: 'in', column: 'type', values: ['system', 'custom'] },
    createdAt: createdAtFilter,
  },
};

/** RLS keeps every statement inside the transaction's tenant. */
const roles = tableRepository({
  name: 'role',
  columns: columnsOf(Role),
  softDelete: true,
  tenantOwned: true,
});

type Values = Partial<Omit<Role, 'id' | 'createdAt' | 'updatedAt' | 'version'>>;
const asRole = (row: Record<string, unknown> | undefined) =>
  row && ({ ...row, dataScopeOrgIds: ((row.dataScopeOrgIds as unknown[]) ?? []).map(String) } as Role);

export async function listRoles(tx: Tx, query: ListQuery): Promise<{ rows: Role[]; total: number }> {
  const { rows, total } = await roles.list(tx, query);
  return { rows: rows.map((r) => asRole(r) as Role), total };
}
export const findRole = async (tx: Tx, id: string) => asRole(await roles.find(tx, id));
export const findRoleByCode = async (tx: Tx, code: string) => asRole(await roles.findBy(tx, 'code', code));
export const findRolesByCodes = async (tx: Tx, codes: string[]) =>
  (await roles.findAllBy(tx, 'code', codes)).map((r) => asRole(r) as Role);
export const insertRole = async (tx: Tx, values: Values, actor: Actor) =>
  asRole(await roles.insert(tx, values, actor)) as Role;
/** Custom roles (an import's batch): `type` is set once for all of them, not copied into each. */
export const insertCustomRoles = async (tx: Tx, values: Values[], actor: Actor) =>
  (await roles.insertMany(tx, values, actor, { type: 'custom' })).map((r) => asRole(r) as Role);
export const updateRole = async (tx: Tx, id: string, values: Values, actor: Actor, version?: number) =>
  asRole(await roles.update(tx, id, values, actor, version));
export const softDeleteRoles = (tx: Tx, ids: string[], actor: Actor) => roles.remove(tx, ids, actor);

export async function roleOptions(tx: Tx): Promise<{ id: string; code: string; name: string }[]> {
  return tx
    .selectFrom('role')
    .select(['id', 'code', 'name'])
    .where('deleted_at', 'is', null)
    .where('status', '=', 'enabled')
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function rolePermissionIds(tx: Tx, roleId: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('role_permission')
    .select('permission_id')
    .where('role_id', '=', roleId)
    .orderBy('permission_id')
    .execute();
  return rows.map((r) => r.permission_id);
}

export async function replaceRolePermissions(
  tx: Tx,
  tenantId: string,
  roleId: string,
  permissionIds: string[],
): Promise<void> {
  await tx.deleteFrom('role_permission').where('role_id', '=', roleId).execute();
  if (permissionIds.length === 0) return;
  await tx
    .insertInto('role_permission')
    .values(
      permissionIds.map((permissionId) => ({ tenant_id: tenantId, role_id: roleId, permission_id: permissionId })),
    )
    .execute();
}

/** What a role of the tenant may hold: everything in the platform tenant; elsewhere the package, never platform-only. */
export async function assignablePermissions(tx: Tx, tenantId: string): Promise<Permission[]> {
  const tenant = await tx
    .selectFrom('tenant')
    .select(['code', 'package_id'])
    .where('id', '=', tenantId)
    .executeTakeFirst();
  const all = await allPermissions(tx);
  if (tenant?.code === PLATFORM_TENANT) return all;
  const inPackage = new Set(
    tenant?.package_id
      ? (
          await tx
            .selectFrom('package_permission')
            .select('permission_id')
            .where('package_id', '=', tenant.package_id)
            .execute()
        ).map((r) => r.permission_id)
      : [],
  );
  return all.filter((p) => !p.platformOnly && inPackage.has(p.id));
}

export async function members(tx: Tx, roleId: string) {
  return tx
    .selectFrom('user_role as ur')
    .innerJoin('admin_user as u', 'u.id', 'ur.user_id')
    .select(['u.id', 'u.username as userName', 'u.display_name as displayName', 'u.status'])
    .where('ur.role_id', '=', roleId)
    .where('u.deleted_at', 'is', null)
    .orderBy('u.username')
    .execute();
}

export async function addMembers(tx: Tx, tenantId: string, roleId: string, userIds: string[]): Promise<void> {
  await tx
    .insertInto('user_role')
    .values(userIds.map((userId) => ({ tenant_id: tenantId, user_id: userId, role_id: roleId })))
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'role_id']).doNothing())
    .execute();
}

export async function removeMember(tx: Tx, roleId: string, userId: string): Promise<void> {
  await tx.deleteFrom('user_role').where('role_id', '=', roleId).where('user_id', '=', userId).execute();
}

/**
 * After a tenant's package (or a package's permissions) changed: `tenant_admin` holds exactly the package, every
 * other role keeps only what is still in it. Runs as the platform operator (any tenant's rows).
 */
export async function syncTenantRoles(tx: Tx, tenantId: string, packageId: string | null): Promise<void> {
  const pkg = packageId ?? '0';
  await sql`DELETE FROM role_permission rp
    WHERE rp.tenant_id = ${tenantId}
      AND NOT EXISTS (SELECT 1 FROM package_permission pp WHERE pp.package_id = ${pkg} AND pp.permission_id = rp.permission_id)`.execute(
    tx,
  );
  await sql`INSERT INTO role_permission (tenant_id, role_id, permission_id)
    SELECT r.tenant_id, r.id, pp.permission_id
    FROM role r JOIN package_permission pp ON pp.package_id = ${pkg}
    WHERE r.tenant_id = ${tenantId} AND r.code = ${TENANT_ADMIN_ROLE} AND r.type = 'system' AND r.deleted_at IS NULL
    ON CONFLICT DO NOTHING`.execute(tx);
}

export async function insertTenantAdminRole(tx: Tx, tenantId: string, actor: Actor): Promise<string> {
  const row = await tx
    .insertInto('role')
    .values({
      tenant_id: tenantId,
      code: TENANT_ADMIN_ROLE,
      name: '租户管理员',
      type: 'system',
      created_at: actor.now,
      created_by: actor.actorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
