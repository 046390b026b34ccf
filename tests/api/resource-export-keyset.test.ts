import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Keyset, ListQuery } from '../../server/src/core/resource/list-query';
import { tableRepository } from '../../server/src/core/resource/table.repository';
import { engines, readXlsx, startApi, type TestApi } from './helpers';

/** Several export batches (500 rows each), so that the export crosses batch boundaries inside runs of equal sorts. */
const ROWS = 2300;

describe.each(engines())('keyset export on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let tenantId: string;

  const roles = tableRepository({
    name: 'role',
    columns: { id: 'id', code: 'code', sort: 'sort', remark: 'remark', createdAt: 'created_at' },
    softDelete: true,
    tenantOwned: true,
  });
  /** Every role, page after page by keyset; `after` must move on with each page. */
  const byKeyset = async (sort: ListQuery['sort'], pageSize: number) => {
    const keyset: Keyset = {};
    const codes: string[] = [];
    for (let current = 1; current < 10_000; current++) {
      const query: ListQuery = { page: { current: 1, pageSize, skipTotal: true, keyset }, sort, filters: [] };
      const { rows } = await api.tenancy.inTenant(tenantId, (tx) => roles.list(tx, query));
      codes.push(...rows.map((r) => String(r.code)));
      if (rows.length < pageSize) return codes;
    }
    throw new Error('the keyset does not move on');
  };
  const unpaged = async (sort: ListQuery['sort']) =>
    (await api.tenancy.inTenant(tenantId, (tx) => roles.list(tx, { page: null, sort, filters: [] }))).rows.map((r) =>
      String(r.code),
    );

  beforeAll(async () => {
    api = await startApi(engine);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    tenantId = (await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
    const creator = await api.userId('demo', 'admin');
    // Few distinct sorts and remarks (long runs of ties), a third of remarks null, two creation instants only (the
    // second with microseconds a JavaScript date cannot hold).
    await sql`INSERT INTO role (tenant_id, code, name, sort, remark, created_by, created_at)
      SELECT ${tenantId}, 'k_' || lpad(n::text, 5, '0'), 'keyset ' || n, n % 7,
        CASE WHEN n % 3 = 0 THEN NULL ELSE 'remark ' || (n % 5) END, ${creator},
        CASE WHEN n % 2 = 0 THEN timestamptz '2024-01-01 00:00:00.123456+00' ELSE timestamptz '2024-01-01 00:00:00.123457+00' END
      FROM generate_series(1, ${ROWS}) AS n`.execute(api.db);
  });
  afterAll(() => api?.close());

  it('pages by keyset give the unpaged list exactly, in order, with ties and nulls in the sort columns', async () => {
    const sorts: ListQuery['sort'][] = [
      [{ column: 'sort', desc: false }],
      [{ column: 'remark', desc: false }],
      [{ column: 'remark', desc: true }],
      [
        { column: 'remark', desc: true },
        { column: 'sort', desc: false },
      ],
      [{ column: 'created_at', desc: true }],
      [],
    ];
    for (const sort of sorts) {
      const all = await unpaged(sort);
      expect(all).toHaveLength(ROWS + (await unpaged([])).filter((c) => !c.startsWith('k_')).length);
      expect(await byKeyset(sort, 97), JSON.stringify(sort)).toEqual(all);
    }
  });

  it('exports every row once, in the list’s order, across batches', async () => {
    const res = await api.fetch('GET', '/api/system/role/export?sort=sort,-code', { token: admin });
    expect(res.status).toBe(200);
    const exported = (await readXlsx(await res.arrayBuffer())).slice(1).map((r) => r[0]);
    const listed: string[] = [];
    for (let current = 1; ; current++) {
      const page = await api.call('GET', `/api/system/role?sort=sort,-code&pageSize=200&current=${current}`, {
        token: admin,
      });
      listed.push(...page.body.data.map((r: { code: string }) => r.code));
      if (page.body.data.length < 200) break;
    }
    expect(listed.length).toBeGreaterThan(ROWS);
    expect(exported).toEqual(listed);
  });
});
