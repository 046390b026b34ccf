import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { auditColumns, runStatements } from './statements';

/**
 * Message templates (docs/domain.md §6.1), hybrid like dict_item and system_setting: the platform's templates
 * (tenant_id IS NULL) are read by every tenant and written only inside the platform tenant; a tenant reads and writes
 * its own. `params` are the `{var}` placeholders of the title and content, parsed on save. The WeChat account is kept
 * by id (wechat_account comes with the followers; its foreign key can be added once both exist).
 */
const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;
const inPlatform = `${currentTenant} = (SELECT id FROM tenant WHERE code = 'platform')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE message_template (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      tenant_id bigint REFERENCES tenant (id),
      code varchar(100) NOT NULL,
      name varchar(100) NOT NULL,
      channel text NOT NULL CHECK (channel IN ('in_app', 'wechat_mp', 'sms', 'email')),
      business_item_code varchar(100),
      sender_name varchar(50),
      title_template varchar(200),
      content_template text NOT NULL,
      params text[] NOT NULL DEFAULT '{}',
      wechat_account_id bigint,
      external_template_id varchar(100),
      example text,
      data_mapping jsonb,
      jump_url varchar(500),
      status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
      remark varchar(500),
      ${auditColumns},
      CHECK (channel NOT IN ('in_app', 'email') OR title_template IS NOT NULL),
      CHECK (channel NOT IN ('wechat_mp', 'sms') OR external_template_id IS NOT NULL))`,
    'CREATE UNIQUE INDEX message_template_code_uq ON message_template (COALESCE(tenant_id, 0), code)',
    'CREATE INDEX message_template_list_idx ON message_template (tenant_id, created_at DESC NULLS LAST, id DESC)',
    'CREATE INDEX message_template_business_item_idx ON message_template (business_item_code)',
    `GRANT SELECT, INSERT, UPDATE, DELETE ON message_template TO ${APP_ROLE}, ${SYSTEM_ROLE}`,
    'ALTER TABLE message_template ENABLE ROW LEVEL SECURITY',
    'ALTER TABLE message_template FORCE ROW LEVEL SECURITY',
    `CREATE POLICY system_access ON message_template TO ${SYSTEM_ROLE} USING (true) WITH CHECK (true)`,
    `CREATE POLICY tenant_read ON message_template FOR SELECT TO ${APP_ROLE}
       USING (tenant_id IS NULL OR tenant_id = ${currentTenant})`,
    `CREATE POLICY tenant_write ON message_template FOR ALL TO ${APP_ROLE}
       USING (tenant_id = ${currentTenant}) WITH CHECK (tenant_id = ${currentTenant})`,
    `CREATE POLICY platform_writes ON message_template FOR ALL TO ${APP_ROLE}
       USING (tenant_id IS NULL AND ${inPlatform}) WITH CHECK (tenant_id IS NULL AND ${inPlatform})`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE message_template']);
}
