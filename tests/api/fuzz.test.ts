import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallOptions, engines, startApi, type TestApi } from './helpers';
import {
  describeOperation,
  fillPath,
  fingerprint,
  isNullable,
  listPathOf,
  listRows,
  loadOperations,
  mainBranch,
  type Operation,
  type RowFinder,
  rowFinder,
  type Schema,
  typesOf,
  validValue,
  WRITE_METHODS,
} from './openapi-operations';

/** Replay a failure with `FUZZ_SEED=<seed printed in it> npx vitest run tests/api/fuzz.test.ts`. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
/** Properties broken per operation and kind of break: a fixed sample keeps the suite fast as operations grow. */
const FIELDS_PER_OPERATION = 3;

interface Case {
  name: string;
  options?: CallOptions;
  form?: FormData;
  /** Replaces every path parameter. */
  pathValue?: string;
  /** A field the 400 must name, when the break is in one field. */
  field?: string;
}

const MB = 'x'.repeat(1024 * 1024);
const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/**
 * Every write operation of the OpenAPI document, given bodies and parameters derived from its schema and then broken:
 * always 4xx `{family, code, message}`, never 5xx, and no row changed.
 */
describe.each(engines())('fuzzing every write operation on $name', (engine) => {
  let api: TestApi;
  let operations: Operation[];
  let resolve: (s: Schema) => Schema;
  let token: string;
  let ownRows: Map<string, Record<string, unknown>[]>;
  let ownReferences: RowFinder['ownReferences'];
  let tenantId: string;

  beforeAll(async () => {
    api = await startApi(engine);
    ({ operations, resolve } = await loadOperations(api));
    token = (await api.tokens('platform', 'admin', 'admin123')).access;
    ownRows = await listRows(api, operations, token);
    ({ ownReferences } = rowFinder(api));
    const platform = await api.db
      .selectFrom('tenant')
      .select('id')
      .where('code', '=', 'platform')
      .executeTakeFirstOrThrow();
    tenantId = String(platform.id);
  });
  afterAll(() => api?.close());

  /** Broken values of one property, by its schema. */
  function brokenValues(schema: Schema): { name: string; value: unknown }[] {
    const s = mainBranch(schema, resolve);
    const types = typesOf(s);
    const out: { name: string; value: unknown }[] = [];
    if (!isNullable(schema, resolve)) out.push({ name: 'null', value: null });
    if (types.includes('string') || s.enum) {
      out.push({ name: 'wrong type (number)', value: 12345 }, { name: 'wrong type (object)', value: { a: 1 } });
      out.push({ name: 'NUL byte', value: `${String(validValue(s, resolve, SEED))}\u0000` });
      if (!s.enum) out.push({ name: 'unpaired surrogate', value: '\ud800x' });
      if (s.maxLength !== undefined) out.push({ name: 'one character too long', value: 'x'.repeat(s.maxLength + 1) });
    }
    if (types.includes('integer') || types.includes('number')) {
      out.push({ name: 'wrong type (text)', value: '1' }, { name: 'wrong type (boolean)', value: true });
      out.push(
        { name: 'beyond int4', value: 2 ** 31 },
        { name: 'beyond int8', value: 2 ** 63 },
        { name: 'below int4', value: -(2 ** 31) - 1 },
      );
      if (s.maximum !== undefined) out.push({ name: 'above the maximum', value: s.maximum + 1 });
      if (s.minimum !== undefined) out.push({ name: 'below the minimum', value: s.minimum - 1 });
      if (types.includes('integer')) out.push({ name: 'a fraction', value: 1.5 });
    }
    if (types.includes('boolean')) out.push({ name: 'wrong type (text)', value: 'yes' });
    if (types.includes('array')) {
      out.push({ name: 'wrong type (text)', value: 'a,b' });
      // One item drawn and repeated: drawing text for a pattern costs up to tens of milliseconds (fast-check), and
      // with the same seed every draw is the same item anyway.
      const item = validValue(s.items ?? {}, resolve, SEED);
      out.push({ name: 'huge array', value: Array.from({ length: 10_000 }, () => item) });
      out.push({ name: 'array of NUL', value: ['\u0000'] });
    }
    if (types.includes('object') || types.length === 0) out.push({ name: 'deep nesting', value: JSON.parse(deep(64)) });
    return out;
  }

  /** `base`: a valid body, whose references name rows of the caller's tenant. */
  function jsonCases(op: Operation, seed: number, base: Record<string, unknown>): Case[] {
    const schema = mainBranch(op.body?.schema ?? {}, resolve);
    const json = { 'content-type': 'application/json' };
    const cases: Case[] = [
      { name: 'invalid JSON', options: { rawBody: '{"a":', headers: json } },
      {
        name: 'wrong content type',
        options: { rawBody: JSON.stringify(base), headers: { 'content-type': 'text/plain' } },
      },
      { name: 'a 1 MB string', options: { rawBody: JSON.stringify({ ...base, fuzz: MB }), headers: json } },
      { name: 'deep nesting', options: { rawBody: deep(10_000), headers: json } },
      ...[[], 'text', 42, null].map((body) => ({ name: `a body of ${JSON.stringify(body)}`, options: { body } })),
    ];
    if (!schema.properties) return cases;
    if (schema.additionalProperties === false) {
      cases.push({ name: 'an unknown field', options: { body: { ...base, fuzzUnknown: 1 } }, field: 'fuzzUnknown' });
    }
    const sample = <T>(items: T[]): T[] => {
      const size = Math.min(items.length, FIELDS_PER_OPERATION);
      return fc.sample(fc.shuffledSubarray(items, { minLength: size, maxLength: size }), { seed, numRuns: 1 })[0] ?? [];
    };
    for (const key of sample(schema.required ?? [])) {
      const { [key]: _, ...rest } = base;
      cases.push({ name: `missing ${key}`, options: { body: rest }, field: key });
    }
    for (const [key, property] of sample(Object.entries(schema.properties))) {
      for (const broken of brokenValues(property)) {
        const field = broken.name === 'huge array' || broken.name.startsWith('array') ? undefined : key;
        cases.push({ name: `${key}: ${broken.name}`, options: { body: { ...base, [key]: broken.value } }, field });
      }
    }
    return cases;
  }

  const validBody = async (op: Operation) =>
    (await ownReferences(op, validValue(op.body?.schema ?? {}, resolve, SEED), tenantId)) as Record<string, unknown>;

  function formCases(): Case[] {
    const form = (entries: [string, string | Blob][]) => {
      const data = new FormData();
      for (const [key, value] of entries) data.set(key, value);
      return data;
    };
    const garbage = new Blob([new Uint8Array(4096).map((_, i) => (i * 31 + SEED) % 256)]);
    return [
      { name: 'JSON instead of a form', options: { body: { file: 'x' } } },
      { name: 'no file', form: form([['dryRun', 'true']]) },
      { name: 'a file that is no spreadsheet', form: form([['file', garbage]]) },
      {
        name: 'a NUL in a form field',
        form: form([
          ['file', garbage],
          ['mode', 'in\u0000sert'],
        ]),
      },
    ];
  }

  /** A body that is the file itself (an upload): nothing, and bytes of no known type. */
  const rawCases = (): Case[] => {
    const octets = { 'content-type': 'application/octet-stream' };
    return [
      { name: 'an empty file', options: { rawBody: '', headers: octets } },
      {
        name: 'bytes of no known type',
        options: { rawBody: '\u0001\u0002garbage\u0003'.repeat(500), headers: octets },
      },
    ];
  };

  const pathCases = (): Case[] =>
    ['0', '-1', 'abc', '99999999999999999999', '1\u0000', 'x'.repeat(300)].map((pathValue) => ({
      name: `path parameter ${JSON.stringify(pathValue)}`,
      pathValue,
    }));

  async function send(op: Operation, path: string, c: Case) {
    const target = c.pathValue === undefined ? path : fillPath(op.path, () => c.pathValue as string);
    if (c.form) {
      const res = await api.fetch(op.method, target, { token, form: c.form });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }
    return api.call(op.method, target, { token, ...c.options });
  }

  it('answers every broken request 4xx {family, code, message}, naming the broken field, and changes no row', async () => {
    const writes = operations.filter((op) => WRITE_METHODS.includes(op.method));
    expect(writes.length).toBeGreaterThan(30);
    const failures: string[] = [];
    for (const [index, op] of writes.entries()) {
      const own = ownRows.get(listPathOf(op))?.[0];
      // required query parameters with a valid value, so that the body is what is judged
      const required = op.query
        .filter((q) => q.required)
        .map((q) => `${q.name}=${encodeURIComponent(String(validValue(q.schema, resolve, SEED)))}`);
      const filled = fillPath(op.path, (param) => String(own?.[param] ?? own?.id ?? '1'));
      const path = required.length ? `${filled}?${required.join('&')}` : filled;
      const cases = [
        ...(op.body?.types.includes('application/json') ? jsonCases(op, SEED + index, await validBody(op)) : []),
        ...(op.body?.types.includes('multipart/form-data') ? formCases() : []),
        ...(op.body?.types.includes('application/octet-stream') ? rawCases() : []),
        ...(op.pathParams.length > 0 ? pathCases() : []),
      ];
      if (cases.length === 0) continue;
      const before = await fingerprint(api);
      for (const c of cases) {
        const res = await send(op, path, c);
        const what = `seed=${SEED} ${describeOperation(op)} · ${c.name}`;
        const shaped =
          res.body &&
          res.body.family === 'CLIENT_ERROR' &&
          typeof res.body.code === 'string' &&
          typeof res.body.message === 'string';
        const named =
          !c.field ||
          res.status !== 400 ||
          (res.body?.fields ?? []).some((f: { field: string }) => f.field.split('.')[0] === c.field);
        if (res.status < 400 || res.status >= 500 || !shaped || !named) {
          failures.push(`${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }
      const after = await fingerprint(api);
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      if (changed.length > 0) failures.push(`seed=${SEED} ${describeOperation(op)} changed ${changed.join(', ')}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
