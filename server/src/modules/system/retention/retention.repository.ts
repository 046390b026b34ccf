import { type RawBuilder, sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';

/**
 * The tables the retention purge removes old rows from: what makes a row old enough besides its age (a message no
 * longer waiting to be sent, a batch finished with none of its messages left), and the order of the table's index on
 * `(tenant_id, created_at …)` read backwards, oldest first, so that a batch is the first rows of an index scan, never a
 * sort of every old row.
 */
const PURGEABLE = {
  audit_log: { where: sql`true`, oldestFirst: sql`b.created_at` },
  login_log: { where: sql`true`, oldestFirst: sql`b.created_at` },
  message: {
    where: sql`b.status IN ('sent', 'delivered', 'read', 'failed', 'cancelled')`,
    oldestFirst: sql`b.created_at NULLS FIRST, b.id`,
  },
  message_batch: {
    where: sql`b.status IN ('completed', 'cancelled')
      AND NOT EXISTS (SELECT 1 FROM message m WHERE m.tenant_id = b.tenant_id AND m.batch_id = b.id)`,
    oldestFirst: sql`b.created_at NULLS FIRST, b.id`,
  },
} satisfies Record<string, { where: RawBuilder<unknown>; oldestFirst: RawBuilder<unknown> }>;

export type PurgeableTable = keyof typeof PURGEABLE;

/** Every tenant, disabled and deleted ones included: their rows age out too. */
export async function allTenantIds(tx: Tx): Promise<string[]> {
  const rows = await tx.selectFrom('tenant').select('id').orderBy('id').execute();
  return rows.map((r) => String(r.id));
}

/**
 * Removes up to `limit` of the tenant's oldest rows of `table` created before `before`; answers how many. The rows are
 * found through the table's index on `(tenant_id, created_at)`, oldest first, and only they are locked, until the caller's
 * transaction ends.
 */
export async function deleteOldRows(
  tx: Tx,
  table: PurgeableTable,
  tenantId: string,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await sql`
    DELETE FROM ${sql.table(table)} WHERE tenant_id = ${tenantId} AND id IN (
      SELECT b.id FROM ${sql.table(table)} b
      WHERE b.tenant_id = ${tenantId} AND b.created_at < ${before} AND ${PURGEABLE[table].where}
      ORDER BY ${PURGEABLE[table].oldestFirst} LIMIT ${limit})`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}
