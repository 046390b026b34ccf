import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;

/** The audit trail (docs/domain.md §2.4): tenant-owned like login_log; the application may add and read rows, never change them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint NOT NULL REFERENCES tenant (id),
      trace_id varchar(64),
      actor_id bigint,
      actor_name varchar(100),
      action varchar(100) NOT NULL,
      resource_type varchar(50) NOT NULL,
      resource_id varchar(64),
      summary varchar(500),
      before jsonb,
      after jsonb,
      ip varchar(64),
      user_agent varchar(500),
      created_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE INDEX audit_log_resource_idx ON audit_log (tenant_id, resource_type, resource_id, created_at)`,
    `CREATE INDEX audit_log_tenant_created_idx ON audit_log (tenant_id, created_at DESC)`,
    `GRANT SELECT, INSERT ON audit_log TO ${APP_ROLE}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON audit_log TO ${SYSTEM_ROLE}`,
    `ALTER TABLE audit_log ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE audit_log FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY system_access ON audit_log TO ${SYSTEM_ROLE} USING (true) WITH CHECK (true)`,
    `CREATE POLICY tenant_isolation ON audit_log TO ${APP_ROLE}
       USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE audit_log']);
}
