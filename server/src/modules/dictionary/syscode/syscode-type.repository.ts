import type { ListSpec } from '../../../core/resource/list-query';
import { tableRepository } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';

export const dictTypeList: ListSpec = {
  sort: { code: 'code', name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' },
  defaultSort: 'code',
  filters: {
    keyword: { kind: 'keyword', columns: ['code', 'name'] },
    status: { kind: 'in', column: 'status', values: ['enabled', 'disabled'] },
    tenantExtensible: { kind: 'eq', column: 'tenant_extensible', values: ['true', 'false'] },
  },
};

export const dictTypes = tableRepository({
  name: 'dict_type',
  columns: {
    id: 'id',
    code: 'code',
    name: 'name',
    isSystem: 'is_system',
    tenantExtensible: 'tenant_extensible',
    status: 'status',
    remark: 'remark',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    version: 'version',
  },
});

export async function findDictTypeByCode(tx: Tx, code: string) {
  return tx
    .selectFrom('dict_type')
    .select(['code', 'tenant_extensible', 'status'])
    .where('code', '=', code)
    .executeTakeFirst();
}
