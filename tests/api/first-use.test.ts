import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

/** An initial password chosen by someone else is replaced at first sign-in before anything else can be done. */
describe.each(engines())('first use on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let admin: string;

  const changePassword = (token: string, currentPassword: string, newPassword: string) =>
    api.call('POST', '/api/auth/password', { token, body: { currentPassword, newPassword } });

  /** Every endpoint outside the change itself refuses with the code the console recognises. */
  const expectHeldBack = async (token: string) => {
    for (const [method, path] of [
      ['GET', '/api/system/admin'],
      ['GET', '/api/auth/menus'],
      ['GET', '/api/dictionary/catalog/syscodes'],
      ['PUT', '/api/auth/me'],
    ] as const) {
      const res = await api.call(method, path, {
        token,
        body: method === 'PUT' ? { displayName: 'x', version: 0 } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path}`).toMatchObject({
        family: 'CLIENT_ERROR',
        code: 'auth.passwordChangeRequired',
      });
    }
  };

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('holds back the first administrator of a new tenant until the initial password is changed', async () => {
    const pkg = await api.db
      .selectFrom('tenant_package')
      .select('id')
      .where('name', '=', '标准套餐')
      .executeTakeFirstOrThrow();
    const created = await api.call('POST', '/api/system/tenant', {
      token: platform,
      body: {
        code: 'gamma',
        name: 'Gamma',
        packageId: pkg.id,
        maxAccounts: 5,
        adminUserName: 'boss',
        adminPassword: 'Amber-Falcon-81',
        adminDisplayName: 'Boss',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const first = await api.tokens('gamma', 'boss', 'Amber-Falcon-81');
    expect((await api.call('GET', '/api/auth/me', { token: first.access })).body).toMatchObject({
      userName: 'boss',
      mustChangePassword: true,
    });
    await expectHeldBack(first.access);
    const renewed = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: first.refresh, client_id: 'console' },
    });
    expect(renewed.status).toBe(200);
    await expectHeldBack(renewed.body.access_token);

    const weak = await changePassword(renewed.body.access_token, 'Amber-Falcon-81', 'short');
    expect(weak.status).toBe(400);
    expect(weak.body.fields).toEqual([expect.objectContaining({ field: 'newPassword' })]);
    await expectHeldBack(renewed.body.access_token);

    expect(
      (await changePassword(renewed.body.access_token, 'Amber-Falcon-81', 'Quiet-Heron-Lantern-2026')).status,
    ).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token: renewed.body.access_token })).body.mustChangePassword).toBe(
      false,
    );
    expect((await api.call('GET', '/api/system/admin', { token: renewed.body.access_token })).status).toBe(200);
  });

  it('holds back an account an administrator created, until its user signs out or changes the password', async () => {
    const created = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName: 'newbie', displayName: 'Newbie', password: 'Amber-Falcon-81' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.mustChangePassword).toBe(true);
    const token = (await api.tokens('demo', 'newbie', 'Amber-Falcon-81')).access;
    await expectHeldBack(token);
    expect((await api.call('POST', '/api/auth/logout', { token })).status).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token })).status).toBe(401);
  });

  it('does not hold back accounts whose password is their own: the demo accounts and one created with mustChangePassword false', async () => {
    expect((await api.call('GET', '/api/system/admin', { token: admin })).status).toBe(200);
    const viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
    expect((await api.call('GET', '/api/auth/menus', { token: viewer })).status).toBe(200);
    const created = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName: 'own', displayName: 'Own', password: 'Amber-Falcon-81', mustChangePassword: false },
    });
    expect(created.body.mustChangePassword).toBe(false);
    const token = (await api.tokens('demo', 'own', 'Amber-Falcon-81')).access;
    expect((await api.call('GET', '/api/auth/menus', { token })).status).toBe(200);
  });

  it('names the initial password, not a new one, when a tenant is created with a weak one', async () => {
    const pkg = await api.db
      .selectFrom('tenant_package')
      .select('id')
      .where('name', '=', '标准套餐')
      .executeTakeFirstOrThrow();
    const res = await api.call('POST', '/api/system/tenant', {
      token: platform,
      body: {
        code: 'delta',
        name: 'Delta',
        packageId: pkg.id,
        maxAccounts: 5,
        adminUserName: 'boss',
        adminPassword: 'short',
        adminDisplayName: 'Boss',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'auth.passwordPolicy',
      fields: [{ field: 'adminPassword', message: expect.stringMatching(/^密码至少 8 位/) }],
    });
    expect(await api.db.selectFrom('tenant').select('id').where('code', '=', 'delta').execute()).toEqual([]);
  });
});
