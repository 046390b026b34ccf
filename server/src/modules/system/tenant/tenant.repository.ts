import { sql } from 'kysely';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter, type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, type TableRow, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { Tenant } from './tenant.schema';

export interface TenantRow {
  id: string;
  code: string;
  name: string;
  status: 'enabled' | 'disabled';
  expiresAt: Date | null;
}

export async function findTenantById(tx: Tx, id: string): Promise<TenantRow | undefined> {
  const row = await tx
    .selectFrom('tenant')
    .select(['id', 'code', 'name', 'status', 'expires_at'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, code: row.code, name: row.name, status: row.status, expiresAt: row.expires_at };
}

export async function findAccountQuota(tx: Tx, id: string): Promise<number | undefined> {
  const row = await tx.selectFrom('tenant').select('max_accounts').where('id', '=', id).executeTakeFirst();
  return row?.max_accounts;
}

export const tenantList: ListSpec = {
  sort: { code: 'code', name: 'name', expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: '-createdAt',
  filters: {
    keyword: { kind: 'keyword', columns: ['code', 'name', 'short_name', 'contact_name', 'contact_mobile'] },
    status: statusFilter,
    packageId: { kind: 'eq', column: 'package_id', pattern: ID_PATTERN },
    expiresAt: { kind: 'dateRange', column: 'expires_at' },
    createdAt: createdAtFilter,
  },
};

const tenants = tableRepository({
  name: 'tenant',
  columns: columnsOf(Tenant, { except: ['packageName', 'expired', 'accountCount'] }),
  softDelete: true,
});

export type TenantValues = Partial<
  Omit<Tenant, 'id' | 'packageName' | 'expired' | 'accountCount' | 'createdAt' | 'updatedAt' | 'version'>
>;

/** Package names and account counts (every tenant's rows: platform operator scope). */
async function withDetails(tx: Tx, rows: TableRow[], now: Date): Promise<Tenant[]> {
  const ids = rows.map((r) => r.id as string);
  if (ids.length === 0) return [];
  const packageIds = [...new Set(rows.map((r) => r.packageId as string | null).filter((p): p is string => p !== null))];
  const packages = packageIds.length
    ? await tx.selectFrom('tenant_package').select(['id', 'name']).where('id', 'in', packageIds).execute()
    : [];
  const counts = await tx
    .selectFrom('admin_user')
    .select(['tenant_id', sql<string>`count(*)`.as('n')])
    .where('tenant_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .groupBy('tenant_id')
    .execute();
  return rows.map((row) => {
    const expiresAt = row.expiresAt as string | null;
    return {
      ...(row as Omit<Tenant, 'packageName' | 'expired' | 'accountCount'>),
      domains: (row.domains as string[] | null) ?? [],
      packageName: packages.find((p) => p.id === row.packageId)?.name ?? null,
      expired: expiresAt !== null && new Date(expiresAt).getTime() <= now.getTime(),
      accountCount: Number(counts.find((c) => c.tenant_id === row.id)?.n ?? 0),
    };
  });
}

export async function listTenants(tx: Tx, query: ListQuery, now: Date) {
  const { rows, total } = await tenants.list(tx, query);
  return { rows: await withDetails(tx, rows, now), total };
}
export async function findTenant(tx: Tx, id: string, now: Date) {
  const row = await tenants.find(tx, id);
  return row && (await withDetails(tx, [row], now))[0];
}
export async function findTenantByCode(tx: Tx, code: string, now: Date) {
  const row = await tenants.findBy(tx, 'code', code);
  return row && (await withDetails(tx, [row], now))[0];
}
export const insertTenant = async (tx: Tx, values: TenantValues & { code: string; name: string }, actor: Actor) =>
  (await tenants.insert(tx, values, actor)).id as string;
export const updateTenant = async (tx: Tx, id: string, values: TenantValues, actor: Actor, version?: number) =>
  (await tenants.update(tx, id, values, actor, version)) !== undefined;
export const softDeleteTenants = (tx: Tx, ids: string[], actor: Actor) => tenants.remove(tx, ids, actor);

export async function findPackage(tx: Tx, id: string): Promise<{ id: string; status: string } | undefined> {
  return tx
    .selectFrom('tenant_package')
    .select(['id', 'status'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findPackageIdByName(tx: Tx, name: string): Promise<string | undefined> {
  const row = await tx
    .selectFrom('tenant_package')
    .select('id')
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.id;
}

/** Domains another tenant already uses. */
export async function domainsTaken(tx: Tx, domains: string[], exceptId: string | null): Promise<string[]> {
  if (domains.length === 0) return [];
  let q = tx
    .selectFrom('tenant')
    .select('domains')
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`domains && ARRAY[${sql.join(domains)}]::text[]`);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  const taken = new Set(rows.flatMap((r) => r.domains));
  return domains.filter((d) => taken.has(d));
}

/** Public: what the sign-in page may know of a tenant. */
export async function resolveTenant(tx: Tx, by: { code?: string; domain?: string }) {
  let q = tx.selectFrom('tenant').select(['code', 'name', 'status', 'expires_at']).where('deleted_at', 'is', null);
  if (by.code) q = q.where('code', '=', by.code);
  else if (by.domain) q = q.where(sql<boolean>`${by.domain} = ANY(domains)`);
  else return undefined;
  return q.executeTakeFirst();
}

/** The first administrator, created with the tenant (cross-tenant insert: platform operator scope). */
export async function insertFirstAdmin(
  tx: Tx,
  a: {
    tenantId: string;
    userName: string;
    displayName: string;
    passwordHash: string;
    mustChangePassword: boolean;
    roleId: string;
  },
  actor: Actor,
): Promise<string> {
  const user = await tx
    .insertInto('admin_user')
    .values({
      tenant_id: a.tenantId,
      username: a.userName,
      display_name: a.displayName,
      password_hash: a.passwordHash,
      password_changed_at: actor.now,
      must_change_password: a.mustChangePassword,
      created_at: actor.now,
      created_by: actor.actorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.insertInto('user_role').values({ tenant_id: a.tenantId, user_id: user.id, role_id: a.roleId }).execute();
  return user.id;
}

export async function linkAdmin(tx: Tx, tenantId: string, adminUserId: string): Promise<void> {
  await tx.updateTable('tenant').set({ admin_user_id: adminUserId }).where('id', '=', tenantId).execute();
}
