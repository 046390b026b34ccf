import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, secondTenant, startApi, type TestApi } from './helpers';

describe.each(engines())('permissions on GET /api/system/admin/{id} on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let viewer: string;
  let otherAdmin: string;
  let ownUserId: string;
  let foreignUserId: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
    otherAdmin = (await api.tokens('demo2', 'admin', 'admin123')).access;
    ownUserId = await api.userId('demo', 'viewer');
    foreignUserId = await api.userId('demo2', 'nurse');
  });
  afterAll(() => api?.close());

  it('answers 200 with the user (ids as strings, no password hash) for a holder of system:admin:list', async () => {
    const res = await api.call('GET', `/api/system/admin/${ownUserId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ownUserId, userName: 'viewer', displayName: '访客', status: 'enabled' });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|password_hash|argon2/i);
  });

  it('answers 401 common.unauthorized without a token, with a malformed or unknown token', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer not-a-real-token-0123456789' },
    ];
    for (const headers of variants) {
      const res = await api.call('GET', `/api/system/admin/${ownUserId}`, { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        family: 'CLIENT_ERROR',
        code: 'common.unauthorized',
        message: '登录已过期，请重新登录',
      });
    }
  });

  it('answers 403 common.forbidden to a valid token without the code', async () => {
    const res = await api.call('GET', `/api/system/admin/${ownUserId}`, { token: viewer });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('common.forbidden');
  });

  it('answers 404 common.notFound for another tenant’s id, and that tenant still sees it', async () => {
    const res = await api.call('GET', `/api/system/admin/${foreignUserId}`, { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('common.notFound');
    const own = await api.call('GET', `/api/system/admin/${foreignUserId}`, { token: otherAdmin });
    expect(own.status).toBe(200);
    expect(own.body.userName).toBe('nurse');
  });

  it('answers 404 for an id that does not exist and 400 for one that is not an id', async () => {
    expect((await api.call('GET', '/api/system/admin/999999', { token: admin })).status).toBe(404);
    const bad = await api.call('GET', '/api/system/admin/abc', { token: admin });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual([expect.objectContaining({ field: 'id' })]);
  });

  it('checks the token before validating: no token on a bad id is still 401', async () => {
    expect((await api.call('GET', '/api/system/admin/abc')).status).toBe(401);
  });

  it('answers unknown /api routes with a JSON 404', async () => {
    const res = await api.call('GET', '/api/does-not-exist', { token: admin });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'common.notFound' });
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('refuses tokens of a disabled user', async () => {
    const t = await api.tokens('demo2', 'nurse', 'nurse123');
    await api.db.updateTable('admin_user').set({ status: 'disabled' }).where('id', '=', foreignUserId).execute();
    expect((await api.call('GET', '/api/auth/me', { token: t.access })).status).toBe(401);
  });

  it('GET /api/dictionary/catalog/syscodes needs a token and merges tenant items over platform items', async () => {
    expect((await api.call('GET', '/api/dictionary/catalog/syscodes')).status).toBe(401);
    const tenant = await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo2').executeTakeFirstOrThrow();
    await api.db
      .insertInto('dict_item')
      .values({
        tenant_id: tenant.id,
        type_code: 'gender',
        value: 'male',
        label: '男性',
        label_en: 'Man',
        color: 'cyan',
      })
      .execute();

    const mine = await api.call('GET', '/api/dictionary/catalog/syscodes', { token: otherAdmin });
    expect(mine.status).toBe(200);
    const male = mine.body.filter((i: { type: string; value: string }) => i.type === 'gender' && i.value === 'male');
    expect(male).toEqual([{ type: 'gender', value: 'male', label: '男性', labelEn: 'Man', color: 'cyan', sort: 0 }]);

    const theirs = await api.call('GET', '/api/dictionary/catalog/syscodes', { token: admin });
    expect(
      theirs.body.find((i: { type: string; value: string }) => i.type === 'gender' && i.value === 'male'),
    ).toMatchObject({
      label: '男',
      labelEn: 'Male',
    });
    expect(
      theirs.body.find((i: { type: string; value: string }) => i.type === 'common_status' && i.value === 'enabled'),
    ).toMatchObject({
      label: '启用',
      labelEn: 'Enabled',
    });
  });
});
