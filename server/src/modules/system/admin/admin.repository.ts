import { sql } from 'kysely';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter, filterValue, type ListQuery, type ListSpec } from '../../../core/resource/list-query';
import {
  type Actor,
  columnsOf,
  type Narrow,
  type TableRow,
  tableRepository,
} from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { AdminUser } from './admin.schema';

export const adminUserList: ListSpec = {
  sort: {
    userName: 'username',
    displayName: 'display_name',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    lastLoginAt: 'last_login_at',
  },
  defaultSort: '-createdAt',
  filters: {
    keyword: { kind: 'keyword', columns: ['username', 'display_name', 'mobile', 'email'] },
    status: { kind: 'in', column: 'status', values: ['enabled', 'disabled', 'locked'] },
    roleId: { kind: 'eq', pattern: ID_PATTERN },
    createdAt: createdAtFilter,
  },
};

/** RLS limits every statement to the transaction's tenant: another tenant's ids find and change nothing. */
const users = tableRepository({
  name: 'admin_user',
  columns: columnsOf(AdminUser, { except: ['roleIds', 'roles'], renamed: { userName: 'username' } }),
  writeOnly: {
    passwordHash: 'password_hash',
    passwordChangedAt: 'password_changed_at',
    failedLoginCount: 'failed_login_count',
  },
  softDelete: true,
  tenantOwned: true,
  computed: {
    roles: sql`COALESCE((
      SELECT json_agg(json_build_object('id', r.id::text, 'code', r.code, 'name', r.name) ORDER BY r.sort, r.id)
      FROM user_role ur JOIN role r ON r.id = ur.role_id
      WHERE ur.user_id = admin_user.id AND r.deleted_at IS NULL), '[]'::json)`,
  },
});

export type AdminUserValues = Partial<
  Omit<AdminUser, 'id' | 'roles' | 'roleIds' | 'createdAt' | 'updatedAt' | 'version'>
> & {
  passwordHash?: string;
  passwordChangedAt?: Date;
  failedLoginCount?: number;
};

const withRoleIds = (row: TableRow | undefined) =>
  row && ({ ...row, roleIds: (row.roles as AdminUser['roles']).map((r) => r.id) } as AdminUser);

const hasRole =
  (roleId: string): Narrow =>
  (qb) =>
    qb.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_role as ur')
          .select('ur.user_id')
          .whereRef('ur.user_id', '=', 'admin_user.id')
          .where('ur.role_id', '=', roleId),
      ),
    );

export async function listAdminUsers(tx: Tx, query: ListQuery): Promise<{ rows: AdminUser[]; total: number }> {
  const roleId = filterValue(query, 'roleId');
  const { rows, total } = await users.list(tx, query, roleId?.kind === 'eq' ? hasRole(roleId.value) : undefined);
  return { rows: rows.map((row) => withRoleIds(row) as AdminUser), total };
}

export async function findAdminUser(tx: Tx, id: string): Promise<AdminUser | undefined> {
  return withRoleIds(await users.find(tx, id));
}

export async function findAdminUserByUsername(tx: Tx, username: string): Promise<AdminUser | undefined> {
  return withRoleIds(await users.findBy(tx, 'userName', username.trim().toLowerCase()));
}

export async function insertAdminUser(
  tx: Tx,
  values: AdminUserValues & { userName: string; displayName: string; passwordHash: string },
  actor: Actor,
) {
  return (await users.insert(tx, values, actor)).id as string;
}

/** With a version: optimistic, false when stale. */
export async function updateAdminUser(
  tx: Tx,
  id: string,
  values: AdminUserValues,
  actor: Actor,
  version?: number,
): Promise<boolean> {
  return (await users.update(tx, id, values, actor, version)) !== undefined;
}

export async function softDeleteAdminUsers(tx: Tx, ids: string[], actor: Actor): Promise<void> {
  await users.remove(tx, ids, actor);
}

export async function replaceUserRoles(tx: Tx, tenantId: string, userId: string, roleIds: string[]): Promise<void> {
  await tx.deleteFrom('user_role').where('user_id', '=', userId).execute();
  if (roleIds.length === 0) return;
  await tx
    .insertInto('user_role')
    .values(roleIds.map((roleId) => ({ tenant_id: tenantId, user_id: userId, role_id: roleId })))
    .execute();
}

export async function findRoleIdsByCode(tx: Tx, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await tx
    .selectFrom('role')
    .select(['id', 'code'])
    .where('code', 'in', codes)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.code, r.id]));
}

export async function countAccounts(tx: Tx): Promise<number> {
  const row = await tx
    .selectFrom('admin_user')
    .select(sql<string>`count(*)`.as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Serialises account creation per tenant until the transaction ends, so two creations cannot both take the last seat. */
export async function lockAccountQuota(tx: Tx, tenantId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(1001, ${Number(tenantId)}::int)`.execute(tx);
}
