import { sql } from 'kysely';
import type { Tx } from './tenancy';

/**
 * Every column that holds a value sealed under the master key (core/seal.ts), with the purpose it was sealed for; the
 * ID number's also carries its blind index (`id_no_hash`), kept under the same key as the value. A new sealed column
 * is added here, or `npm run rotate-key` leaves it under the previous key (tests/api/keys.test.ts checks every `bytea`
 * column of the catalogue is here or knowingly not).
 */
export const SEALED_COLUMNS = [
  { table: 'person', column: 'id_no_enc', purpose: 'id-number', hash: 'id_no_hash' },
  { table: 'storage_config', column: 'secret_enc', purpose: 'storage secret' },
  { table: 'wechat_account', column: 'app_secret_enc', purpose: 'wechat secret' },
  { table: 'wechat_account', column: 'aes_key_enc', purpose: 'wechat secret' },
  { table: 'wechat_account', column: 'access_token_enc', purpose: 'wechat secret' },
  { table: 'system_setting', column: 'value_enc', purpose: 'setting secret' },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** The next rows after `afterId` holding a value in the column, locked until the transaction ends. */
export async function lockSealedBatch(
  tx: Tx,
  at: SealedColumn,
  afterId: string,
  limit: number,
): Promise<{ id: string; value: Uint8Array }[]> {
  const { rows } = await sql<{ id: string | number | bigint; value: Uint8Array }>`
    SELECT id, ${sql.ref(at.column)} AS value FROM ${sql.table(at.table)}
    WHERE ${sql.ref(at.column)} IS NOT NULL AND id > ${afterId}::bigint
    ORDER BY id LIMIT ${limit} FOR UPDATE`.execute(tx);
  return rows.map((r) => ({ id: String(r.id), value: r.value }));
}

/** The value re-sealed (and its blind index, for a column that has one); the row's version stays: nothing changed. */
export async function writeResealed(tx: Tx, at: SealedColumn, id: string, value: Buffer, hash?: Buffer): Promise<void> {
  const sets = [sql`${sql.ref(at.column)} = ${value}`];
  if ('hash' in at && hash) sets.push(sql`${sql.ref(at.hash)} = ${hash}`);
  await sql`UPDATE ${sql.table(at.table)} SET ${sql.join(sets)} WHERE id = ${id}::bigint`.execute(tx);
}

/** The bytea columns of the catalogue's tables (`table.column`), to find a sealed column missing from the list. */
export async function byteaColumns(tx: Tx): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name || '.' || column_name AS name FROM information_schema.columns
    WHERE table_schema = current_schema() AND data_type = 'bytea' ORDER BY 1`.execute(tx);
  return rows.map((r) => r.name);
}
