import { type Kysely, sql } from 'kysely';
import type { Tx } from '../../core/tenancy';
import type { DB } from '../../db/types';

export async function ping(tx: Tx): Promise<void> {
  await sql`SELECT 1`.execute(tx);
}

/**
 * The last migration applied to the database (Kysely's own table, which the application's roles are not granted: read
 * as the owner, outside any tenant's scope). Answering at all says the database answers.
 */
export async function latestMigration(db: Kysely<DB>): Promise<string | null> {
  const { rows } = await sql<{ name: string | null }>`SELECT max(name) AS name FROM kysely_migration`.execute(db);
  return rows[0]?.name ?? null;
}
