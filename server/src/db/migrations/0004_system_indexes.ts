import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * System administration (issue 3): the lookups its rules make — sessions of a client (revoke-tokens), and whether a
 * permission is still held by a role or a package (delete).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE INDEX auth_session_client_idx ON auth_session (client_id) WHERE revoked_at IS NULL`,
    `CREATE INDEX role_permission_permission_idx ON role_permission (permission_id)`,
    `CREATE INDEX package_permission_permission_idx ON package_permission (permission_id)`,
    `CREATE INDEX tenant_package_idx ON tenant (package_id)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'DROP INDEX tenant_package_idx',
    'DROP INDEX package_permission_permission_idx',
    'DROP INDEX role_permission_permission_idx',
    'DROP INDEX auth_session_client_idx',
  ]);
}
