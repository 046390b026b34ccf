import type { Tx } from '../tenancy';
import { onceIn } from '../tx-memo';
import type { ValueLabels } from './readable-cells';

/**
 * The enabled items of a dictionary as a coded column's labels, in their order (the platform's and the tenant's, as
 * row-level security shows them), read once per transaction.
 */
export function dictionaryValues(tx: Tx, typeCode: string): Promise<ValueLabels> {
  return onceIn(tx, `dictionary-values:${typeCode}`, async () => {
    const items = await tx
      .selectFrom('dict_item')
      .select(['value', 'label', 'label_en'])
      .where('type_code', '=', typeCode)
      .where('status', '=', 'enabled')
      .orderBy('sort')
      .orderBy('value')
      .execute();
    return new Map(items.map((i) => [i.value, { 'zh-CN': i.label, 'en-US': i.label_en || i.label }]));
  });
}
