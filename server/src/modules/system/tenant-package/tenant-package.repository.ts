import { sql } from 'kysely';
import { createdAtFilter, type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, type TableRow, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { TenantPackage } from './tenant-package.schema';

export const tenantPackageList: ListSpec = {
  sort: { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: 'createdAt',
  filters: {
    keyword: { kind: 'keyword', columns: ['name', 'remark'] },
    status: statusFilter,
    createdAt: createdAtFilter,
  },
};

const packages = tableRepository({
  name: 'tenant_package',
  columns: columnsOf(TenantPackage, { except: ['permissionIds', 'tenantCount'] }),
  softDelete: true,
});

type Values = Partial<Pick<TenantPackage, 'name' | 'status' | 'remark'>>;

async function withDetails(tx: Tx, rows: TableRow[]): Promise<TenantPackage[]> {
  const ids = rows.map((r) => r.id as string);
  if (ids.length === 0) return [];
  const links = await tx
    .selectFrom('package_permission')
    .select(['package_id', 'permission_id'])
    .where('package_id', 'in', ids)
    .orderBy('permission_id')
    .execute();
  const counts = await tx
    .selectFrom('tenant')
    .select(['package_id', sql<string>`count(*)`.as('n')])
    .where('package_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .groupBy('package_id')
    .execute();
  return rows.map((row) => ({
    ...(row as Omit<TenantPackage, 'permissionIds' | 'tenantCount'>),
    permissionIds: links.filter((l) => l.package_id === row.id).map((l) => l.permission_id),
    tenantCount: Number(counts.find((c) => c.package_id === row.id)?.n ?? 0),
  }));
}

export async function listTenantPackages(tx: Tx, query: ListQuery) {
  const { rows, total } = await packages.list(tx, query);
  return { rows: await withDetails(tx, rows), total };
}
export async function findTenantPackage(tx: Tx, id: string) {
  const row = await packages.find(tx, id);
  return row && (await withDetails(tx, [row]))[0];
}
export async function findTenantPackageByName(tx: Tx, name: string) {
  const row = await packages.findBy(tx, 'name', name);
  return row && (await withDetails(tx, [row]))[0];
}
export const insertTenantPackage = async (tx: Tx, values: Values, actor: Actor) =>
  (await packages.insert(tx, values, actor)).id as string;
export const updateTenantPackage = async (tx: Tx, id: string, values: Values, actor: Actor, version?: number) =>
  (await packages.update(tx, id, values, actor, version)) !== undefined;
export const softDeleteTenantPackages = (tx: Tx, ids: string[], actor: Actor) => packages.remove(tx, ids, actor);

export async function replacePackagePermissions(tx: Tx, packageId: string, permissionIds: string[]): Promise<void> {
  await tx.deleteFrom('package_permission').where('package_id', '=', packageId).execute();
  if (permissionIds.length === 0) return;
  await tx
    .insertInto('package_permission')
    .values(permissionIds.map((permissionId) => ({ package_id: packageId, permission_id: permissionId })))
    .execute();
}

export async function tenantsOnPackage(tx: Tx, packageId: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('tenant')
    .select('id')
    .where('package_id', '=', packageId)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}
