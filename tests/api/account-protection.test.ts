import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi, testClock } from './helpers';

const en = { 'accept-language': 'en-US' };

describe.each(engines())('account protection on $name', (engine) => {
  const clock = testClock();
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now, tokenRateLimit: { windowMs: 60_000, max: 1000 } } });
    await api.addTenant({
      code: 'guard',
      name: '防护医院',
      users: [
        { username: 'carol', password: 'Quiet-Otter-42', displayName: 'Carol', roleCode: 'viewer' },
        { username: 'dave', password: 'Quiet-Otter-42', displayName: 'Dave', roleCode: 'viewer' },
        { username: 'erin', password: 'Quiet-Otter-42', displayName: 'Erin', roleCode: 'viewer' },
      ],
    });
  });
  afterAll(() => api?.close());

  const refresh = (token: string) =>
    api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: token, client_id: 'console' },
    });

  it('counts wrong current passwords of a password change towards the lock-out, like sign-in', async () => {
    const { access } = await api.tokens('guard', 'carol', 'Quiet-Otter-42');
    const change = (currentPassword: string) =>
      api.call('POST', '/api/auth/password', {
        token: access,
        body: { currentPassword, newPassword: 'Amber-Falcon-81' },
      });
    const codes = [];
    for (let i = 1; i < 5; i++) codes.push((await change('wrong')).body.code);
    expect(codes).toEqual([
      'auth.badCredentials',
      'auth.badCredentials',
      'auth.badCredentialsAttemptsLeft',
      'auth.badCredentialsAttemptsLeft',
    ]);
    const fifth = await change('wrong');
    expect(fifth).toMatchObject({ status: 423, body: { code: 'auth.accountLocked' } });
    expect((await change('Quiet-Otter-42')).status).toBe(423);
    expect((await api.signIn('guard', 'carol', 'Quiet-Otter-42')).status).toBe(423);
    clock.advance(16 * 60_000);
    expect((await change('Quiet-Otter-42')).status).toBe(204);
    expect((await api.signIn('guard', 'carol', 'Amber-Falcon-81')).status).toBe(200);
  });

  it('answers an unknown user name exactly as an account being locked out, and unlocks it after the same time', async () => {
    const real: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      const a = await api.signIn('guard', 'dave', 'wrong', en);
      const b = await api.signIn('guard', 'nobody-here', 'wrong', en);
      real.push([a.status, a.body]);
      unknown.push([b.status, b.body]);
    }
    expect(unknown).toEqual(real);
    expect(real.map((r) => (r as [number])[0])).toEqual([400, 400, 400, 400, 423, 423, 423]);
    clock.advance(16 * 60_000);
    const [a, b] = [
      await api.signIn('guard', 'dave', 'wrong', en),
      await api.signIn('guard', 'nobody-here', 'wrong', en),
    ];
    expect([b.status, b.body]).toEqual([a.status, a.body]);
    expect(b.status).toBe(400);
  });

  it('refuses weak passwords and any containing the user name, with the minimum score from settings', async () => {
    const { access } = await api.tokens('guard', 'erin', 'Quiet-Otter-42');
    const change = (newPassword: string) =>
      api.call('POST', '/api/auth/password', {
        token: access,
        body: { currentPassword: 'Quiet-Otter-42', newPassword },
        headers: en,
      });
    const weak = await change('password2024');
    expect(weak).toMatchObject({
      status: 400,
      body: { code: 'auth.passwordTooWeak', fields: [{ field: 'newPassword' }] },
    });
    expect(weak.body.message).toContain('3');
    const named = await change('Erin-Harbor-Lime-73');
    expect(named).toMatchObject({ status: 400, body: { code: 'auth.passwordContainsUsername' } });

    const demoAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
    const create = await api.call('POST', '/api/system/admin', {
      token: demoAdmin,
      body: { userName: 'frank', displayName: 'Frank', password: 'frank-Quiet-Otter-42' },
    });
    expect(create).toMatchObject({
      status: 400,
      body: { code: 'auth.passwordContainsUsername', fields: [{ field: 'password' }] },
    });

    const tenant = await api.db.selectFrom('tenant').select('id').where('code', '=', 'guard').executeTakeFirstOrThrow();
    await sql`INSERT INTO system_setting (tenant_id, key, category, name, value, value_type)
      VALUES (${tenant.id}, 'security.password.minScore', 'security', 'x', '1', 'number')`.execute(api.db);
    expect((await change('password2024')).status).toBe(204);
  });

  it('answers a refresh token presented again within the grace period with the same pair; after it, revokes the session', async () => {
    const first = await api.tokens('demo', 'admin', 'admin123');
    const [one, two] = await Promise.all([refresh(first.refresh), refresh(first.refresh)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.body).toEqual(one.body);
    clock.advance(9_000);
    expect((await refresh(first.refresh)).body).toEqual(one.body);
    expect((await api.call('GET', '/api/auth/me', { token: one.body.access_token })).status).toBe(200);

    clock.advance(2_000);
    expect((await refresh(first.refresh)).body.code).toBe('auth.invalidGrant');
    expect((await api.call('GET', '/api/auth/me', { token: one.body.access_token })).status).toBe(401);
    expect((await refresh(one.body.refresh_token)).status).toBe(400);
  });

  it('keeps no readable successor: the stored pair opens only with the refresh token it replaced', async () => {
    const first = await api.tokens('demo', 'admin', 'admin123');
    const next = await refresh(first.refresh);
    const rows = await api.db
      .selectFrom('auth_token')
      .select('successor_sealed')
      .where('successor_sealed', 'is not', null)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.successor_sealed).not.toContain(next.body.access_token);
      expect(row.successor_sealed).not.toContain(next.body.refresh_token);
    }
  });

  it('sends Cache-Control: no-store on authenticated answers, errors included', async () => {
    const { access } = await api.tokens('demo', 'admin', 'admin123');
    for (const [path, token] of [
      ['/api/auth/me', access],
      ['/api/system/admin', access],
      ['/api/dictionary/catalog/syscodes', access],
      ['/api/auth/me', undefined],
      ['/api/system/admin/999999', access],
    ] as const) {
      const res = await api.call('GET', path, { token });
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

describe.each(engines())('rate limiting on $name', (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi(engine, { demo: false, config: { tokenRateLimit: { windowMs: 60_000, max: 2 } } });
  });
  afterAll(() => api?.close());

  it('sends Retry-After with the seconds left in the window on 429', async () => {
    const attempt = () =>
      api.call('POST', '/api/auth/token', {
        body: { grant_type: 'password', tenant: 'x', username: 'y', password: 'z', client_id: 'console' },
      });
    await attempt();
    await attempt();
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('auth.tooManyRequests');
    const seconds = Number(limited.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
  });
});
