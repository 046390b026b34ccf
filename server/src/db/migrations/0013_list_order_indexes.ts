import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Imports and exports at scale (issue 6): an export reads the list batch after batch by keyset (its sort, then the
 * id); an index in that order answers each batch by a range scan instead of a scan of the whole table. Roles are the
 * resource imported by the hundred thousand; their list sorts by `sort` by default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`CREATE INDEX role_list_order_idx ON role (tenant_id, sort, id) WHERE deleted_at IS NULL`]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP INDEX role_list_order_idx']);
}
