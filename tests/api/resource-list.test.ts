import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

const people = [
  { userName: 'alice', displayName: 'Alice Zhang', mobile: '13900000001', email: 'alice@example.com' },
  { userName: 'bob', displayName: 'Bob Li', mobile: '13900000002', email: 'bob@example.com' },
  { userName: 'carol', displayName: 'Carol Wang', mobile: '13900000003', email: 'carol@hospital.cn' },
  { userName: 'dave', displayName: '大卫', mobile: null, email: null },
];

describe.each(engines())('the list contract on GET /api/system/admin on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let viewerRoleId: string;
  const names = (res: { body: { data: { userName: string }[] } }) => res.body.data.map((u) => u.userName);

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    const roles = await api.db
      .selectFrom('role as r')
      .innerJoin('tenant as t', 't.id', 'r.tenant_id')
      .select(['r.id', 'r.code'])
      .where('t.code', '=', 'demo')
      .execute();
    viewerRoleId = roles.find((r) => r.code === 'viewer')!.id;
    for (const [i, p] of people.entries()) {
      const res = await api.call('POST', '/api/system/admin', {
        token: admin,
        body: { ...p, password: 'Quiet-Otter-42', roleIds: i % 2 === 0 ? [viewerRoleId] : [] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await api.call(
      'POST',
      `/api/system/admin/${(await api.call('GET', '/api/system/admin?keyword=bob', { token: admin })).body.data[0].id}/disable`,
      { token: admin },
    );
  });
  afterAll(() => api?.close());

  it('answers {data, total, success, current, pageSize} with the tenant’s rows only', async () => {
    const res = await api.call('GET', '/api/system/admin', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, current: 1, pageSize: 10, total: 6 });
    expect(names(res).sort()).toEqual(['admin', 'alice', 'bob', 'carol', 'dave', 'viewer']);
    expect(names(res)).not.toContain('nurse');
    expect(res.body.data[0]).toMatchObject({
      id: expect.any(String),
      version: expect.any(Number),
      createdAt: expect.any(String),
    });
  });

  it('pages with current and pageSize, and refuses a pageSize over 200', async () => {
    const sorted = '&sort=userName';
    const first = await api.call('GET', `/api/system/admin?current=1&pageSize=4${sorted}`, { token: admin });
    const second = await api.call('GET', `/api/system/admin?current=2&pageSize=4${sorted}`, { token: admin });
    expect(first.body).toMatchObject({ total: 6, current: 1, pageSize: 4 });
    expect(names(first)).toEqual(['admin', 'alice', 'bob', 'carol']);
    expect(names(second)).toEqual(['dave', 'viewer']);
    const tooBig = await api.call('GET', '/api/system/admin?pageSize=201', { token: admin });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.fields).toEqual([expect.objectContaining({ field: 'pageSize' })]);
    expect((await api.call('GET', '/api/system/admin?pageSize=200', { token: admin })).status).toBe(200);
  });

  it('sorts by whitelisted fields, several at once, and refuses others naming sort', async () => {
    const desc = await api.call('GET', '/api/system/admin?sort=-userName', { token: admin });
    expect(names(desc)).toEqual(['viewer', 'dave', 'carol', 'bob', 'alice', 'admin']);
    const multi = await api.call('GET', '/api/system/admin?sort=status,userName', { token: admin });
    expect(multi.status).toBe(400);
    const byDisplay = await api.call('GET', '/api/system/admin?sort=displayName,-createdAt', { token: admin });
    expect(byDisplay.status).toBe(200);
    const bad = await api.call('GET', '/api/system/admin?sort=passwordHash', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'common.validation',
      fields: [{ field: 'sort', message: expect.any(String) }],
    });
  });

  it('refuses an unknown query parameter, naming it', async () => {
    const res = await api.call('GET', '/api/system/admin?tenantId=1', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'common.validation',
      fields: [{ field: 'tenantId', message: 'is not an allowed field' }],
    });
  });

  it('filters by keyword over user name, display name, mobile and email (case-insensitive)', async () => {
    expect(names(await api.call('GET', '/api/system/admin?keyword=ZHANG', { token: admin }))).toEqual(['alice']);
    expect(names(await api.call('GET', '/api/system/admin?keyword=13900000002', { token: admin }))).toEqual(['bob']);
    expect(names(await api.call('GET', '/api/system/admin?keyword=hospital.cn', { token: admin }))).toEqual(['carol']);
    expect(
      names(await api.call('GET', `/api/system/admin?keyword=${encodeURIComponent('大卫')}`, { token: admin })),
    ).toEqual(['dave']);
    expect((await api.call('GET', '/api/system/admin?keyword=%25', { token: admin })).body.total).toBe(0);
  });

  it('filters by status (one or a list), role and creation date, and refuses values it cannot use', async () => {
    expect(names(await api.call('GET', '/api/system/admin?status=disabled', { token: admin }))).toEqual(['bob']);
    expect((await api.call('GET', '/api/system/admin?status=enabled,disabled', { token: admin })).body.total).toBe(6);
    const bad = await api.call('GET', '/api/system/admin?status=gone', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([expect.objectContaining({ field: 'status' })]);

    const byRole = await api.call('GET', `/api/system/admin?roleId=${viewerRoleId}&sort=userName`, { token: admin });
    expect(names(byRole)).toEqual(['alice', 'carol', 'viewer']);
    expect(byRole.body.data[0].roles).toEqual([{ id: viewerRoleId, code: 'viewer', name: '访客' }]);
    expect((await api.call('GET', '/api/system/admin?roleId=abc', { token: admin })).status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    expect((await api.call('GET', `/api/system/admin?createdAt=${today},${today}`, { token: admin })).body.total).toBe(
      6,
    );
    expect(
      (await api.call('GET', '/api/system/admin?createdAt=2000-01-01,2000-12-31', { token: admin })).body.total,
    ).toBe(0);
    expect((await api.call('GET', `/api/system/admin?createdAt=${today},`, { token: admin })).body.total).toBe(6);
    const badDate = await api.call('GET', '/api/system/admin?createdAt=yesterday', { token: admin });
    expect(badDate.status).toBe(400);
    expect(badDate.body.fields).toEqual([expect.objectContaining({ field: 'createdAt' })]);
  });
});
