import fc from 'fast-check';
import { sql } from 'kysely';
import type { TestApi } from './helpers';

/**
 * The operations of `/api/openapi.json`, read at run time: the generated suites cover whatever the document lists,
 * so an operation added anywhere is tested without a line written for it.
 */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
  /** The table a reference names, by a sibling field for a polymorphic one, or `false` for an id that is none. */
  'x-references'?: Target | false;
};

/** What a body field that carries an id refers to (server/src/core/references.ts). */
export type Target = string | { by: string; to: Record<string, string> };

/** A reference of a body: its path (`*` for each item of an array) and what it names. */
export interface Reference {
  path: string[];
  target: Target;
}

export interface Operation {
  method: string;
  path: string;
  /** `public`, `authenticated`, a permission code or a list of codes (`x-permission`). */
  permission: string | string[];
  pathParams: string[];
  query: { name: string; schema: Schema; required: boolean }[];
  body?: { types: string[]; schema?: Schema; required: boolean };
  /** The references its body declares (`x-references`). */
  references: Reference[];
  /** Fields of its body named like a reference (`…Id`, `…Ids`) that declare nothing: none may be. */
  undeclared: string[];
}

/** The parts of the served document the suites read. */
interface DocOperation {
  'x-permission': string | string[];
  parameters?: { in: string; name: string; schema?: Schema; required?: boolean }[];
  requestBody?: { content: Record<string, { schema?: Schema }>; required?: boolean };
}
interface OpenApiDoc {
  paths: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export const describeOperation = (op: Operation) => `${op.method} ${op.path}`;

export async function loadOperations(
  api: TestApi,
): Promise<{ operations: Operation[]; resolve: (s: Schema) => Schema }> {
  const doc: OpenApiDoc = (await api.call('GET', '/api/openapi.json')).body;
  const components: Record<string, Schema> = doc.components?.schemas ?? {};
  const resolve = (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 20; hops++)
      current = components[current.$ref.split('/').pop() as string] ?? {};
    return current;
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      const content = op.requestBody?.content;
      const found = Object.values(content ?? {}).map((c) => fieldsOf(c.schema ?? {}, resolve));
      operations.push({
        method: method.toUpperCase(),
        path,
        permission: op['x-permission'],
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: !!p.required })),
        body: content && {
          types: Object.keys(content),
          schema: content['application/json']?.schema ?? content['multipart/form-data']?.schema,
          required: !!op.requestBody?.required,
        },
        references: found.flatMap((f) => f.references),
        undeclared: [...new Set(found.flatMap((f) => f.undeclared))],
      });
    }
  }
  return { operations, resolve };
}

/** A name that says the field holds the id of another record: `orgId`, `dataScopeOrgIds` (not `id` or `ids`). */
const REFERENCE_NAME = /[a-z0-9]Ids?$/;

/** The references a body schema declares, at any depth, and its fields named like one that declare nothing. */
function fieldsOf(root: Schema, resolve: (s: Schema) => Schema) {
  const references: Reference[] = [];
  const undeclared: string[] = [];
  /** The declaration of a field: on it, on what it refers to, on a branch of its union or on its items. */
  const declared = (schema: Schema, depth = 0): Target | false | undefined => {
    if (depth > 10) return undefined;
    if (schema['x-references'] !== undefined) return schema['x-references'];
    const s = resolve(schema);
    if (s !== schema) return declared(s, depth + 1);
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) {
      const found = declared(branch, depth + 1);
      if (found !== undefined) return found;
    }
    return s.items ? declared(s.items, depth + 1) : undefined;
  };
  const walk = (schema: Schema, path: string[], depth: number) => {
    const s = resolve(schema);
    if (depth > 10) return;
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) walk(branch, path, depth + 1);
    if (s.items) walk(s.items, [...path, '*'], depth + 1);
    for (const [key, property] of Object.entries(s.properties ?? {})) {
      const target = declared(property);
      if (target) {
        const p = resolve(mainBranch(property, resolve));
        references.push({ path: typesOf(p).includes('array') ? [...path, key, '*'] : [...path, key], target });
      } else if (target === undefined && REFERENCE_NAME.test(key)) undeclared.push([...path, key].join('.'));
      if (target === undefined) walk(property, [...path, key], depth + 1);
    }
  };
  walk(root, [], 0);
  const seen = new Set<string>();
  return {
    references: references.filter((r) => !seen.has(r.path.join('.')) && seen.add(r.path.join('.'))),
    undeclared,
  };
}

/**
 * `value` placed at `path` in a copy of `body`, and the field as a 400 names it (`sections.0.rules.0.categoryIds.0`):
 * what is missing on the way is made valid by `schema` (an array of one item, an object of its required fields).
 */
