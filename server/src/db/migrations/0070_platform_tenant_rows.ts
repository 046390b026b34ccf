import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * Ready for Citus (docs/architecture.md, "Scaling out"): the three tables that held the platform's rows (tenant_id
 * NULL) beside the tenants' own, settings, dictionary items and message templates, keep the platform's rows under the
 * reserved `platform` tenant, as login_log does since migration 0011. tenant_id becomes NOT NULL and leads every key:
 * each is a table distributed by tenant like the others.
 *
 * What a tenant sees stays: the platform's rows and its own (row-level security now names the platform tenant where it
 * named NULL); only the platform tenant writes the platform's rows (they are its own rows, `tenant_write`), a tenant its
 * own. A tenant's setting overrides the platform's of the same key, its template the platform's of the same code.
 *
 * A tenant's row may name a platform row, which is now another tenant's: a message batch sent with a platform
 * template, a test message about one. Citus keeps a foreign key and a trigger's reads within one tenant (one shard),
 * so `message_batch.template_id` loses its foreign key, and the polymorphic reference `message.biz_ref_id` names
 * templates as a kind the platform shares (null in the trigger's list of kinds): both are checked by their writer, in
 * the same transaction, against the templates the tenant sees (`templateById`), and a template that sent batches is
 * not deleted (`batchesSentWith`).
 */
const hybrid = [
  { table: 'system_setting', unique: 'system_setting_key_uq', key: 'key', was: '(COALESCE(tenant_id, 0), key)' },
  {
    table: 'dict_item',
    unique: 'dict_item_value_uq',
    key: 'type_code, value',
    was: '(type_code, COALESCE(tenant_id, 0), value)',
  },
  { table: 'message_template', unique: 'message_template_code_uq', key: 'code', was: '(COALESCE(tenant_id, 0), code)' },
];

const currentTenant = `NULLIF(current_setting('app.tenant_id', true), '')::bigint`;
const platformTenant = `(SELECT id FROM tenant WHERE code = 'platform')`;
const inPlatform = `${currentTenant} = ${platformTenant}`;

const messageKinds = {
  course: 'course',
  message_template: 'message_template',
  qualification: 'qualification',
  report_case: 'report_case',
  teaching_activity: 'teaching_activity',
  trainee: 'trainee',
};

/** migration 0068's function, reading the platform's rows of a kind's table (tenant_id NULL) when `platformNull`. */
const subjectFunction = (platformNull: boolean) => `CREATE OR REPLACE FUNCTION refuse_foreign_subject() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
      new_row jsonb := to_jsonb(NEW);
      kind text := new_row ->> TG_ARGV[0];
      ref text := new_row ->> TG_ARGV[1];
      target text;
      found boolean;
    BEGIN
      IF kind IS NULL OR ref IS NULL THEN
        RETURN NEW;
      END IF;
      IF TG_OP = 'UPDATE' AND to_jsonb(OLD) ->> TG_ARGV[0] = kind AND to_jsonb(OLD) ->> TG_ARGV[1] = ref THEN
        RETURN NEW;
      END IF;${
        platformNull
          ? ''
          : `
      IF TG_ARGV[2]::jsonb -> kind = 'null'::jsonb THEN
        RETURN NEW;
      END IF;`
      }
      target := TG_ARGV[2]::jsonb ->> kind;
      found := false;
      IF target IS NOT NULL THEN
        EXECUTE format(${
          platformNull
            ? `'SELECT EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id = $1 AND t.id = $2)
            OR EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id IS NULL AND t.id = $2)', target, target`
            : `'SELECT EXISTS (SELECT 1 FROM %I t WHERE t.tenant_id = $1 AND t.id = $2)', target`
        })
          INTO found USING NEW.tenant_id, ref::bigint;
      END IF;
      IF NOT found THEN
        RAISE EXCEPTION 'insert or update on table "%" violates a reference: % % (%) is not in the tenant',
          TG_TABLE_NAME, kind, ref, TG_ARGV[1]
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME, COLUMN = TG_ARGV[1];
      END IF;
      RETURN NEW;
    END $$`;

const messageTrigger = (kinds: Record<string, string | null>) => [
  'DROP TRIGGER message_biz_ref_id_tenant_ref ON message',
  `CREATE TRIGGER message_biz_ref_id_tenant_ref
    BEFORE INSERT OR UPDATE OF biz_ref_type, biz_ref_id ON message
    FOR EACH ROW EXECUTE FUNCTION refuse_foreign_subject('biz_ref_type', 'biz_ref_id', '${JSON.stringify(kinds)}')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE message_batch DROP CONSTRAINT message_batch_template_id_fkey',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    ...hybrid.map(({ table }) => `UPDATE ${table} SET tenant_id = ${platformTenant} WHERE tenant_id IS NULL`),
    'RESET ROLE',
    ...hybrid.flatMap(({ table, unique, key }) => [
      `ALTER TABLE ${table} ALTER COLUMN tenant_id SET NOT NULL`,
      `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (tenant_id, id)`,
      `DROP INDEX ${unique}`,
      `CREATE UNIQUE INDEX ${unique} ON ${table} (tenant_id, ${key})`,
      `DROP POLICY platform_writes ON ${table}`,
      `DROP POLICY tenant_read ON ${table}`,
      `CREATE POLICY tenant_read ON ${table} FOR SELECT TO ${APP_ROLE}
         USING (tenant_id = ${currentTenant} OR tenant_id = ${platformTenant})`,
    ]),
    subjectFunction(false),
    ...messageTrigger({ ...messageKinds, message_template: null }),
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    ...messageTrigger(messageKinds),
    subjectFunction(true),
    ...hybrid.flatMap(({ table, unique, was }) => [
      `DROP POLICY tenant_read ON ${table}`,
      `CREATE POLICY tenant_read ON ${table} FOR SELECT TO ${APP_ROLE}
         USING (tenant_id IS NULL OR tenant_id = ${currentTenant})`,
      `CREATE POLICY platform_writes ON ${table} FOR ALL TO ${APP_ROLE}
         USING (tenant_id IS NULL AND ${inPlatform}) WITH CHECK (tenant_id IS NULL AND ${inPlatform})`,
      `DROP INDEX ${unique}`,
      `CREATE UNIQUE INDEX ${unique} ON ${table} ${was}`,
      `ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (id)`,
      `ALTER TABLE ${table} ALTER COLUMN tenant_id DROP NOT NULL`,
    ]),
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    ...hybrid.map(({ table }) => `UPDATE ${table} SET tenant_id = NULL WHERE tenant_id = ${platformTenant}`),
    'RESET ROLE',
    'ALTER TABLE message_batch ADD CONSTRAINT message_batch_template_id_fkey FOREIGN KEY (template_id) REFERENCES message_template (id)',
  ]);
}
