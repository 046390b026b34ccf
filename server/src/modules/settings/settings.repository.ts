import type { Tx } from '../../core/tenancy';

export interface SettingValueRow {
  key: string;
  tenantId: string | null;
  value: unknown;
}

/** Rows visible in the transaction's scope: platform defaults and, inside a tenant, its overrides. */
export async function findSettingValues(tx: Tx, keys: readonly string[]): Promise<SettingValueRow[]> {
  if (keys.length === 0) return [];
  const rows = await tx.selectFrom('system_setting').select(['key', 'tenant_id', 'value']).where('key', 'in', keys).execute();
  return rows.map((r) => ({ key: r.key, tenantId: r.tenant_id, value: r.value }));
}

export async function findPublicSettingValues(tx: Tx): Promise<SettingValueRow[]> {
  const rows = await tx
    .selectFrom('system_setting')
    .select(['key', 'tenant_id', 'value'])
    .where('key', 'in', (qb) => qb.selectFrom('system_setting').select('key').where('tenant_id', 'is', null).where('is_public', '=', true))
    .execute();
  return rows.map((r) => ({ key: r.key, tenantId: r.tenant_id, value: r.value }));
}
