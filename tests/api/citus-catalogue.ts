import { type Kysely, sql } from 'kysely';
import type { DB } from '../../server/src/db/types';

/**
 * The schema as Citus would take it with tenant_id as the distribution column (docs/architecture.md, "Scaling out"),
 * read from the migrated catalogue. Each table of `public` has one kind:
 * - **distributed**: it has a tenant_id (which must be NOT NULL), `create_distributed_table(t, 'tenant_id')`, all
 *   co-located, so that the rows of one tenant of every table lie on one node;
 * - **local**: `LOCAL_TABLES`, kept on the coordinator alone: no Citus table references one or is referenced by one;
 * - **reference**: every other table (no tenant_id: the platform's tenants, packages, permissions, dictionaries'
 *   types, districts…), `create_reference_table(t)`, a copy on every node.
 * pg-boss's schema (`LOCAL_SCHEMAS`) is local as a whole: the job queue runs on the coordinator.
 */
export type CitusKind = 'distributed' | 'reference' | 'local';

/** Instance bookkeeping that no query joins with a tenant's rows. */
export const LOCAL_TABLES: Record<string, string> = {
  kysely_migration: 'the migrations applied (Kysely)',
  kysely_migration_lock: 'the lock migrations take (Kysely)',
  rate_limit: 'the rate limiter’s counters',
  server_instance: 'the running server instances',
};
export const LOCAL_SCHEMAS: Record<string, string> = { pgboss: 'the job queue (pg-boss’s own tables)' };

/**
 * The functions a row trigger of a distributed table may run, each read for what it touches: only rows of its own
 * row's tenant (`NEW.tenant_id`, `OLD.tenant_id`), in the tables it names here from the trigger's arguments. Citus
 * runs a distributed table's triggers on its shards (`citus.enable_unsafe_triggers`, Citus 11 and later), where a
 * statement may touch a co-located shard of the same tenant, on the same node, and nothing else: another tenant's
 * rows are another shard, "cannot execute a distributed query from a query on a shard" (Citus's test
 * `distributed_triggers`, the `bad_shardkey_record_change` trigger). A function not listed here fails the test until
 * someone has read it against that rule and listed it.
 */
export const ROW_TRIGGER_FUNCTIONS: Record<string, (args: string[]) => string[]> = {
  /** migrations 0059, 0061: each id of a list, looked up by `NEW.tenant_id` in the table of the second argument */
  refuse_foreign_ids: (args) => [args[1] ?? ''],
  /**
   * migrations 0068, 0070: the id looked up by `NEW.tenant_id` in the table its kind names (the third argument, kind →
   * table); a kind whose rows the platform shares (null) is not looked up
   */
  refuse_foreign_subject: (args) =>
    Object.values(JSON.parse(args[2] ?? '{}') as Record<string, string | null>).filter(
      (table): table is string => table !== null,
    ),
  /** migration 0071: the trainee's custom values, by the trainee's tenant */
  trainee_custom_values_row: () => ['trainee_custom_value'],
};

export interface CatalogueTable {
  name: string;
  kind: CitusKind;
  /** tenant_id's column number; undefined without one */
  tenant?: number;
  tenantNullable: boolean;
}

interface ForeignKey {
  table: string;
  name: string;
  target: string;
  keys: number[];
  targetKeys: number[];
}

export interface Catalogue {
  tables: CatalogueTable[];
  foreignKeys: ForeignKey[];
  uniques: { table: string; index: string; primary: boolean; keys: number[] }[];
  triggers: { table: string; name: string; fn: string; row: boolean; transition: boolean; args: string[] }[];
  schemas: string[];
}

export async function readCatalogue(db: Kysely<DB>): Promise<Catalogue> {
  const tables = (
    await sql<{ name: string; tenant: number | null; nullable: boolean | null }>`
      SELECT c.relname AS name, a.attnum AS tenant, NOT a.attnotnull AS nullable
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`.execute(db)
  ).rows.map(
    ({ name, tenant, nullable }): CatalogueTable => ({
      name,
      tenant: tenant === null ? undefined : Number(tenant),
      tenantNullable: nullable === true,
      kind: tenant !== null ? 'distributed' : name in LOCAL_TABLES ? 'local' : 'reference',
    }),
  );
  const uniques = (
    await sql<{ table: string; index: string; primary: boolean; keys: number[] }>`
      SELECT c.relname AS table, ic.relname AS index, i.indisprimary AS primary,
             string_to_array(i.indkey::text, ' ')::int[] AS keys
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indrelid
      JOIN pg_class ic ON ic.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE i.indisunique ORDER BY 1, 2`.execute(db)
  ).rows;
  const foreignKeys = (
    await sql<ForeignKey>`
      SELECT c.relname AS table, k.conname AS name, t.relname AS target,
             k.conkey::int[] AS keys, k.confkey::int[] AS "targetKeys"
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class t ON t.oid = k.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      WHERE k.contype = 'f' ORDER BY 1, 2`.execute(db)
  ).rows;
  const triggers = (
    await sql<{ table: string; name: string; fn: string; type: number; transition: boolean; args: string }>`
      SELECT c.relname AS table, g.tgname AS name, p.proname AS fn, g.tgtype AS type,
             (g.tgoldtable IS NOT NULL OR g.tgnewtable IS NOT NULL) AS transition, encode(g.tgargs, 'hex') AS args
      FROM pg_trigger g
      JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
      JOIN pg_proc p ON p.oid = g.tgfoid
      WHERE NOT g.tgisinternal ORDER BY 1, 2`.execute(db)
  ).rows.map(({ type, args, ...t }) => ({
    ...t,
    // TRIGGER_TYPE_ROW, the first bit of pg_trigger.tgtype
    row: (Number(type) & 1) === 1,
    args: Buffer.from(args, 'hex').toString('utf8').split('\0').slice(0, -1),
  }));
  const schemas = (
    await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_namespace
      WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%' ORDER BY 1`.execute(db)
  ).rows.map((r) => r.name);
  return { tables, foreignKeys, uniques, triggers, schemas };
}

