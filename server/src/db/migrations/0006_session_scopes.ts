import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/** The scopes a session was granted: within its client's scopes, narrowed (never widened) by a refresh. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [`ALTER TABLE auth_session ADD COLUMN scopes text[] NOT NULL DEFAULT '{}'`]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['ALTER TABLE auth_session DROP COLUMN scopes']);
}
