import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { jsonbParameter } from '../../db/database';
import type { DB } from '../../db/types';
import type { Tx } from '../tenancy';
import type { ListQuery } from './list-query';

export type TableName = keyof DB & string;
/** A column of `T`, checked against the database's type (db/types.ts). */
export type ColumnOf<T extends TableName> = keyof DB[T] & string;

/** A field's column by the naming rule: `nameEn` → `name_en`. */
type Snake<S extends string> = S extends `${infer C}${infer Rest}`
  ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<Rest>}`
  : S;

type ColumnsOf<Shape, Except extends string, Renamed> = {
  [F in Exclude<keyof Shape & string, Except>]: F extends keyof Renamed ? Renamed[F] : Snake<F>;
};

/**
 * The columns of a row schema's fields by the naming rule (each field is its column in snake case), checked against
 * the table where the map is used. `except`: fields that are not columns (joined or computed); `renamed`: fields
 * whose column is named otherwise.
 */
export function columnsOf<
  Shape extends object,
  const Except extends keyof Shape & string = never,
  const Renamed extends Partial<Record<keyof Shape & string, string>> = Record<never, string>,
>(
  row: { shape: Shape },
  options: { except?: readonly Except[]; renamed?: Renamed } = {},
): ColumnsOf<Shape, Except, Renamed> {
  const except: readonly string[] = options.except ?? [];
  const renamed: Partial<Record<string, string>> = options.renamed ?? {};
  const fields = Object.keys(row.shape).filter((field) => !except.includes(field));
  return Object.fromEntries(
    fields.map((field) => [field, renamed[field] ?? field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]),
  ) as ColumnsOf<Shape, Except, Renamed>;
}

/** A table as a resource sees it: row fields mapped to columns, plus what its common columns allow. */
export interface TableSpec<T extends TableName = TableName> {
  name: T;
  /** Row field → column; selected into rows and writable. */
  columns: Record<string, ColumnOf<T>>;
  /** Writable, never selected (password hashes, secrets). */
  writeOnly?: Record<string, ColumnOf<T>>;
  /** Row fields stored as json/jsonb: written as JSON text (the driver would send an array as a PostgreSQL array). */
  json?: readonly string[];
  /** Has deleted_at: lists skip deleted rows and delete is soft. */
  softDelete?: boolean;
  /** Has tenant_id: inserts take the tenant of the request (RLS checks it). */
  tenantOwned?: boolean;
  /** Has created_by/updated_by/updated_at/version (docs/domain.md §0.2). */
  audited?: boolean;
  /**
   * Row field → SQL expression over the table (by its name), selected by list and find in the same statement: related
   * rows without a second round trip. Not returned by insert and update.
   */
  computed?: Record<string, RawBuilder<unknown>>;
  /** A tree by key: each row names its parent's `key` in `parent` (roots: null); a level reads in `sort` order. */
  tree?: { key: ColumnOf<T>; parent: ColumnOf<T> };
}

export interface Actor {
  tenantId: string;
  actorId: string;
  now: Date;
}

export type TableRow = Record<string, unknown>;

/**
 * The database as a table named at run time sees it: the spec's names are checked against `DB` where they are
 * declared, and the statements below address tables and columns by those names.
 */
type Tables = Record<string, Record<string, unknown>>;
type TableTx = Kysely<Tables>;
type Select = SelectQueryBuilder<Tables, string, object>;

/** The column of a tree level's `hasChildren`: not a field of any row, so toRow drops it. */
const HAS_CHILDREN = 'has_children_';
/** The window count's column: not a field of any row, so toRow drops it. */
const TOTAL = 'total_count_';
/** The page of a list found as ids and sort keys (`list`): its alias, its id's and its keys' names. */
const PAGE = 'page_';
const PAGE_ID = 'page_id_';
const PAGE_KEY = 'page_key_';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A record of the table as a row of the entity: its columns' values under their fields, dates as ISO strings. */
function rowMaker<T extends TableName>(spec: TableSpec<T>): (record: TableRow) => TableRow {
  // the spec's pairs are read once, not for every row read
  const columns = Object.entries(spec.columns);
  const computed = Object.keys(spec.computed ?? {});
  return (record) => {
    const row: TableRow = {};
    for (const [field, column] of columns) {
      const value = record[column];
      row[field] = value instanceof Date ? value.toISOString() : value;
    }
    for (const field of computed) if (field in record) row[field] = record[field];
    return row;
  };
}

/** `inJson`: the values travel inside one JSON document (insertMany), where a JSON column's value stays as it is. */
function toValues<T extends TableName>(spec: TableSpec<T>, values: object, inJson = false): TableRow {
  const out: TableRow = {};
  const writable: Record<string, string> = { ...spec.columns, ...spec.writeOnly };
  for (const [field, value] of Object.entries(values)) {
    const column = writable[field];
    if (column && column !== 'id' && value !== undefined)
      out[column] = !inJson && spec.json?.includes(field) ? JSON.stringify(value) : value;
  }
  return out;
}

function applyFilters(qb: Select, query: ListQuery): Select {
  let q = qb;
  for (const { spec, value } of query.filters) {
    if (value.kind === 'keyword' && spec.kind === 'keyword') {
      if (spec.columns.length === 0) continue;
      const pattern = `%${escapeLike(value.text)}%`;
      q = q.where((eb) => eb.or(spec.columns.map((c) => eb(sql.ref(c), 'ilike', pattern))));
    } else if (spec.kind === 'dateRange' && value.kind === 'dateRange') {
      if (value.from) q = q.where(sql.ref(spec.column), '>=', value.from);
      if (value.to) q = q.where(sql.ref(spec.column), '<', value.to);
    } else if ((spec.kind === 'eq' || spec.kind === 'in') && spec.column) {
      const values = value.kind === 'eq' ? [value.value] : value.kind === 'in' ? value.values : [];
      q = q.where(sql.ref(spec.column), 'in', values);
    }
  }
  return q;
}

/** The list's order as keyset columns: the sort columns (nulls last either way), then the id. */
const keysetColumns = (query: ListQuery) => [
  ...query.sort.map(({ column, desc }) => ({ column, desc, nullable: true })),
  { column: 'id', desc: query.sort[0]?.desc ?? false, nullable: false },
];
/** The alias under which a keyset column's value is selected (as text: a timestamp keeps its microseconds). */
const keysetAlias = (i: number) => `keyset_${i}_`;

/**
 * The rows after `after` in the list's order. When every column is NOT NULL and runs the same way, one row comparison
 * `(sort…, id) > (…)`, which an index on those columns answers by a range scan. Otherwise, for some column i, every
 * earlier column equals its value and column i comes after it (a greater value, or a smaller one when descending; null
 * comes after any value, nothing after null).
 */
function afterKeyset(qb: Select, query: ListQuery, after: (string | null)[], notNull: ReadonlySet<string>): Select {
  const columns = keysetColumns(query);
  const desc = columns[0]?.desc ?? false;
  if (columns.every((c) => c.desc === desc && notNull.has(c.column)) && after.every((v) => v !== null)) {
    const tuple = (items: unknown[]) => sql`(${sql.join(items)})`;
    return qb.where(
      sql<boolean>`${tuple(columns.map((c) => sql.ref(c.column)))} ${sql.raw(desc ? '<' : '>')} ${tuple(after)}`,
    );
  }
  return qb.where((eb) => {
    const branches = columns.flatMap(({ column, desc, nullable }, i) => {
      const value = after[i] ?? null;
      if (value === null) return [];
      const equal = columns
        .slice(0, i)
        .map((c, j) => (after[j] === null ? eb(sql.ref(c.column), 'is', null) : eb(sql.ref(c.column), '=', after[j])));
      const beyond = eb(sql.ref(column), desc ? '<' : '>', value);
      return [eb.and([...equal, nullable ? eb.or([beyond, eb(sql.ref(column), 'is', null)]) : beyond])];
    });
    return branches.length ? eb.or(branches) : sql<boolean>`false`;
  });
}

function applySort(qb: Select, query: ListQuery): Select {
  let q = qb;
  for (const { column, desc } of query.sort)
    q = q.orderBy(sql`${sql.ref(column)} ${sql.raw(desc ? 'DESC NULLS LAST' : 'ASC NULLS LAST')}`);
  return q.orderBy(sql.ref('id'), query.sort[0]?.desc ? 'desc' : 'asc');
}

/** Extra conditions a repository adds to a list (filters without a column). */
export type Narrow = (qb: Select) => Select;

/**
 * The SQL of a plain entity: list, find, insert, optimistic update and (soft) delete, from its TableSpec; rows come
 * back as `Row` (the entity's row schema: its fields are the spec's, dates as ISO strings).
 */
export function tableRepository<T extends TableName, Row extends object = TableRow>(spec: TableSpec<T>) {
  const db = (tx: Tx) => tx as unknown as TableTx;
  const table: string = spec.name;
  // The one place a record becomes a row: the spec maps every field of Row, which the row schema's tests pin down.
  const toRow = rowMaker(spec) as (record: TableRow) => Row;
  const base = (tx: Tx) => {
    const q = db(tx).selectFrom(table);
    return spec.softDelete ? q.where('deleted_at', 'is', null) : q;
  };
  const stored = Object.values(spec.columns);
  const computed = Object.entries(spec.computed ?? {}).map(([field, expression]) => expression.as(field));
  const selection = [...stored, ...computed];
  /**
   * What the catalogue says of the table's columns, read once: those NOT NULL (where a keyset may compare rows as a
   * whole), and those without a default (null whether a row leaves them out of its JSON or of the insert).
   */
  let catalogue: Promise<{ notNull: ReadonlySet<string>; noDefault: ReadonlySet<string> }> | undefined;
  const columnFacts = (tx: Tx) => {
    catalogue ??= sql<{ name: string; not_null: boolean; no_default: boolean }>`SELECT attname AS name,
        attnotnull AS not_null, NOT atthasdef AND attidentity = '' AND attgenerated = '' AS no_default
      FROM pg_attribute WHERE attrelid = to_regclass(${spec.name}) AND attnum > 0 AND NOT attisdropped`
      .execute(tx)
      .then(({ rows }) => ({
        notNull: new Set(rows.filter((r) => r.not_null).map((r) => r.name)),
        noDefault: new Set(rows.filter((r) => r.no_default).map((r) => r.name)),
      }));
    return catalogue;
  };
  const treeOf = () => {
    if (!spec.tree) throw new Error(`${spec.name} is not a tree`);
    return spec.tree;
  };
  const stamp = (actor: Actor) =>
    spec.audited === false ? {} : { updated_at: actor.now, updated_by: actor.actorId, version: sql`version + 1` };

  /** The writable fields and their columns, in a fixed order: a row's set columns name its group in insertMany. */
  const writableColumns = Object.entries({ ...spec.columns, ...spec.writeOnly }).filter(
    ([, column]) => column !== 'id',
  );

  /**
   * Many rows in few statements: the rows travel as one JSON parameter, which PostgreSQL expands into the table's
   * row type (far cheaper than thousands of bind parameters). Rows are grouped by the columns with a default they
   * set, so that a column a row leaves out takes its default rather than null; a column without one is named in every
   * statement and null where a row leaves it out. `fixed`: values every row takes (a role's type).
   * Each group's JSON is made before the first statement is sent, so no row's copy lives on while the database works
   * (whatever is alive while this thread waits outlives the young generation and ends in the old one).
   * `ids`: the rows carry the ids they take (from `nextIds`), which spares a write that needs them (a code made of
   * the id) a second pass over every index; `returning: false` when the caller reads the rows again anyway. The rows
   * come back with their stored fields, not the computed ones (a subquery for each returned row).
   */
  async function insertMany(
    tx: Tx,
    rows: object[],
    actor: Actor,
    fixed: object = {},
    { ids = false, returning = true }: { ids?: boolean; returning?: boolean } = {},
  ): Promise<Row[]> {
    const common: TableRow = {
      ...toValues(spec, fixed, true),
      ...(spec.tenantOwned && { tenant_id: actor.tenantId }),
      ...(spec.audited !== false && { created_at: actor.now, created_by: actor.actorId }),
    };
    const commonColumns = Object.keys(common);
    const nullable = (await columnFacts(tx)).noDefault;
    const named = writableColumns.filter(([, column]) => !(column in common));
    let groups: Map<string, TableRow[]> | undefined = new Map();
    for (const row of rows as Record<string, unknown>[]) {
      const values: TableRow = ids ? { id: row.id } : {};
      let key = '';
      for (const [field, column] of named) {
        const value = row[field];
        if (value === undefined) continue;
        values[column] = value;
        if (!nullable.has(column)) key += `${column},`;
      }
      for (const column of commonColumns) values[column] = common[column];
      const group = groups.get(key);
      if (group) group.push(values);
      else groups.set(key, [values]);
    }
    const statements = [...groups].map(([key, values]) => {
      const set = new Set(key.split(','));
      const columns = named.filter(([, column]) => nullable.has(column) || set.has(column)).map(([, column]) => column);
      return {
        columns: [...(ids ? ['id'] : []), ...columns, ...commonColumns].map((c) => sql.ref(c)),
        json: JSON.stringify(values),
      };
    });
    groups = undefined;
    const inserted: Row[] = [];
    for (const { columns, json } of statements) {
      const { rows: records } = await sql<TableRow>`INSERT INTO ${sql.table(spec.name)} (${sql.join(columns)})
        ${ids ? sql`OVERRIDING SYSTEM VALUE` : sql``}
        SELECT ${sql.join(columns)} FROM jsonb_populate_recordset(NULL::${sql.table(spec.name)}, ${jsonbParameter(json)})
        ${returning ? sql`RETURNING ${sql.join(stored.map((c) => sql.ref(c)))}` : sql``}`.execute(tx);
      for (const record of records) inserted.push(toRow(record));
    }
    return inserted;
  }

  return {
    /** The table's name, as its statements address it. */
    table,

    /** `count` ids of the table's identity, taken now (its sequence is granted to the application's roles). */
    async nextIds(tx: Tx, count: number): Promise<string[]> {
      if (count === 0) return [];
      const { rows } = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence(${spec.name}, 'id'))::text AS id
        FROM generate_series(1, ${count}::int)`.execute(tx);
      return rows.map((r) => r.id);
    },

    async list(tx: Tx, query: ListQuery, narrow: Narrow = (q) => q): Promise<{ rows: Row[]; total: number }> {
      const filtered = narrow(applyFilters(base(tx), query));
      const { page } = query;
      if (!page) {
        const records = (await applySort(filtered.select(selection), query).execute()) as TableRow[];
        return { rows: records.map((r) => toRow(r)), total: records.length };
      }
      if (page.keyset) {
        const { keyset } = page;
        const positions = keysetColumns(query).map(({ column }, i) =>
          sql<string>`${sql.ref(column)}::text`.as(keysetAlias(i)),
        );
        let q: Select = filtered.select(selection).select(positions);
        if (keyset.after) q = afterKeyset(q, query, keyset.after, (await columnFacts(tx)).notNull);
        const records = (await applySort(q, query).limit(page.pageSize).execute()) as TableRow[];
        const last = records[records.length - 1];
        if (last) keyset.after = positions.map((_, i) => (last[keysetAlias(i)] ?? null) as string | null);
        return { rows: records.map((r) => toRow(r)), total: records.length };
      }
      /**
       * The page is found first as ids and sort keys alone (with the size of the whole set when `counted`), then its
       * rows are read by id and only they compute what `computed` joins: a filter matching thousands of rows neither
       * carries their whole records through the sort nor runs each row's sub-selects. The rows are read from the
       * table by its own name, which the computed expressions refer to.
       */
      const paged = (counted: boolean) => {
        const keys = query.sort.map(({ column }, i) => sql.ref(column).as(`${PAGE_KEY}${i}`));
        let found: Select = filtered.select(sql.ref(`${table}.id`).as(PAGE_ID)).select(keys);
        if (counted) found = found.select(sql<string>`count(*) OVER ()`.as(TOTAL));
        found = applySort(found, query)
          .limit(page.pageSize)
          .offset((page.current - 1) * page.pageSize);
        let shown = (db(tx).selectFrom(table) as unknown as Select)
          .innerJoin(found.as(PAGE), `${PAGE}.${PAGE_ID}` as never, `${table}.id` as never)
          .select(selection as never) as unknown as Select;
        if (counted) shown = shown.select(sql.ref(`${PAGE}.${TOTAL}`).as(TOTAL));
        query.sort.forEach(({ desc }, i) => {
          shown = shown.orderBy(
            sql`${sql.ref(`${PAGE}.${PAGE_KEY}${i}`)} ${sql.raw(desc ? 'DESC NULLS LAST' : 'ASC NULLS LAST')}`,
          );
        });
        return shown.orderBy(sql.ref(`${PAGE}.${PAGE_ID}`), query.sort[0]?.desc ? 'desc' : 'asc').execute() as Promise<
          TableRow[]
        >;
      };
      if (page.skipTotal) {
        const rows = (await paged(false)).map((r) => toRow(r));
        return { rows, total: rows.length };
      }
      // The page and the size of the whole filtered set in one statement; only a page past the end needs a count.
      const records = await paged(true);
      const rows = records.map((r) => toRow(r));
      if (records[0]) return { rows, total: Number(records[0][TOTAL]) };
      if (page.current === 1) return { rows, total: 0 };
      const counted = (await filtered.select(sql`count(*)`.as(TOTAL)).executeTakeFirst()) as TableRow | undefined;
      return { rows, total: Number(counted?.[TOTAL] ?? 0) };
    },

    /** The size of the filtered set alone (a list that counts apart from its page: see `list`'s `skipTotal`). */
    async count(tx: Tx, query: ListQuery, narrow: Narrow = (q) => q): Promise<number> {
      const counted = (await narrow(applyFilters(base(tx), query))
        .select(sql`count(*)`.as(TOTAL))
        .executeTakeFirst()) as TableRow | undefined;
      return Number(counted?.[TOTAL] ?? 0);
    },

    /** The ids of at most `limit` rows of the filtered set, in no order: what a list reads again (`readIndexed`). */
    async ids(tx: Tx, query: ListQuery, narrow: Narrow, limit: number): Promise<string[]> {
      const records = (await narrow(applyFilters(base(tx), query))
        .select(sql.ref(`${table}.id`).as('id'))
        .limit(limit)
        .execute()) as TableRow[];
      return records.map((r) => String(r.id));
    },

    /** `narrow`: the conditions of the lists the row must also meet (a data scope). */
    async find(tx: Tx, id: string, narrow: Narrow = (q) => q): Promise<Row | undefined> {
      const record = (await narrow(base(tx).select(selection).where('id', '=', id)).executeTakeFirst()) as
        | TableRow
        | undefined;
      return record && toRow(record);
    },

    async findBy(tx: Tx, field: string, value: unknown): Promise<Row | undefined> {
      const column = spec.columns[field];
      if (!column) throw new Error(`${spec.name} has no field ${field}`);
      const record = (await base(tx).select(selection).where(sql.ref(column), '=', value).executeTakeFirst()) as
        | TableRow
        | undefined;
      return record && toRow(record);
    },

    /**
     * The rows whose `field` is one of `values` (one statement, for a batch of import keys). The values travel as one
     * array parameter: a thousand keys are not a thousand bind parameters to build, send and plan.
     */
    async findAllBy(tx: Tx, field: string, values: unknown[]): Promise<Row[]> {
      const column = spec.columns[field];
      if (!column) throw new Error(`${spec.name} has no field ${field}`);
      if (values.length === 0) return [];
      const records = (await base(tx)
        .select(selection)
        .where(sql<boolean>`${sql.ref(column)} = ANY(${values})`)
        .execute()) as TableRow[];
      return records.map((r) => toRow(r));
    },

    async insert(tx: Tx, values: object, actor: Actor): Promise<Row> {
      const record = (await db(tx)
        .insertInto(table)
        .values({
          ...toValues(spec, values),
          ...(spec.tenantOwned && { tenant_id: actor.tenantId }),
          ...(spec.audited !== false && { created_at: actor.now, created_by: actor.actorId }),
        })
        .returning(stored)
        .executeTakeFirstOrThrow()) as TableRow;
      return toRow(record);
    },

    insertMany,

    /** One level of the tree: the rows under `parent` (the roots when undefined), each saying if it has children. */
    async children(tx: Tx, parent: string | undefined, status?: string): Promise<(Row & { hasChildren: boolean })[]> {
      const tree = treeOf();
      const below = sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(table)} c
        WHERE ${sql.ref(`c.${tree.parent}`)} = ${sql.ref(`${table}.${tree.key}`)})`;
      let q = base(tx).select(selection).select(below.as(HAS_CHILDREN));
      q = parent === undefined ? q.where(sql.ref(tree.parent), 'is', null) : q.where(sql.ref(tree.parent), '=', parent);
      if (status) q = q.where('status', '=', status);
      const records = (await q.orderBy('sort').orderBy(sql.ref(tree.key)).execute()) as TableRow[];
      return records.map((r) => ({ ...toRow(r), hasChildren: Boolean(r[HAS_CHILDREN]) }));
    },

    /** The keys of the rows whose parent is one of `keys`. */
    async childKeys(tx: Tx, keys: string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const { key, parent } = treeOf();
      const records = (await base(tx).select(sql.ref(key).as('key')).where(sql.ref(parent), 'in', keys).execute()) as {
        key: string;
      }[];
      return records.map((r) => r.key);
    },

    /** With a version: optimistic (undefined when stale). Without: an action that always applies. */
    async update(tx: Tx, id: string, values: object, actor: Actor, version?: number): Promise<Row | undefined> {
      let q = db(tx)
        .updateTable(table)
        .set({ ...toValues(spec, values), ...stamp(actor) })
        .where('id', '=', id);
      if (spec.softDelete) q = q.where('deleted_at', 'is', null);
      if (version !== undefined) q = q.where('version', '=', version);
      const record = (await q.returning(stored).executeTakeFirst()) as TableRow | undefined;
      return record && toRow(record);
    },

    async remove(tx: Tx, ids: string[], actor: Actor): Promise<number> {
      if (ids.length === 0) return 0;
      if (!spec.softDelete) {
        const deleted = await db(tx).deleteFrom(table).where('id', 'in', ids).executeTakeFirst();
        return Number(deleted.numDeletedRows);
      }
      const updated = await db(tx)
        .updateTable(table)
        .set({ deleted_at: actor.now, ...stamp(actor) })
        .where('id', 'in', ids)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows);
    },
  };
}

/** Tables whose rows are deleted softly (they keep `deleted_at`). */
type SoftDeleting = { [T in TableName]: 'deleted_at' extends keyof DB[T] ? T : never }[TableName];

/**
 * Whether every one of `ids` is a row of `table` that is not deleted, as the transaction sees the table (RLS: the rows
 * of its tenant): a reference to another tenant's record, or to a deleted one, is not.
 */
export async function allLive(tx: Tx, table: SoftDeleting, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return true;
  const row = (await (tx as unknown as TableTx)
    .selectFrom(table)
    .select(sql<string>`count(*)`.as('n'))
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()) as { n: string } | undefined;
  return Number(row?.n ?? 0) === ids.length;
}

export type TableRepository<Row extends object = TableRow> = ReturnType<typeof tableRepository<TableName, Row>>;

/** Runs `work` so that a failing statement undoes only its own writes and the transaction goes on (import rows). */
export async function withSavepoint<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  await sql`SAVEPOINT resource_row`.execute(tx);
  try {
    const result = await work();
    await sql`RELEASE SAVEPOINT resource_row`.execute(tx);
    return result;
  } catch (err) {
    await sql`ROLLBACK TO SAVEPOINT resource_row`.execute(tx);
    throw err;
  }
}
