import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Ready for Citus with the tenant as distribution column (docs/architecture.md, "Scaling out"): every table whose
 * rows all belong to one tenant carries tenant_id in its primary key and unique constraints, and references another
 * such table through (tenant_id, id). login_log joins them: a sign-in for an unknown tenant is kept under the platform
 * tenant, whose operators are the ones to read it.
 */
const keyed = ['admin_user', 'role', 'auth_session', 'auth_token', 'audit_log', 'login_log'];

const foreignKeys = [
  { table: 'user_role', name: 'user_role_user_id_fkey', column: 'user_id', target: 'admin_user' },
  { table: 'user_role', name: 'user_role_role_id_fkey', column: 'role_id', target: 'role' },
  { table: 'role_permission', name: 'role_permission_role_id_fkey', column: 'role_id', target: 'role' },
  { table: 'auth_session', name: 'auth_session_user_id_fkey', column: 'user_id', target: 'admin_user' },
  { table: 'auth_token', name: 'auth_token_session_id_fkey', column: 'session_id', target: 'auth_session' },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `UPDATE login_log SET tenant_id = (SELECT id FROM tenant WHERE code = 'platform') WHERE tenant_id IS NULL`,
    `ALTER TABLE login_log ALTER COLUMN tenant_id SET NOT NULL`,
    ...foreignKeys.map(({ table, name }) => `ALTER TABLE ${table} DROP CONSTRAINT ${name}`),
    ...keyed.map((table) => `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (tenant_id, id)`),
    `ALTER TABLE role_permission DROP CONSTRAINT role_permission_pkey, ADD PRIMARY KEY (tenant_id, role_id, permission_id)`,
    `ALTER TABLE user_role DROP CONSTRAINT user_role_pkey, ADD PRIMARY KEY (tenant_id, user_id, role_id)`,
    ...foreignKeys.map(
      ({ table, name, column, target }) =>
        `ALTER TABLE ${table} ADD CONSTRAINT ${name} FOREIGN KEY (tenant_id, ${column})
           REFERENCES ${target} (tenant_id, id) ON DELETE CASCADE`,
    ),
    `DROP INDEX auth_token_hash_uq`,
    // token_hash leads: the look-up by hash happens before the tenant is known.
    `CREATE UNIQUE INDEX auth_token_hash_uq ON auth_token (token_hash, tenant_id)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DROP INDEX auth_token_hash_uq`,
    `CREATE UNIQUE INDEX auth_token_hash_uq ON auth_token (token_hash)`,
    ...foreignKeys.map(({ table, name }) => `ALTER TABLE ${table} DROP CONSTRAINT ${name}`),
    `ALTER TABLE user_role DROP CONSTRAINT user_role_pkey, ADD PRIMARY KEY (user_id, role_id)`,
    `ALTER TABLE role_permission DROP CONSTRAINT role_permission_pkey, ADD PRIMARY KEY (role_id, permission_id)`,
    ...keyed.map((table) => `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (id)`),
    ...foreignKeys.map(
      ({ table, name, column, target }) =>
        `ALTER TABLE ${table} ADD CONSTRAINT ${name} FOREIGN KEY (${column}) REFERENCES ${target} (id) ON DELETE CASCADE`,
    ),
    `ALTER TABLE login_log ALTER COLUMN tenant_id DROP NOT NULL`,
  ]);
}