export function placed(
  body: unknown,
  path: string[],
  value: unknown,
  schema: Schema,
  resolve: (s: Schema) => Schema,
): { body: unknown; field: string } {
  const [step, ...rest] = path;
  if (step === undefined) return { body: value, field: '' };
  const s = mainBranch(schema, resolve);
  if (step === '*') {
    const item = s.items ?? {};
    const first = Array.isArray(body) && body.length > 0 ? body[0] : validValue(item, resolve, 1);
    const inner = placed(first, rest, value, item, resolve);
    return { body: [inner.body], field: inner.field ? `0.${inner.field}` : '0' };
  }
  const property = s.properties?.[step] ?? {};
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
  const current = (object as Record<string, unknown>)[step];
  const inner = placed(
    current === undefined ? validValue(property, resolve, 1) : current,
    rest,
    value,
    property,
    resolve,
  );
  return { body: { ...object, [step]: inner.body }, field: inner.field ? `${step}.${inner.field}` : step };
}

/**
 * `body` with the ids it holds at `path` replaced by `id(table)` where that gives one (`table` from `target`, by the
 * sibling field of a polymorphic reference): what a generated body names becomes a row of the caller's tenant.
 */
export function withIds(body: unknown, ref: Reference, id: (table: string) => string | undefined): unknown {
  const at = (value: unknown, step: number, parent: unknown): unknown => {
    if (step === ref.path.length) {
      const table =
        typeof ref.target === 'string'
          ? ref.target
          : ref.target.to[String((parent as Record<string, unknown> | undefined)?.[ref.target.by])];
      return (typeof value === 'string' && table && id(table)) || value;
    }
    const key = ref.path[step] as string;
    if (key === '*') return Array.isArray(value) ? value.map((item) => at(item, step + 1, parent)) : value;
    if (typeof value !== 'object' || value === null || !(key in value)) return value;
    return { ...value, [key]: at((value as Record<string, unknown>)[key], step + 1, value) };
  };
  return at(body, 0, undefined);
}

export const typesOf = (schema: Schema): string[] => {
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  return schema.nullable ? [...own, 'null'] : own;
};

/** The branch of a union that carries the value (not the `null` one). */
export function mainBranch(schema: Schema, resolve: (s: Schema) => Schema): Schema {
  const s = resolve(schema);
  const branches = s.anyOf ?? s.oneOf;
  const main = branches?.find((b) => !typesOf(resolve(b)).every((t) => t === 'null')) ?? branches?.[0] ?? s.allOf?.[0];
  return main ? mainBranch(main, resolve) : s;
}

export const isNullable = (schema: Schema, resolve: (s: Schema) => Schema): boolean => {
  const s = resolve(schema);
  return typesOf(s).includes('null') || !!(s.anyOf ?? s.oneOf)?.some((b) => typesOf(resolve(b)).includes('null'));
};

/**
 * A value the schema accepts, as far as a schema can tell (business rules may still refuse it): the least value of
 * each constraint, text matching the pattern (drawn with the seed), required properties only.
 */
export function validValue(schema: Schema, resolve: (s: Schema) => Schema, seed: number): unknown {
  const s = mainBranch(schema, resolve);
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
  const type = typesOf(s).find((t) => t !== 'null') ?? (s.properties ? 'object' : 'string');
  switch (type) {
    case 'integer':
    case 'number': {
      const low = typeof s.minimum === 'number' ? s.minimum : 1;
      const value =
        typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : s.exclusiveMinimum === true ? low + 1 : low;
      return typeof s.maximum === 'number' ? Math.min(value, s.maximum) : value;
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, (_, i) => validValue(s.items ?? {}, resolve, seed + i));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = validValue(s.properties?.[key] ?? {}, resolve, seed + key.length);
      return out;
    }
    default:
      return validText(s, seed);
  }
}

function validText(s: Schema, seed: number): string {
  if (s.format === 'date-time') return new Date(Date.UTC(2030, 0, 1)).toISOString();
  if (s.format === 'date') return '2030-01-01';
  if (s.format === 'email') return 'fuzz@example.com';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/cb';
  const min = Math.max(s.minLength ?? 1, 1);
  const max = s.maxLength ?? 64;
  if (s.pattern) {
    const fits = (t: string) => t.length >= min && t.length <= max && t.trim() === t;
    try {
      return fc.sample(fc.stringMatching(new RegExp(s.pattern)).filter(fits), { seed, numRuns: 1 })[0] as string;
    } catch {
      // a pattern fast-check cannot draw from (look-arounds): the plain text below
    }
  }
  return 'fuzz'.repeat(Math.ceil(min / 4)).slice(0, Math.max(min, Math.min(4, max)));
}

