import type { Kysely } from 'kysely';
import { auditColumns, runStatements } from './statements';

/**
 * Row-level security. Request queries run as medu_app (SET LOCAL ROLE) with app.tenant_id set;
 * the few lookups that precede knowing the tenant, and seeding, run as medu_system.
 * Neither role can bypass RLS; FORCE makes the policies apply to the table owner too.
 */
export const APP_ROLE = 'medu_app';
export const SYSTEM_ROLE = 'medu_system';

const tenantTables = ['admin_user', 'role', 'role_permission', 'user_role', 'auth_session', 'auth_token', 'login_log'];
const hybridTables = ['system_setting', 'dict_item'];
const globalTables = [
  'tenant',
  'tenant_package',
  'package_permission',
  'permission',
  'oauth_client',
  'dict_type',
  'error_code',
];

const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;

/**
 * What makes a table made later tenant-owned: both roles' grants, forced RLS, the system role's access and the
 * tenant's own rows for the app role (as the tenant tables here).
 */
export const tenantOwnedTable = (table: string): string[] => [
  `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${APP_ROLE}, ${SYSTEM_ROLE}`,
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
  `CREATE POLICY system_access ON ${table} TO ${SYSTEM_ROLE} USING (true) WITH CHECK (true)`,
  `CREATE POLICY tenant_isolation ON ${table} TO ${APP_ROLE}
     USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
];

/**
 * A tenant-owned table made after this migration: its identity and tenant first, then `body` (columns and constraints
 * of its own), then the audit columns (`audited`, else none) and the primary key `(tenant_id, id)` (tenant_id in every
 * key, for Citus); followed by what makes it tenant-owned (`tenantOwnedTable`).
 */
export const tenantTable = (table: string, body: string, { audited = true } = {}): string[] => [
  `CREATE TABLE ${table} (
    id bigint GENERATED ALWAYS AS IDENTITY,
    tenant_id bigint NOT NULL REFERENCES tenant (id),
    ${body},${audited ? `\n    ${auditColumns},` : ''}
    PRIMARY KEY (tenant_id, id))`,
  ...tenantOwnedTable(table),
];

function createRole(name: string): string {
  return `DO $$
BEGIN
  BEGIN
    CREATE ROLE ${name} NOLOGIN NOBYPASSRLS;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END;
  IF (SELECT rolbypassrls OR rolsuper FROM pg_roles WHERE rolname = '${name}') THEN
    RAISE EXCEPTION 'role ${name} must not bypass row-level security';
  END IF;
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, '${name}', 'MEMBER') THEN
    EXECUTE format('GRANT ${name} TO %I', current_user);
  END IF;
END $$`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [createRole(APP_ROLE), createRole(SYSTEM_ROLE)];
  statements.push(`GRANT USAGE ON SCHEMA public TO ${APP_ROLE}, ${SYSTEM_ROLE}`);
  for (const table of globalTables) {
    statements.push(`GRANT SELECT ON ${table} TO ${APP_ROLE}`);
    statements.push(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${SYSTEM_ROLE}`);
  }
  for (const table of [...tenantTables, ...hybridTables]) {
    statements.push(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${APP_ROLE}, ${SYSTEM_ROLE}`,
      `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
      `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
      `CREATE POLICY system_access ON ${table} TO ${SYSTEM_ROLE} USING (true) WITH CHECK (true)`,
    );
  }
  for (const table of tenantTables) {
    statements.push(
      `CREATE POLICY tenant_isolation ON ${table} TO ${APP_ROLE}
         USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
    );
  }
  for (const table of hybridTables) {
    statements.push(
      `CREATE POLICY tenant_read ON ${table} FOR SELECT TO ${APP_ROLE}
         USING (tenant_id IS NULL OR tenant_id = ${currentTenant})`,
      `CREATE POLICY tenant_write ON ${table} FOR ALL TO ${APP_ROLE}
         USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
    );
  }
  await runStatements(db, statements);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const statements: string[] = [];
  for (const table of hybridTables) {
    statements.push(`DROP POLICY tenant_write ON ${table}`, `DROP POLICY tenant_read ON ${table}`);
  }
  for (const table of tenantTables) statements.push(`DROP POLICY tenant_isolation ON ${table}`);
  for (const table of [...tenantTables, ...hybridTables]) {
    statements.push(
      `DROP POLICY system_access ON ${table}`,
      `ALTER TABLE ${table} NO FORCE ROW LEVEL SECURITY`,
      `ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`,
    );
  }
  for (const table of [...globalTables, ...tenantTables, ...hybridTables]) {
    statements.push(`REVOKE ALL ON ${table} FROM ${APP_ROLE}, ${SYSTEM_ROLE}`);
  }
  // The roles are cluster-wide and may serve other databases, so they stay.
  statements.push(`REVOKE USAGE ON SCHEMA public FROM ${APP_ROLE}, ${SYSTEM_ROLE}`);
  await runStatements(db, statements);
}
