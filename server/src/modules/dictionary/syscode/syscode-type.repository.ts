import type { Tx } from '../../../core/tenancy';

export async function findDictTypeByCode(tx: Tx, code: string) {
  return tx
    .selectFrom('dict_type')
    .select(['code', 'tenant_extensible', 'status'])
    .where('code', '=', code)
    .executeTakeFirst();
}
