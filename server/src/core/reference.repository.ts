import { sql } from 'kysely';
import type { TableName } from './resource/table.repository';
import type { Tx } from './tenancy';

/**
 * Which of `ids` name a row of `table` that the transaction sees: under the application role, a row of its tenant or a
 * shared (platform) row of a table that has them, as every other read of the request.
 */
export async function visibleIds(tx: Tx, table: TableName, ids: readonly string[]): Promise<Set<string>> {
  const { rows } = await sql<{ id: string }>`SELECT id::text AS id FROM ${sql.table(table)}
    WHERE id = ANY(${[...ids]}::bigint[])`.execute(tx);
  return new Set(rows.map((r) => r.id));
}
