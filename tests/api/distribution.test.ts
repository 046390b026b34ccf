import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../server/src/db/types';
import { engines, startApi, type TestApi } from './helpers';

/**
 * The schema stays ready for Citus with tenant_id as the distribution column (docs/architecture.md, "Scaling out"):
 * a table with a NOT NULL tenant_id is distributed, so its primary key and unique indexes include tenant_id and its
 * references to other distributed tables go through tenant_id; every other table is a reference table, which may not
 * reference a distributed one.
 */
async function distributionViolations(db: Kysely<DB>): Promise<string[]> {
  const tables = (
    await sql<{ name: string; tenant: number | null; keyed: boolean }>`
      SELECT c.relname AS name, a.attnum AS tenant, coalesce(a.attnotnull, false) AS keyed
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p') AND c.relname NOT LIKE 'kysely\\_%'`.execute(db)
  ).rows;
  const byName = new Map(tables.map((t) => [t.name, t]));
  const distributed = (name: string) => byName.get(name)?.keyed === true;

  const uniques = (
    await sql<{ table: string; index: string; keys: number[] }>`
      SELECT c.relname AS table, ic.relname AS index, string_to_array(i.indkey::text, ' ')::int[] AS keys
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_class ic ON ic.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE i.indisunique`.execute(db)
  ).rows;
  const foreignKeys = (
    await sql<{ table: string; name: string; target: string; keys: number[]; targetKeys: number[] }>`
      SELECT c.relname AS table, k.conname AS name, t.relname AS target,
             k.conkey::int[] AS keys, k.confkey::int[] AS "targetKeys"
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class t ON t.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE k.contype = 'f'`.execute(db)
  ).rows;

  const violations: string[] = [];
  for (const { table, index, keys } of uniques) {
    const tenant = byName.get(table)?.tenant;
    if (distributed(table) && !keys.includes(Number(tenant))) {
      violations.push(`${table}: unique index ${index} lacks tenant_id`);
    }
  }
  for (const { table, name, target, keys, targetKeys } of foreignKeys) {
    if (!distributed(target)) continue;
    if (!distributed(table)) {
      violations.push(`${table}: ${name} makes a reference table point at the distributed table ${target}`);
      continue;
    }
    const at = keys.indexOf(Number(byName.get(table)?.tenant));
    if (at < 0 || targetKeys[at] !== Number(byName.get(target)?.tenant)) {
      violations.push(`${table}: ${name} references ${target} without tenant_id on both sides`);
    }
  }
  return violations.sort();
}

describe.each(engines())('schema ready to distribute by tenant on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { demo: false });
  });
  afterAll(() => api?.close());

  it('keys every tenant-owned table, unique index and reference by tenant_id', async () => {
    expect(await distributionViolations(api.db)).toEqual([]);
  });

  it('names the table and constraint that break the rule', async () => {
    const found = await api.db
      .transaction()
      .execute(async (tx) => {
        await sql`CREATE TABLE zz_note (id bigint PRIMARY KEY, tenant_id bigint NOT NULL, code text)`.execute(tx);
        await sql`CREATE UNIQUE INDEX zz_note_code_uq ON zz_note (code)`.execute(tx);
        await sql`CREATE TABLE zz_pin (id bigint, note_id bigint REFERENCES zz_note (id))`.execute(tx);
        await sql`CREATE TABLE zz_tag (tenant_id bigint NOT NULL, id bigint, user_id bigint,
                    PRIMARY KEY (tenant_id, id), FOREIGN KEY (user_id) REFERENCES zz_note (id))`.execute(tx);
        const violations = await distributionViolations(tx);
        await sql`ROLLBACK`.execute(tx).catch(() => undefined);
        throw Object.assign(new Error('rolled back'), { violations });
      })
      .catch((err: { violations?: string[] }) => err.violations ?? []);
    expect(found).toEqual([
      'zz_note: unique index zz_note_code_uq lacks tenant_id',
      'zz_note: unique index zz_note_pkey lacks tenant_id',
      'zz_pin: zz_pin_note_id_fkey makes a reference table point at the distributed table zz_note',
      'zz_tag: zz_tag_user_id_fkey references zz_note without tenant_id on both sides',
    ]);
    expect(await distributionViolations(api.db)).toEqual([]);
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
