import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

/** What a client may write into X-Forwarded-For: any address it likes, a new one each time. */
const forged = () => `${randomInt(1, 224)}.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
/** A different unknown user name each time, so that no account's lockout (423) answers before the limit. */
const unknownUser = () => `nobody${randomInt(1e9)}`;
/** Behind one proxy of ours: whatever the client wrote, then the address the proxy was reached from. */
const through = (client: string, written = forged()) => ({ 'x-forwarded-for': `${written}, ${client}` });

describe.each(engines())('sign-in rate limit behind one trusted proxy on $name', (engine) => {
  let api: TestApi;
  const wrong = (headers: Record<string, string>) => api.signIn('demo', unknownUser(), 'wrong', headers);

  beforeAll(async () => {
    api = await startApi(engine, { config: { trustProxy: 1, tokenRateLimit: { windowMs: 60_000, max: 3 } } });
  });
  afterAll(() => api?.close());

  it('answers 429 auth.tooManyRequests past the limit for that address only', async () => {
    for (let i = 0; i < 3; i++) expect((await wrong(through('10.0.0.1'))).status).toBe(400);
    const limited = await api.signIn('demo', 'admin', 'admin123', through('10.0.0.1'));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'auth.tooManyRequests' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(50);
    const malformed = await api.call('POST', '/api/auth/token', { rawBody: '{', headers: through('10.0.0.1') });
    expect(malformed.status).toBe(429);

    expect((await api.signIn('demo', 'admin', 'admin123', through('10.0.0.2'))).status).toBe(200);
  });

  it('counts by the address our proxy saw, whatever the client wrote into X-Forwarded-For', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 30; i++) answers.push((await wrong(through('10.0.0.3'))).status);
    expect(answers.filter((s) => s === 400)).toHaveLength(3);
    expect(answers.filter((s) => s === 429)).toHaveLength(27);
    // a client writing the proxy's own form (several entries) is no better off
    const long = await wrong({ 'x-forwarded-for': `${forged()}, ${forged()}, 10.0.0.3` });
    expect(long.status).toBe(429);
  });

  it("records the address our proxy saw in the sign-in log, not the client's own entry", async () => {
    expect((await api.signIn('demo', 'admin', 'not-the-password', through('10.0.0.4', '203.0.113.9'))).status).toBe(
      400,
    );
    const admin = (await api.signIn('demo', 'admin', 'admin123', through('10.0.0.5'))).body.access_token;
    const adminId = await api.userId('demo', 'admin');
    const logs = await api.call('GET', `/api/system/login-log?userId=${adminId}&pageSize=2`, { token: admin });
    expect(logs.status).toBe(200);
    expect(logs.body.data.map((l: { ip: string; result: string }) => [l.result, l.ip])).toEqual([
      ['success', '10.0.0.5'],
      ['failure', '10.0.0.4'],
    ]);
  });
});

describe.each(engines())('sign-in rate limit windows and proxies on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { config: { trustProxy: 2, tokenRateLimit: { windowMs: 4_000, max: 2 } } });
  });
  afterAll(() => api?.close());

  it('takes the entry as many from the right as there are trusted proxies, and lets the address in again once its window ends', async () => {
    const twoProxies = { 'x-forwarded-for': `${forged()}, 10.0.1.1, 172.16.0.1` };
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await api.signIn('demo', unknownUser(), 'wrong', twoProxies)).status);
    const limited = await api.signIn('demo', unknownUser(), 'wrong', twoProxies);
    expect([...statuses, limited.status]).toEqual([400, 400, 429]);
    // another client behind the same first proxy
    expect(
      (await api.signIn('demo', unknownUser(), 'wrong', { 'x-forwarded-for': '10.0.1.2, 172.16.0.1' })).status,
    ).toBe(400);
    // fewer entries than proxies: the leftmost one, here the address already limited
    expect((await api.signIn('demo', unknownUser(), 'wrong', { 'x-forwarded-for': '10.0.1.1' })).status).toBe(429);
    await sleep(Number(limited.headers.get('retry-after')) * 1000 + 100);
    expect((await api.signIn('demo', unknownUser(), 'wrong', twoProxies)).status).toBe(400);
  });
});

// PostgreSQL only: the embedded database has one process, which cannot be shared by two instances.
describe.each(engines().filter((e) => e.name === 'postgres'))(
  'sign-in rate limit across instances on $name',
  (engine) => {
    let a: TestApi;
    let b: TestApi;

    beforeAll(async () => {
      const config = { trustProxy: 1, tokenRateLimit: { windowMs: 60_000, max: 4 } };
      a = await startApi(engine, { config });
      b = await startApi(engine, { config, database: a.database });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('adds up the attempts made through every instance on one database', async () => {
      const statuses = [];
      for (const api of [a, b, a, b, a, b])
        statuses.push((await api.signIn('demo', unknownUser(), 'wrong', through('10.0.2.1'))).status);
      expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    });
  },
);
