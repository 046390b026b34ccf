import { platformTenant, platformTenantId } from '../../../core/platform-tenant.repository';
import { type ListQuery, type ListSpec, statusFilter } from '../../../core/resource/list-query';
import { type Actor, columnsOf, type TableRow, tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { DictItem } from './syscode-item.schema';

export const dictItemList: ListSpec = {
  sort: {
    typeCode: 'type_code',
    sort: 'sort',
    value: 'value',
    label: 'label',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  },
  defaultSort: 'typeCode,sort',
  filters: {
    typeCode: { kind: 'eq', column: 'type_code' },
    keyword: { kind: 'keyword', columns: ['value', 'label', 'label_en'] },
    status: statusFilter,
  },
};

/** RLS shows platform items (the platform tenant's) and the caller's tenant's; inserts name the caller's tenant. */
const items = tableRepository({
  name: 'dict_item',
  columns: { ...columnsOf(DictItem, { except: ['scope'] }), tenantId: 'tenant_id' },
});

async function scoped(tx: Tx) {
  const platform = await platformTenantId(tx);
  return ({ tenantId, ...row }: TableRow): DictItem =>
    ({ ...row, scope: String(tenantId) === platform ? 'platform' : 'tenant' }) as DictItem;
}

export async function listDictItems(tx: Tx, query: ListQuery) {
  const { rows, total } = await items.list(tx, query);
  return { rows: rows.map(await scoped(tx)), total };
}

export async function findDictItem(tx: Tx, id: string) {
  const row = await items.find(tx, id);
  return row && (await scoped(tx))(row);
}

export async function insertDictItem(tx: Tx, values: TableRow & { tenantId: string }, actor: Actor) {
  return (await scoped(tx))(await items.insert(tx, values, actor));
}

export async function updateDictItem(tx: Tx, id: string, values: TableRow, actor: Actor, version: number) {
  const row = await items.update(tx, id, values, actor, version);
  return row && (await scoped(tx))(row);
}

export async function deleteDictItems(tx: Tx, ids: string[], actor: Actor) {
  await items.remove(tx, ids, actor);
}

/** Is the value taken by a platform item of the type (tenants add values, they do not shadow platform ones)? */
export async function platformValueExists(tx: Tx, typeCode: string, value: string): Promise<boolean> {
  const row = await tx
    .selectFrom('dict_item')
    .select('id')
    .where('type_code', '=', typeCode)
    .where('value', '=', value)
    .where('tenant_id', '=', platformTenant)
    .executeTakeFirst();
  return row !== undefined;
}
