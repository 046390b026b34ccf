import type { Tx } from '../../core/tenancy';

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