/** Every way the catalogue breaks the rules above, naming the table and the constraint, index or trigger. */
export function distributionViolations({ tables, foreignKeys, uniques, triggers, schemas }: Catalogue): string[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const kindOf = (name: string) => byName.get(name)?.kind;
  const violations: string[] = [];
  for (const t of tables) {
    if (t.tenantNullable) violations.push(`${t.name}: tenant_id is nullable`);
    if (t.kind === 'distributed' && !uniques.some((u) => u.table === t.name && u.primary))
      violations.push(`${t.name}: no primary key`);
  }
  for (const { table, index, keys } of uniques) {
    const tenant = byName.get(table)?.tenant;
    if (kindOf(table) === 'distributed' && !keys.includes(Number(tenant)))
      violations.push(`${table}: unique index ${index} lacks tenant_id`);
  }
  for (const { table, name, target, keys, targetKeys } of foreignKeys) {
    const [from, to] = [kindOf(table), kindOf(target)];
    if (from === 'local' || to === 'local') {
      if (from !== to) violations.push(`${table}: ${name} joins a local table and a Citus table`);
    } else if (to === 'distributed' && from === 'reference') {
      violations.push(`${table}: ${name} makes a reference table point at the distributed table ${target}`);
    } else if (to === 'distributed') {
      const at = keys.indexOf(Number(byName.get(table)?.tenant));
      if (at < 0 || targetKeys[at] !== Number(byName.get(target)?.tenant))
        violations.push(`${table}: ${name} references ${target} without tenant_id on both sides`);
    }
  }
  for (const { table, name, fn, row, transition, args } of triggers) {
    const kind = kindOf(table);
    if (kind === 'reference') violations.push(`${table}: trigger ${name} on a reference table`);
    if (kind !== 'distributed') continue;
    if (!row) violations.push(`${table}: trigger ${name} is statement-level`);
    if (transition) violations.push(`${table}: trigger ${name} has a transition table`);
    const touches = ROW_TRIGGER_FUNCTIONS[fn];
    if (!touches) {
      violations.push(`${table}: trigger ${name} runs ${fn}, not read against Citus's rule`);
      continue;
    }
    for (const target of touches(args))
      if (kindOf(target) !== 'distributed')
        violations.push(`${table}: trigger ${name} touches ${target || '?'}, not a distributed table`);
  }
  for (const schema of schemas)
    if (!(schema in LOCAL_SCHEMAS)) violations.push(`schema ${schema}: not in LOCAL_SCHEMAS, no Citus kind`);
  return violations.sort();
}

/**
 * The order to hand tables to Citus: a table after the ones it references (Citus takes a foreign key only to a table
 * it already knows), else by name.
 */
function dependencyOrder(names: string[], foreignKeys: ForeignKey[]): string[] {
  const among = new Set(names);
  const waiting = new Map(names.map((n) => [n, new Set<string>()]));
  for (const { table, target } of foreignKeys)
    if (table !== target && among.has(table) && among.has(target)) waiting.get(table)?.add(target);
  const order: string[] = [];
  while (waiting.size > 0) {
    const ready = [...waiting].filter(([, on]) => [...on].every((t) => !waiting.has(t))).map(([n]) => n);
    const next = ready.sort()[0] ?? [...waiting.keys()].sort()[0];
    if (next === undefined) break;
    order.push(next);
    waiting.delete(next);
  }
  return order;
}

export const DOC_START = '<!-- citus-tables:start';
export const DOC_END = '<!-- citus-tables:end -->';

/** The block of docs/architecture.md that lists every table with its kind and the calls that make it so. */
export function citusBlock({ tables, foreignKeys }: Catalogue): string {
  const names = (kind: CitusKind) => tables.filter((t) => t.kind === kind).map((t) => t.name);
  const references = dependencyOrder(names('reference'), foreignKeys);
  const distributed = dependencyOrder(names('distributed'), foreignKeys);
  const [first, ...others] = distributed;
  const listed = [
    ...tables.map((t) => [t.name, t.kind, t.kind === 'local' ? LOCAL_TABLES[t.name] : '']),
    ...Object.entries(LOCAL_SCHEMAS).map(([schema, what]) => [`${schema}.*`, 'local', what]),
  ];
  const width = Math.max(...listed.map(([name]) => name?.length ?? 0)) + 2;
  return [
    `${DOC_START}: written by tests/api/distribution.test.ts from the migrated catalogue; UPDATE_DOCS=1 rewrites it -->`,
    `${tables.length} tables: ${names('distributed').length} distributed by \`tenant_id\`, ${references.length} reference, ${names('local').length} local.`,
    '',
    '```text',
    ...listed.map(([name = '', kind = '', what = '']) => `${name.padEnd(width)}${kind.padEnd(13)}${what}`.trimEnd()),
    '```',
    '',
    '```sql',
    '-- the triggers of the distributed tables go with them to their shards (ROW_TRIGGER_FUNCTIONS)',
    'SET citus.enable_unsafe_triggers TO on;',
    '-- reference tables, each after the ones it references',
    ...references.map((t) => `SELECT create_reference_table('${t}');`),
    '-- distributed tables, co-located by tenant, each after the ones it references',
    ...(first ? [`SELECT create_distributed_table('${first}', 'tenant_id');`] : []),
    ...others.map((t) => `SELECT create_distributed_table('${t}', 'tenant_id', colocate_with => '${first}');`),
    '```',
    DOC_END,
  ].join('\n');
}
