import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi, testClock } from './helpers';

describe.each(engines())('lockout and rate limiting on $name', (engine) => {
  const clock = testClock();
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    await api.addTenant({
      code: 'lock',
      name: '锁定医院',
      users: [
        { username: 'alice', password: 'alice123', displayName: 'Alice', roleCode: 'viewer' },
        { username: 'bob', password: 'bob12345', displayName: 'Bob', roleCode: 'viewer' },
      ],
    });
  });
  afterAll(() => api?.close());

  it('locks the account after the configured number of failures, then unlocks after the duration', async () => {
    for (let i = 1; i < 3; i++) {
      const res = await api.signIn('lock', 'alice', 'wrong');
      expect(res.status, `attempt ${i}`).toBe(400);
      expect(res.body.code).toBe('auth.badCredentials');
    }
    // the last two attempts before the lock say how many remain, and for how long the lock would hold
    for (const left of [2, 1]) {
      const res = await api.signIn('lock', 'alice', 'wrong', { 'accept-language': 'en-US' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'auth.badCredentialsAttemptsLeft', attemptsLeft: left });
      expect(res.body.message).toBe(
        `Wrong tenant, user name or password; ${left} attempt(s) left before the account is locked for 15 minutes`,
      );
    }
    const fifth = await api.signIn('lock', 'alice', 'wrong');
    expect(fifth.status).toBe(423);
    expect(fifth.body.code).toBe('auth.accountLocked');
    expect(fifth.body.message).toContain('15');

    const correctButLocked = await api.signIn('lock', 'alice', 'alice123');
    expect(correctButLocked.status).toBe(423);

    clock.advance(14 * 60_000);
    expect((await api.signIn('lock', 'alice', 'alice123')).status).toBe(423);

    clock.advance(2 * 60_000);
    const unlocked = await api.signIn('lock', 'alice', 'alice123');
    expect(unlocked.status).toBe(200);
    const row = await api.db
      .selectFrom('admin_user')
      .select(['failed_login_count', 'locked_until'])
      .where('id', '=', await api.userId('lock', 'alice'))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_login_count: 0, locked_until: null });
  });

  it('takes the threshold and duration from the tenant’s settings', async () => {
    const tenant = await api.db.selectFrom('tenant').select('id').where('code', '=', 'lock').executeTakeFirstOrThrow();
    for (const [key, value] of [
      ['security.lockout.maxAttempts', 2],
      ['security.lockout.durationMinutes', 1],
    ] as const) {
      await sql`INSERT INTO system_setting (tenant_id, key, category, name, value, value_type)
        VALUES (${tenant.id}, ${key}, 'security', ${key}, ${JSON.stringify(value)}, 'number')`.execute(api.db);
    }
    const first = await api.signIn('lock', 'bob', 'wrong');
    expect(first.body).toMatchObject({ code: 'auth.badCredentialsAttemptsLeft', attemptsLeft: 1 });
    expect(first.body.message).toBe('租户、用户名或密码错误，还可尝试 1 次，再错将锁定账号 1 分钟');
    const second = await api.signIn('lock', 'bob', 'wrong');
    expect(second.status).toBe(423);
    expect(second.body.message).toContain('1');
    clock.advance(61_000);
    expect((await api.signIn('lock', 'bob', 'bob12345')).status).toBe(200);

    // Another tenant keeps the platform default of 5.
    expect((await api.signIn('demo', 'viewer', 'wrong')).status).toBe(400);
    expect((await api.signIn('demo', 'viewer', 'wrong')).status).toBe(400);
    expect((await api.signIn('demo', 'viewer', 'viewer123')).status).toBe(200);
  });

  it('expires access tokens after their lifetime', async () => {
    const t = await api.tokens('demo', 'admin', 'admin123');
    expect((await api.call('GET', '/api/auth/me', { token: t.access })).status).toBe(200);
    clock.advance(1801 * 1000);
    const res = await api.call('GET', '/api/auth/me', { token: t.access });
    expect(res.status).toBe(401);
    const refreshed = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: t.refresh, client_id: 'console' },
    });
    expect(refreshed.status).toBe(200);
  });
});
