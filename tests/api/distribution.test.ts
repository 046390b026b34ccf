import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../server/src/db/types';
import { citusBlock, DOC_END, DOC_START, distributionViolations, readCatalogue } from './citus-catalogue';
import { engines, startApi, type TestApi } from './helpers';

/**
 * The schema stays ready for Citus with tenant_id as the distribution column (docs/architecture.md, "Scaling out";
 * the rules in ./citus-catalogue.ts): no table has a nullable tenant_id; a table with one is distributed, so its
 * primary key and unique indexes include tenant_id and its references to other distributed tables go through
 * tenant_id; a reference table never references a distributed one, a local table no Citus table; a distributed table's
 * triggers are row triggers without transition tables, running a function read to touch its own row's tenant only.
 */
const violationsOf = async (db: Kysely<DB>) => distributionViolations(await readCatalogue(db));

const architecture = path.resolve(__dirname, '../..', 'docs', 'architecture.md');

describe.each(engines())('schema ready to distribute by tenant on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine);
  });
  afterAll(() => api?.close());

  it('keys every tenant-owned table, unique index and reference by tenant_id', async () => {
    expect(await violationsOf(api.db)).toEqual([]);
  });

  it('names the table and constraint, index or trigger that break the rule', async () => {
    const found = await api.db
      .transaction()
      .execute(async (tx) => {
        await sql`CREATE TABLE zz_note (id bigint PRIMARY KEY, tenant_id bigint NOT NULL, code text)`.execute(tx);
        await sql`CREATE UNIQUE INDEX zz_note_code_uq ON zz_note (code)`.execute(tx);
        await sql`CREATE TABLE zz_pin (id bigint, note_id bigint REFERENCES zz_note (id),
                    migration varchar(255) REFERENCES kysely_migration (name))`.execute(tx);
        await sql`CREATE TABLE zz_tag (tenant_id bigint NOT NULL, id bigint, user_id bigint,
                    PRIMARY KEY (tenant_id, id), FOREIGN KEY (user_id) REFERENCES zz_note (id))`.execute(tx);
        // a hybrid table as settings were before migration 0070: the platform's rows with no tenant
        await sql`CREATE TABLE zz_hybrid (tenant_id bigint, id bigint, key text, PRIMARY KEY (id))`.execute(tx);
        await sql`CREATE UNIQUE INDEX zz_hybrid_key_uq ON zz_hybrid (COALESCE(tenant_id, 0), key)`.execute(tx);
        // triggers as trainee's were before migration 0071, and ones that reach beyond their row's tenant
        await sql`CREATE FUNCTION zz_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`.execute(
          tx,
        );
        await sql`CREATE TRIGGER zz_tag_changed AFTER INSERT ON zz_tag REFERENCING NEW TABLE AS changed
                    FOR EACH STATEMENT EXECUTE FUNCTION zz_touch()`.execute(tx);
        await sql`CREATE TRIGGER zz_tag_ids BEFORE INSERT ON zz_tag
                    FOR EACH ROW EXECUTE FUNCTION refuse_foreign_ids('{user_id}', 'tenant')`.execute(tx);
        await sql`CREATE TRIGGER zz_pin_touched AFTER INSERT ON zz_pin
                    FOR EACH ROW EXECUTE FUNCTION zz_touch()`.execute(tx);
        await sql`CREATE SCHEMA zz_elsewhere`.execute(tx);
        const violations = await violationsOf(tx);
        await sql`ROLLBACK`.execute(tx).catch(() => undefined);
        throw Object.assign(new Error('rolled back'), { violations });
      })
      .catch((err: { violations?: string[] }) => err.violations ?? []);
    expect(found).toEqual([
      'schema zz_elsewhere: not in LOCAL_SCHEMAS, no Citus kind',
      'zz_hybrid: tenant_id is nullable',
      'zz_hybrid: unique index zz_hybrid_key_uq lacks tenant_id',
      'zz_hybrid: unique index zz_hybrid_pkey lacks tenant_id',
      'zz_note: unique index zz_note_code_uq lacks tenant_id',
      'zz_note: unique index zz_note_pkey lacks tenant_id',
      'zz_pin: trigger zz_pin_touched on a reference table',
      'zz_pin: zz_pin_migration_fkey joins a local table and a Citus table',
      'zz_pin: zz_pin_note_id_fkey makes a reference table point at the distributed table zz_note',
      'zz_tag: trigger zz_tag_changed has a transition table',
      'zz_tag: trigger zz_tag_changed is statement-level',
      "zz_tag: trigger zz_tag_changed runs zz_touch, not read against Citus's rule",
      'zz_tag: trigger zz_tag_ids touches tenant, not a distributed table',
      'zz_tag: zz_tag_user_id_fkey references zz_note without tenant_id on both sides',
    ]);
    expect(await violationsOf(api.db)).toEqual([]);
  });

  it('keeps the platform’s settings, dictionary items and templates under the platform tenant, read by every tenant', async () => {
    const owners = await sql<{ table: string; code: string }>`
      SELECT DISTINCT 'system_setting' AS table, t.code FROM system_setting s JOIN tenant t ON t.id = s.tenant_id
      UNION SELECT DISTINCT 'dict_item', t.code FROM dict_item s JOIN tenant t ON t.id = s.tenant_id
      UNION SELECT DISTINCT 'message_template', t.code FROM message_template s JOIN tenant t ON t.id = s.tenant_id
      ORDER BY 1, 2`.execute(api.db);
    expect(owners.rows).toEqual(
      expect.arrayContaining([
        { table: 'dict_item', code: 'platform' },
        { table: 'message_template', code: 'platform' },
        { table: 'system_setting', code: 'platform' },
      ]),
    );
    const token = (await api.tokens('demo', 'admin', 'admin123')).access;
    const settings = await api.call('GET', '/api/system/settings?category=branding', { token });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.data.find((x: { key: string }) => x.key === 'branding.name')).toMatchObject({
      overridden: false,
    });
    const templates = await api.call('GET', '/api/message/template?pageSize=100', { token });
    expect(templates.body.data.length).toBeGreaterThan(0);
    expect(new Set(templates.body.data.map((x: { scope: string }) => x.scope))).toEqual(new Set(['platform']));
  });

  it('lists every table with its Citus kind in docs/architecture.md, as the catalogue gives them', async () => {
    const block = citusBlock(await readCatalogue(api.db));
    const doc = readFileSync(architecture, 'utf8');
    const [start, end] = [doc.indexOf(DOC_START), doc.indexOf(DOC_END)];
    expect(start, `docs/architecture.md holds no block between ${DOC_START} and ${DOC_END}`).toBeGreaterThanOrEqual(0);
    const written = doc.slice(start, end + DOC_END.length);
    if (written !== block && process.env.UPDATE_DOCS === '1') {
      writeFileSync(architecture, doc.slice(0, start) + block + doc.slice(end + DOC_END.length));
      return;
    }
    // UPDATE_DOCS=1 npx vitest run --project api tests/api/distribution.test.ts writes this block in
    expect(written).toEqual(block);
  });

  it('keeps a sign-in for an unknown tenant under the platform tenant', async () => {
    await api.signIn('no-such-tenant', 'someone', 'whatever-password');
    const row = await api.db
      .selectFrom('login_log as l')
      .innerJoin('tenant as t', 't.id', 'l.tenant_id')
      .select(['t.code', 'l.result'])
      .where('l.username', '=', 'someone')
      .executeTakeFirst();
    expect(row).toEqual({ code: 'platform', result: 'unknown_tenant' });
  });
});
