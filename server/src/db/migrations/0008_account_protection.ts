import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * `successor_sealed`: the pair a refresh token was exchanged for, encrypted with a key derived from that refresh token
 * (never stored), so a second presentation within the grace period gets the same pair. The index serves the lock-out
 * of user names that have no account, counted from their failed sign-ins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE auth_token ADD COLUMN successor_sealed text',
    `CREATE INDEX login_log_unknown_user_idx ON login_log (tenant_id, username, created_at DESC) WHERE user_id IS NULL`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX login_log_unknown_user_idx',
    'ALTER TABLE auth_token DROP COLUMN successor_sealed',
  ]);
}