/**
 * Rows of every list operation (a GET without path or required query parameters answering `{data: [...]}`) as
 * `token` sees them, keyed by path.
 */
export async function listRows(
  api: TestApi,
  operations: Operation[],
  token: string,
): Promise<Map<string, Record<string, unknown>[]>> {
  const rows = new Map<string, Record<string, unknown>[]>();
  for (const op of operations) {
    if (op.method !== 'GET' || op.pathParams.length > 0 || op.query.some((q) => q.required)) continue;
    const paged = op.query.some((q) => q.name === 'pageSize');
    const res = await api.call('GET', paged ? `${op.path}?pageSize=200` : op.path, { token });
    if (res.status === 200 && Array.isArray(res.body?.data)) rows.set(op.path, res.body.data);
  }
  return rows;
}

/** The list a path parameter's values come from: `/api/system/role/{id}/members` → `/api/system/role`. */
export const listPathOf = (op: Operation) => op.path.slice(0, op.path.indexOf('/{'));

export const fillPath = (path: string, value: (param: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(value(name)));

/**
 * A cheap fingerprint of every row of every table (sign-in attempts excepted: the token endpoint logs refused
 * attempts by design), read as the database owner, so a request that changed anything is caught. The tables are
 * listed anew each time and digested in one statement (a statement per table made it most of the fuzz suite's time).
 */
export async function fingerprint(api: TestApi): Promise<Record<string, string>> {
  // the sign-in log records refusals and the sign-in rate limit counts them (rate_limit, on PostgreSQL); the server's
  // own heartbeat (server_instance) moves by the clock, not by requests
  const tables = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables
    WHERE schemaname = 'public' AND tablename NOT IN ('login_log', 'rate_limit', 'server_instance')
    ORDER BY tablename`.execute(api.db);
  if (tables.rows.length === 0) return {};
  const digests = tables.rows.map(
    ({ name }) => sql`SELECT ${name}::text AS name, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest,
      count(*)::text AS n FROM ${sql.table(name)} t`,
  );
  const rows = await sql<{
    name: string;
    digest: string | null;
    n: string;
  }>`${sql.join(digests, sql` UNION ALL `)}`.execute(api.db);
  return Object.fromEntries(rows.rows.map((row) => [row.name, `${row.n}:${row.digest}`]));
}

/** Rows of a tenant, or of the others, as the suites name them in the references of the bodies they send. */
export function rowFinder(api: TestApi) {
  const rowIds = new Map<string, string | undefined>();
  /** A row of `table` of the tenant (`mine`) or of a tenant other than it (none for a global table). */
  async function rowOf(table: string, tenantId: string, mine: boolean) {
    const key = `${table}/${tenantId}/${mine}`;
    if (!rowIds.has(key)) {
      const owned = await sql<{ n: number }>`SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = ${table} AND column_name = 'tenant_id'`.execute(api.db);
      // the platform tenant's rows of a table every tenant reads them from (settings, dictionary items, message
      // templates: its read policy names the platform tenant, migration 0070) are shared, no other tenant's
      const shared = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_policies
        WHERE schemaname = 'public' AND tablename = ${table} AND cmd = 'SELECT' AND qual LIKE '%platform%'`.execute(
        api.db,
      );
      const others = shared.rows[0]?.n
        ? sql`tenant_id <> ${tenantId} AND tenant_id <> (SELECT id FROM tenant WHERE code = 'platform')`
        : sql`tenant_id IS NOT NULL AND tenant_id <> ${tenantId}`;
      const whose = mine ? sql`tenant_id = ${tenantId}` : others;
      const { rows } = owned.rows[0]?.n
        ? await sql<{ id: string }>`SELECT id::text AS id FROM ${sql.table(table)} WHERE ${whose}
            ORDER BY id LIMIT 1`.execute(api.db)
        : { rows: [] };
      rowIds.set(key, rows[0]?.id);
    }
    return rowIds.get(key);
  }
  /** `body` with the tenant's own rows in the references it holds, so that the answer is about something else. */
  async function ownReferences(op: Operation, body: unknown, tenantId: string) {
    const own = new Map<string, string | undefined>();
    for (const ref of op.references) {
      const tables = typeof ref.target === 'string' ? [ref.target] : Object.values(ref.target.to);
      for (const table of tables) own.set(table, await rowOf(table, tenantId, true));
    }
    return op.references.reduce((out, ref) => withIds(out, ref, (table) => own.get(table)), body);
  }
  return { rowOf, ownReferences };
}
export type RowFinder = ReturnType<typeof rowFinder>;
