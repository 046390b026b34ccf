import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Permissions get an English name beside the Chinese one. Rows already in a database are named by the base seed
 * on the next start: it fills an empty English name and replaces a button's name that is still its bare code,
 * and leaves every name an operator wrote.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE permission ADD COLUMN name_en varchar(100)']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE permission DROP COLUMN name_en']);
}
