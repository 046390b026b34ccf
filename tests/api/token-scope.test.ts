import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

describe.each(engines())('scopes at the token endpoint on $name', (engine) => {
  let api: TestApi;
  const client = { client_id: 'lms', client_secret: '' };
  const password = (scope?: string) =>
    api.call('POST', '/api/auth/token', {
      body: {
        grant_type: 'password',
        tenant: 'demo',
        username: 'admin',
        password: 'admin123',
        ...client,
        ...(scope === undefined ? {} : { scope }),
      },
    });
  const refresh = (token: string, scope?: string) =>
    api.call('POST', '/api/auth/token', {
      body: { grant_type: 'refresh_token', refresh_token: token, ...client, ...(scope === undefined ? {} : { scope }) },
    });

  beforeAll(async () => {
    api = await startApi(engine);
    const platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    const created = await api.call('POST', '/api/system/client', {
      token: platform,
      body: {
        clientId: 'lms',
        name: 'Hospital LMS',
        clientType: 'confidential',
        grantTypes: ['password', 'refresh_token'],
        scopes: ['courses.read', 'exams.read'],
      },
    });
    expect(created.status).toBe(201);
    client.client_secret = created.body.clientSecret;
  });
  afterAll(() => api?.close());

  it('grants every scope of the client when none is asked for, and what is asked for when the client holds it', async () => {
    expect((await password()).body.scope).toBe('courses.read exams.read');
    expect((await password('exams.read')).body).toMatchObject({ scope: 'exams.read', token_type: 'bearer' });
  });

  it('refuses a scope the client does not hold, naming it, and opens no session', async () => {
    const before = await api.db
      .selectFrom('auth_session')
      .select(api.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const answer = await password('exams.read users.write');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'auth.invalidScope', fields: [{ field: 'scope' }] });
    expect(answer.body.message).toContain('users.write');
    const after = await api.db
      .selectFrom('auth_session')
      .select(api.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('keeps the scope over a refresh, lets a refresh narrow it, and never widen it', async () => {
    const first = (await password('courses.read exams.read')).body;
    const kept = await refresh(first.refresh_token);
    expect(kept.body.scope).toBe('courses.read exams.read');
    const narrowed = await refresh(kept.body.refresh_token, 'courses.read');
    expect(narrowed.body.scope).toBe('courses.read');
    const widened = await refresh(narrowed.body.refresh_token, 'courses.read exams.read');
    expect(widened).toMatchObject({ status: 400, body: { code: 'auth.invalidScope' } });
    expect((await refresh(narrowed.body.refresh_token)).body.scope).toBe('courses.read');
  });

  it('gives the console client, which holds no scopes, an empty scope', async () => {
    const answer = await api.signIn('demo', 'admin', 'admin123');
    expect(answer.body.scope).toBe('');
  });
});
