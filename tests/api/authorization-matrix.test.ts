import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, engines, secondTenant, startApi, type TestApi } from './helpers';
import {
  describeOperation,
  fillPath,
  fingerprint,
  listPathOf,
  listRows,
  loadOperations,
  type Operation,
  placed,
  type RowFinder,
  rowFinder,
  type Schema,
  validValue,
  WRITE_METHODS,
} from './openapi-operations';

/** A 1×1 PNG: a file of the other tenant. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/**
 * Every operation of the OpenAPI document, whatever it is: no token → 401; a token without its permission → 403;
 * another tenant's id in a path parameter → 404 with no data, and nothing written; another tenant's id in a reference
 * of its body → 400 naming the field, and nothing written.
 */
describe.each(engines())('authorization matrix of every operation on $name', (engine) => {
  let api: TestApi;
  let operations: Operation[];
  let resolve: (s: Schema) => Schema;
  let rowOf: RowFinder['rowOf'];
  let ownReferences: RowFinder['ownReferences'];
  const callers: { token: string; permissions: Set<string>; tenantId: string }[] = [];
  let powerless: string;
  let otherTenant: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    await api.addTenant({
      code: 'bare',
      name: '无权限医院',
      users: [{ username: 'nobody', password: 'Quiet-Otter-42', displayName: 'Nobody', roleCode: 'no_permissions' }],
    });
    ({ operations, resolve } = await loadOperations(api));
    ({ rowOf, ownReferences } = rowFinder(api));
    powerless = (await api.tokens('bare', 'nobody', 'Quiet-Otter-42')).access;
    otherTenant = (await api.tokens('demo2', 'admin', 'admin123')).access;
    for (const tenant of ['demo', 'platform']) {
      const token = (await api.tokens(tenant, 'admin', 'admin123')).access;
      const me = await api.call('GET', '/api/auth/me', { token });
      const { id } = await api.db
        .selectFrom('tenant')
        .select('id')
        .where('code', '=', tenant)
        .executeTakeFirstOrThrow();
      callers.push({ token, permissions: new Set(me.body.permissions), tenantId: String(id) });
    }
  });
  afterAll(() => api?.close());

  const request = (op: Operation, path: string, token?: string, body?: unknown) =>
    api.call(op.method, path, { token, body: body ?? (op.body?.types.includes('application/json') ? {} : undefined) });
  /** A form's fields as a multipart body: a file field (`format: binary`) as a file, the others as text. */
  const propertiesOf = (schema: Schema): Record<string, Schema> => {
    const s = resolve(schema);
    return Object.assign({}, ...(s.allOf ?? []).map(propertiesOf), s.properties);
  };
  const formOf = (op: Operation, fields: unknown) => {
    const properties = propertiesOf(op.body?.schema ?? {});
    const form = new FormData();
    for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      if (resolve(properties[key] ?? {}).format === 'binary') form.set(key, new File([PNG], 'probe.xlsx'));
      else for (const item of [value].flat()) form.append(key, String(item));
    }
    return form;
  };
  /** The operation called with `body`, sent as its document says: JSON, else a multipart form. */
  const send = async (op: Operation, path: string, token: string, body: unknown): Promise<Answer> => {
    if (op.body?.types.includes('application/json')) return request(op, path, token, body);
    const res = await api.fetch(op.method, path, { token, form: formOf(op, body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  const anyId = (op: Operation) => fillPath(op.path, () => '1');
  const expectError = (res: Answer, status: number, code: string, what: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
    expect(res.body, what).toEqual({ family: 'CLIENT_ERROR', code, message: expect.any(String) });
  };

  it('reads a document that lists operations of every kind', () => {
    const kinds = new Set(
      operations.map((op) => (typeof op.permission === 'string' ? op.permission.split(':').length : 'list')),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(kinds).toEqual(new Set([1, 3, 'list']));
  });

  it('answers 401 to every non-public operation called without a token or with an unknown one', async () => {
    for (const op of operations.filter((o) => o.permission !== 'public')) {
      expectError(await request(op, anyId(op)), 401, 'common.unauthorized', `${describeOperation(op)} without a token`);
      const forged = await request(op, anyId(op), 'x'.repeat(43));
      expectError(forged, 401, 'common.unauthorized', `${describeOperation(op)} with a forged token`);
    }
  });

  it('answers 403 to every operation that needs a permission, for a token without it', async () => {
    const coded = operations.filter((o) => o.permission !== 'public' && o.permission !== 'authenticated');
    expect(coded.length).toBeGreaterThan(0);
    for (const op of coded) {
      expectError(await request(op, anyId(op), powerless), 403, 'common.forbidden', describeOperation(op));
    }
  });

  const holds = (caller: (typeof callers)[number], op: Operation) =>
    op.permission === 'authenticated' || [op.permission].flat().some((code) => caller.permissions.has(code));

  /**
   * The other tenant creates what it may through every create operation (a POST to a list path), so that new
   * tenant-owned resources have rows of theirs without a line written for them; and uploads a file.
   */
  async function otherTenantCreates() {
    const lists = new Set(operations.filter((o) => o.method === 'GET' && o.pathParams.length === 0).map((o) => o.path));
    for (const op of operations.filter(
      (o) => o.method === 'POST' && lists.has(o.path) && o.body?.types.includes('application/json'),
    )) {
      await api.call('POST', op.path, { token: otherTenant, body: validValue(op.body?.schema ?? {}, resolve, 7) });
    }
    const upload = await api.fetch('POST', '/api/file/file/upload?name=a.png&purpose=attachment', {
      token: otherTenant,
      body: PNG,
    });
    expect(upload.status).toBe(201);
  }

  it('declares what every body field named like a reference (`…Id`, `…Ids`) refers to', () => {
    const undeclared = operations.flatMap((op) => op.undeclared.map((field) => `${describeOperation(op)} ${field}`));
    expect(undeclared).toEqual([]);
  });

  it('answers 400 naming the field to another tenant’s id in any reference of a body, and writes nothing', async () => {
    await otherTenantCreates();
    const failures: string[] = [];
    const probed = new Set<string>();
    const probedForms = new Set<string>();
    for (const op of operations.filter((o) => WRITE_METHODS.includes(o.method) && o.references.length > 0)) {
      const caller = callers.find((c) => holds(c, op));
      if (!caller || !op.body?.types.some((type) => type === 'application/json' || type === 'multipart/form-data'))
        continue;
      const base = await ownReferences(op, validValue(op.body.schema ?? {}, resolve, 1), caller.tenantId);
      const before = await fingerprint(api);
      for (const ref of op.references) {
        // a polymorphic reference: the first kind whose table has another tenant's row, named in its sibling
        const kinds =
          typeof ref.target === 'string' ? [[undefined, ref.target] as const] : Object.entries(ref.target.to);
        let probe: { body: unknown; field: string; table: string } | undefined;
        for (const [kind, table] of kinds) {
          const id = await rowOf(table, caller.tenantId, false);
          if (!id) continue;
          let body = base;
          if (kind !== undefined && typeof ref.target !== 'string')
            body = placed(body, [...ref.path.slice(0, -1), ref.target.by], kind, op.body.schema ?? {}, resolve).body;
          probe = { ...placed(body, ref.path, id, op.body.schema ?? {}, resolve), table };
          break;
        }
        if (!probe) continue;
        const res = await send(
          op,
          fillPath(op.path, () => '1'),
          caller.token,
          probe.body,
        );
        const fields = (res.body?.fields ?? []).map((f: { field: string }) => f.field);
        if (res.status !== 400 || res.body?.family !== 'CLIENT_ERROR' || !fields.includes(probe.field))
          failures.push(
            `${describeOperation(op)} ${probe.field} (${probe.table}) → ${res.status} ${JSON.stringify(res.body)}`,
          );
        probed.add(probe.table);
        if (!op.body.types.includes('application/json')) probedForms.add(describeOperation(op));
      }
      const after = await fingerprint(api);
      const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
      if (changed.length > 0) failures.push(`${describeOperation(op)} changed ${changed.join(', ')}`);
    }
    expect(failures).toEqual([]);
    // the references of the issue at least: organisations, trainee types and files
    expect([...probed]).toEqual(expect.arrayContaining(['organization', 'trainee_type', 'file']));
    expect(probed.size).toBeGreaterThan(15);
    // and the forms' fields: an import's parameters beside its file
    expect([...probedForms]).toEqual(
      expect.arrayContaining(['POST /api/people/trainee/import', 'POST /api/people/trainee/import-jobs']),
    );
  });

  it('answers 404 with no data to another tenant’s id in any path parameter, and writes nothing', async () => {
    await otherTenantCreates();
    const theirs = await listRows(api, operations, otherTenant);
    let checked = 0;
    for (const caller of callers) {
      const mine = await listRows(api, operations, caller.token);
      for (const op of operations.filter((o) => o.pathParams.length > 0 && holds(caller, o))) {
        const list = listPathOf(op);
        const seen = new Set((mine.get(list) ?? []).map((r) => String(r.id)));
        const foreign = (theirs.get(list) ?? []).map((r) => String(r.id)).filter((id) => !seen.has(id));
        const own = mine.get(list)?.[0];
        if (foreign.length === 0 || !own) continue;
        const body = op.body?.schema && (await plausibleBody(op, String(own.id), caller.token, caller.tenantId));
        const before = await fingerprint(api);
        for (const id of foreign.slice(0, 2)) {
          const res = await request(
            op,
            fillPath(op.path, () => id),
            caller.token,
            body,
          );
          expectError(res, 404, 'common.notFound', `${describeOperation(op)} with ${list} id ${id} of another tenant`);
        }
        if (WRITE_METHODS.includes(op.method)) expect(await fingerprint(api), describeOperation(op)).toEqual(before);
        checked += 1;
      }
    }
    // every tenant-owned resource with a list takes part: roles and admin users at least, for each caller
    expect(checked).toBeGreaterThan(20);
  });

  /**
   * A body the operation's schema accepts, so that the answer is about the id and not the body: the caller's own row
   * (from the GET of the same path) for the fields it has, the least valid value for the rest, and rows of the
   * caller's tenant in its references.
   */
  async function plausibleBody(op: Operation, ownId: string, token: string, tenantId: string) {
    const generated = (await ownReferences(op, validValue(op.body?.schema ?? {}, resolve, 1), tenantId)) as Record<
      string,
      unknown
    >;
    const row = await api.call(
      'GET',
      fillPath(op.path, () => ownId),
      { token },
    );
    const schema = resolve(op.body?.schema ?? {});
    if (row.status !== 200 || typeof row.body !== 'object' || !schema.properties) return generated;
    const known = Object.keys(schema.properties).filter((key) => row.body[key] !== undefined && row.body[key] !== null);
    return { ...generated, ...Object.fromEntries(known.map((key) => [key, row.body[key]])) };
  }
});
