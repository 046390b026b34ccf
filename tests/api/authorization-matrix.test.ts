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
  type Schema,
  validValue,
  WRITE_METHODS,
} from './openapi-operations';

/**
 * Every operation of the OpenAPI document, whatever it is: no token → 401; a token without its permission → 403;
 * another tenant's id in a path parameter → 404 with no data, and nothing written.
 */
describe.each(engines())('authorization matrix of every operation on $name', (engine) => {
  let api: TestApi;
  let operations: Operation[];
  let resolve: (s: Schema) => Schema;
  const callers: { token: string; permissions: Set<string> }[] = [];
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
    powerless = (await api.tokens('bare', 'nobody', 'Quiet-Otter-42')).access;
    otherTenant = (await api.tokens('demo2', 'admin', 'admin123')).access;
    for (const tenant of ['demo', 'platform']) {
      const token = (await api.tokens(tenant, 'admin', 'admin123')).access;
      const me = await api.call('GET', '/api/auth/me', { token });
      callers.push({ token, permissions: new Set(me.body.permissions) });
    }
  });
  afterAll(() => api?.close());

  const request = (op: Operation, path: string, token?: string, body?: unknown) =>
    api.call(op.method, path, { token, body: body ?? (op.body?.types.includes('application/json') ? {} : undefined) });
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

  it('answers 404 with no data to another tenant’s id in any path parameter, and writes nothing', async () => {
    // The other tenant creates what it may through every create operation (a POST to a list path), so that new
    // tenant-owned resources have rows of theirs without a line written for them.
    const lists = new Set(operations.filter((o) => o.method === 'GET' && o.pathParams.length === 0).map((o) => o.path));
    for (const op of operations.filter(
      (o) => o.method === 'POST' && lists.has(o.path) && o.body?.types.includes('application/json'),
    )) {
      await api.call('POST', op.path, { token: otherTenant, body: validValue(op.body?.schema ?? {}, resolve, 7) });
    }
    const theirs = await listRows(api, operations, otherTenant);
    let checked = 0;
    for (const caller of callers) {
      const mine = await listRows(api, operations, caller.token);
      const holds = (op: Operation) =>
        op.permission === 'authenticated' || [op.permission].flat().some((code) => caller.permissions.has(code));
      for (const op of operations.filter((o) => o.pathParams.length > 0 && holds(o))) {
        const list = listPathOf(op);
        const seen = new Set((mine.get(list) ?? []).map((r) => String(r.id)));
        const foreign = (theirs.get(list) ?? []).map((r) => String(r.id)).filter((id) => !seen.has(id));
        const own = mine.get(list)?.[0];
        if (foreign.length === 0 || !own) continue;
        const body = op.body?.schema && (await plausibleBody(op, String(own.id), caller.token));
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
   * (from the GET of the same path) for the fields it has, the least valid value for the rest.
   */
  async function plausibleBody(op: Operation, ownId: string, token: string) {
    const generated = validValue(op.body?.schema ?? {}, resolve, 1) as Record<string, unknown>;
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
