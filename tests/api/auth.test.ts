import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, secondTenant, startApi, type TestApi, testClock } from './helpers';

describe.each(engines())('sign-in and sessions on $name', (engine) => {
  const clock = testClock();
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    await api.addTenant(secondTenant);
    await api.addTenant({
      code: 'closed',
      name: '停用医院',
      status: 'disabled',
      users: [{ username: 'admin', password: 'admin123', displayName: 'x', roleCode: 'tenant_admin' }],
    });
    await api.addTenant({
      code: 'lapsed',
      name: '过期医院',
      expiresAt: new Date(Date.now() - 60_000),
      users: [{ username: 'admin', password: 'admin123', displayName: 'x', roleCode: 'tenant_admin' }],
    });
  });
  afterAll(() => api?.close());

  const loginLog = (username: string) =>
    api.db.selectFrom('login_log').selectAll().where('username', '=', username).orderBy('id', 'desc').execute();

  it('signs in with the password grant and answers the OAuth2 token shape', async () => {
    const res = await api.signIn('demo', 'admin', 'admin123', { 'user-agent': 'vitest-agent' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 1800, refresh_expires_in: 2_592_000 });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.refresh_token).not.toBe(res.body.access_token);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const [latest] = await loginLog('admin');
    expect(latest).toMatchObject({ result: 'success', log_type: 'login_password', user_agent: 'vitest-agent' });
  });

  it('stores only hashes of the tokens', async () => {
    const { access, refresh } = await api.tokens('demo', 'admin', 'admin123');
    const rows = await api.db.selectFrom('auth_token').select('token_hash').execute();
    const stored = rows.map((r) => r.token_hash.trim());
    expect(stored).not.toContain(access);
    expect(stored).not.toContain(refresh);
    expect(stored.every((h) => /^[0-9a-f]{64}$/.test(h))).toBe(true);
  });

  it('accepts a form-encoded token request', async () => {
    const res = await api.call('POST', '/api/auth/token', {
      rawBody: 'grant_type=password&tenant=demo&username=admin&password=admin123&client_id=console',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('bearer');
  });

  it.each([
    ['a wrong password', 'demo', 'admin', 'wrong-password', 'bad_credentials'],
    ['an unknown user', 'demo', 'nobody', 'admin123', 'bad_credentials'],
    ['an unknown tenant', 'no-such-tenant', 'admin', 'admin123', 'unknown_tenant'],
    ['a user of another tenant', 'demo', 'nurse', 'nurse123', 'bad_credentials'],
  ])('refuses %s with 400 auth.badCredentials and logs it', async (_case, tenant, username, password, result) => {
    const res = await api.signIn(tenant, username, password);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'auth.badCredentials' });
    expect(res.body.access_token).toBeUndefined();
    const [latest] = await loginLog(username);
    expect(latest?.result).toBe(result);
  });

  it('refuses an unknown client', async () => {
    const res = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'password', tenant: 'demo', username: 'admin', password: 'admin123', client_id: 'nope' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('auth.invalidClient');
  });

  it('refuses a disabled tenant (403 tenant.disabled) and an expired one (403 tenant.expired)', async () => {
    const disabled = await api.signIn('closed', 'admin', 'admin123');
    expect(disabled.status).toBe(403);
    expect(disabled.body.code).toBe('tenant.disabled');
    const expired = await api.signIn('lapsed', 'admin', 'admin123');
    expect(expired.status).toBe(403);
    expect(expired.body.code).toBe('tenant.expired');
  });

  it('refuses a disabled user with 403 auth.userDisabled', async () => {
    await api.db
      .updateTable('admin_user')
      .set({ status: 'disabled' })
      .where('id', '=', await api.userId('demo2', 'nurse'))
      .execute();
    const res = await api.signIn('demo2', 'nurse', 'nurse123');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('auth.userDisabled');
    const [latest] = await loginLog('nurse');
    expect(latest?.result).toBe('user_disabled');
  });

  it('rotates refresh tokens: the new pair works, the old refresh token is refused after the grace period', async () => {
    const first = await api.tokens('demo', 'admin', 'admin123');
    const refresh = (token: string) =>
      api.call('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: token, client_id: 'console' },
      });

    const rotated = await refresh(first.refresh);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first.refresh);
    expect((await api.call('GET', '/api/auth/me', { token: rotated.body.access_token })).status).toBe(200);

    clock.advance(11_000);
    const reused = await refresh(first.refresh);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('auth.invalidGrant');
  });

  it('treats reuse of a refresh token after the grace period as theft: every token of the session is revoked', async () => {
    const first = await api.tokens('demo', 'admin', 'admin123');
    const refresh = (token: string) =>
      api.call('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: token, client_id: 'console' },
      });
    const second = await refresh(first.refresh);
    expect(second.status).toBe(200);

    clock.advance(11_000);
    expect((await refresh(first.refresh)).status).toBe(400);

    expect((await api.call('GET', '/api/auth/me', { token: second.body.access_token })).status).toBe(401);
    expect((await api.call('GET', '/api/auth/me', { token: first.access })).status).toBe(401);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(400);
    expect(third.body.code).toBe('auth.invalidGrant');
  });

  it('refuses to refresh for a tenant that was disabled meanwhile', async () => {
    const t = await api.tokens('demo2', 'admin', 'admin123');
    await api.db.updateTable('tenant').set({ status: 'disabled' }).where('code', '=', 'demo2').execute();
    try {
      const res = await api.call('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: t.refresh, client_id: 'console' },
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('tenant.disabled');
    } finally {
      await api.db.updateTable('tenant').set({ status: 'enabled' }).where('code', '=', 'demo2').execute();
    }
  });

  it('refuses an unknown refresh token and an access token used as refresh token', async () => {
    const t = await api.tokens('demo', 'admin', 'admin123');
    for (const token of ['x'.repeat(43), t.access]) {
      const res = await api.call('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: token, client_id: 'console' },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('auth.invalidGrant');
    }
  });

  it('logout revokes the access token and the refresh token of the session', async () => {
    const t = await api.tokens('demo', 'admin', 'admin123');
    expect((await api.call('GET', '/api/auth/me', { token: t.access })).status).toBe(200);
    const out = await api.call('POST', '/api/auth/logout', { token: t.access });
    expect(out.status).toBe(204);
    const me = await api.call('GET', '/api/auth/me', { token: t.access });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('common.unauthorized');
    const refreshed = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: t.refresh, client_id: 'console' },
    });
    expect(refreshed.status).toBe(400);
  });

  it('GET /api/auth/me describes the user, tenant, roles and permission codes', async () => {
    const t = await api.tokens('demo', 'admin', 'admin123');
    const me = await api.call('GET', '/api/auth/me', { token: t.access });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      userName: 'admin',
      displayName: '管理员',
      tenant: { code: 'demo' },
      roles: [{ code: 'tenant_admin' }],
      clientType: 'console',
      orgId: null,
    });
    expect(typeof me.body.userId).toBe('string');
    expect(typeof me.body.tenant.id).toBe('string');
    expect(me.body.permissions).toContain('dashboard:workspace:view');
    expect(me.body.permissions).toContain('system:admin:list');
    expect(me.body.permissions).not.toContain('system:tenant:list');

    const viewer = await api.tokens('demo', 'viewer', 'viewer123');
    const vme = await api.call('GET', '/api/auth/me', { token: viewer.access });
    expect(vme.body.permissions).toEqual(['dashboard:workspace:view']);
  });

  it('PUT /api/auth/me updates the profile and bumps the version; a stale version is 409 and changes nothing', async () => {
    const t = await api.tokens('demo', 'viewer', 'viewer123');
    const before = (await api.call('GET', '/api/auth/me', { token: t.access })).body;
    const ok = await api.call('PUT', '/api/auth/me', {
      token: t.access,
      body: { displayName: '新名字', email: 'viewer@example.org', version: before.version },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ displayName: '新名字', email: 'viewer@example.org', version: before.version + 1 });

    const stale = await api.call('PUT', '/api/auth/me', {
      token: t.access,
      body: { displayName: '旧数据覆盖', version: before.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('common.versionConflict');
    const row = await api.db
      .selectFrom('admin_user')
      .select(['display_name', 'version'])
      .where('id', '=', before.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ display_name: '新名字', version: before.version + 1 });
  });

  it('POST /api/auth/password checks the current password and the policy, then signs out other sessions', async () => {
    await api.addTenant({
      code: 'pw',
      name: '改密医院',
      users: [{ username: 'u', password: 'first123', displayName: 'U', roleCode: 'viewer' }],
    });
    const mine = await api.tokens('pw', 'u', 'first123');
    const other = await api.tokens('pw', 'u', 'first123');

    const wrong = await api.call('POST', '/api/auth/password', {
      token: mine.access,
      body: { currentPassword: 'nope', newPassword: 'Second-Maple-58' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('auth.badCredentials');
    expect(wrong.body.fields[0].field).toBe('currentPassword');

    const weak = await api.call('POST', '/api/auth/password', {
      token: mine.access,
      body: { currentPassword: 'first123', newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('auth.passwordPolicy');
    expect(weak.body.message).toContain('8');

    const changed = await api.call('POST', '/api/auth/password', {
      token: mine.access,
      body: { currentPassword: 'first123', newPassword: 'Second-Maple-58' },
    });
    expect(changed.status).toBe(204);
    expect((await api.call('GET', '/api/auth/me', { token: mine.access })).status).toBe(200);
    expect((await api.call('GET', '/api/auth/me', { token: other.access })).status).toBe(401);
    expect((await api.signIn('pw', 'u', 'first123')).status).toBe(400);
    expect((await api.signIn('pw', 'u', 'Second-Maple-58')).status).toBe(200);
  });
});
