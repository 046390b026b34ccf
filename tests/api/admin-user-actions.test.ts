import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

describe.each(engines())('admin-user actions on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let adminId: string;

  const create = async (userName: string) => {
    const res = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName, displayName: userName, password: 'Quiet-Otter-42' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const me = (token: string) => api.call('GET', '/api/auth/me', { token });
  const refresh = (refreshToken: string) =>
    api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'console' },
    });

  beforeAll(async () => {
    api = await startApi(engine);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    adminId = await api.userId('demo', 'admin');
  });
  afterAll(() => api?.close());

  it('force-logout makes every token of the user 401 at once and logs a forced sign-out', async () => {
    const id = await create('anna');
    const first = await api.tokens('demo', 'anna', 'Quiet-Otter-42');
    const second = await api.tokens('demo', 'anna', 'Quiet-Otter-42');
    expect((await me(first.access)).status).toBe(200);
    const res = await api.call('POST', `/api/system/admin/${id}/force-logout`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { revokedSessions: 2 } });
    expect((await me(first.access)).status).toBe(401);
    expect((await me(second.access)).status).toBe(401);
    expect((await refresh(first.refresh)).status).toBe(400);
    expect((await me(admin)).status).toBe(200);
    expect((await api.tokens('demo', 'anna', 'Quiet-Otter-42')).access).toBeTruthy();

    const logs = await api.call('GET', `/api/system/login-log?userId=${id}`, { token: admin });
    expect(logs.status).toBe(200);
    expect(logs.body.data[0]).toMatchObject({ logType: 'login_password', result: 'success', reason: null });
    expect(logs.body.data.map((l: { logType: string }) => l.logType)).toContain('logout_forced');
    const audit = await api.call('GET', `/api/system/audit-log?resourceType=admin_user&resourceId=${id}`, {
      token: admin,
    });
    expect(audit.body.data[0]).toMatchObject({ action: 'system:admin:force-logout' });
  });

  it('reset-password returns a temporary password once, which must be changed; the old one and old tokens stop working', async () => {
    const id = await create('bruno');
    const old = await api.tokens('demo', 'bruno', 'Quiet-Otter-42');
    const res = await api.call('POST', `/api/system/admin/${id}/reset-password`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const temporary = res.body.temporaryPassword as string;
    expect(temporary).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{12,}$/);
    expect((await me(old.access)).status).toBe(401);
    expect((await api.signIn('demo', 'bruno', 'Quiet-Otter-42')).status).toBe(400);
    expect((await api.signIn('demo', 'bruno', temporary)).status).toBe(200);
    const user = (await api.call('GET', `/api/system/admin/${id}`, { token: admin })).body;
    expect(user.mustChangePassword).toBe(true);
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'system:admin:reset-password')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(temporary);
    expect((await api.call('POST', '/api/system/admin/999999/reset-password', { token: admin })).status).toBe(404);
  });

  it('disable stops sign-in, refresh and current tokens; enable restores; never oneself', async () => {
    const id = await create('clara');
    const tokens = await api.tokens('demo', 'clara', 'Quiet-Otter-42');
    const disabled = await api.call('POST', `/api/system/admin/${id}/disable`, { token: admin });
    expect(disabled).toMatchObject({ status: 200, body: { status: 'disabled', version: 1 } });
    expect((await me(tokens.access)).status).toBe(401);
    expect((await refresh(tokens.refresh)).status).toBe(400);
    const signIn = await api.signIn('demo', 'clara', 'Quiet-Otter-42');
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe('auth.userDisabled');

    expect((await api.call('POST', `/api/system/admin/${id}/enable`, { token: admin })).body.status).toBe('enabled');
    expect((await api.signIn('demo', 'clara', 'Quiet-Otter-42')).status).toBe(200);

    const self = await api.call('POST', `/api/system/admin/${adminId}/disable`, { token: admin });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('admin.selfOperation');
    const audit = await api.call('GET', `/api/system/audit-log?resourceType=admin_user&resourceId=${id}`, {
      token: admin,
    });
    expect(audit.body.data.slice(0, 2)).toMatchObject([
      { action: 'system:admin:update-status', summary: 'clara · status · enable', after: { status: 'enabled' } },
      { action: 'system:admin:update-status', summary: 'clara · status · disable', before: { status: 'enabled' } },
    ]);
  });

  it('unlock lifts a lock-out', async () => {
    const id = await create('dmitri');
    for (let i = 0; i < 5; i++) await api.signIn('demo', 'dmitri', 'wrong-password1');
    const locked = await api.signIn('demo', 'dmitri', 'Quiet-Otter-42');
    expect(locked.status).toBe(423);
    const res = await api.call('POST', `/api/system/admin/${id}/unlock`, { token: admin });
    expect(res).toMatchObject({ status: 200, body: { status: 'enabled', lockedUntil: null } });
    expect((await api.signIn('demo', 'dmitri', 'Quiet-Otter-42')).status).toBe(200);

    await api.db.updateTable('admin_user').set({ status: 'locked' }).where('id', '=', id).execute();
    expect((await api.signIn('demo', 'dmitri', 'Quiet-Otter-42')).status).toBe(423);
    await api.call('POST', `/api/system/admin/${id}/unlock`, { token: admin });
    expect((await api.signIn('demo', 'dmitri', 'Quiet-Otter-42')).status).toBe(200);
  });

  it('refuses a new account past the tenant’s quota with tenant.accountQuotaExceeded', async () => {
    const demo = await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    const count = (await api.call('GET', '/api/system/admin', { token: admin })).body.total as number;
    await api.db
      .updateTable('tenant')
      .set({ max_accounts: count + 1 })
      .where('id', '=', demo.id)
      .execute();
    await create('erik');
    const refused = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName: 'fiona', displayName: 'Fiona', password: 'Quiet-Otter-42' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'tenant.accountQuotaExceeded',
      message: `The tenant has reached its account quota (${count + 1} accounts)`,
    });
    const erik = (await api.call('GET', '/api/system/admin?keyword=erik', { token: admin })).body.data[0];
    expect((await api.call('DELETE', `/api/system/admin/${erik.id}`, { token: admin })).status).toBe(204);
    expect(
      (
        await api.call('POST', '/api/system/admin', {
          token: admin,
          body: { userName: 'fiona', displayName: 'Fiona', password: 'Quiet-Otter-42' },
        })
      ).status,
    ).toBe(201);
  });

  it('answers login logs with result and reason, filtered and paged', async () => {
    await api.signIn('demo', 'admin', 'bad-password');
    const res = await api.call('GET', `/api/system/login-log?userId=${adminId}&pageSize=1`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, pageSize: 1, current: 1 });
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        userId: adminId,
        username: 'admin',
        result: 'failure',
        reason: 'bad_credentials',
        createdAt: expect.any(String),
      }),
    ]);
    expect((await api.call('GET', '/api/system/login-log?userId=x', { token: admin })).status).toBe(400);
  });
});
