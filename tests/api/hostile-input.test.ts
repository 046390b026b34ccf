import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startApi, type TestApi } from './helpers';

const en = { 'accept-language': 'en-US' };
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

describe.each(engines())('hostile input answers 4xx and changes nothing on $name', (engine) => {
  let api: TestApi;
  let demo: string;
  let platform: string;

  beforeAll(async () => {
    api = await startApi(engine);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  const me = () => api.call('GET', '/api/auth/me', { token: demo });
  const signIn = (fields: Record<string, string>) =>
    api.call('POST', '/api/auth/token', {
      body: {
        grant_type: 'password',
        tenant: 'demo',
        username: 'admin',
        password: 'admin123',
        client_id: 'console',
        ...fields,
      },
    });

  it('refuses a NUL byte in the sign-in fields with 400 naming the field, before anyone is signed in', async () => {
    const attempts = () =>
      api.db.selectFrom('login_log').select(api.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const before = await attempts();
    for (const field of ['username', 'tenant', 'client_id', 'password']) {
      const res = await signIn({ [field]: 'ad\u0000min' });
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ family: 'CLIENT_ERROR', code: 'common.validation' });
      expect(fieldsOf(res.body), field).toContain(field);
    }
    expect(await attempts()).toEqual(before);
  });

  it('refuses NUL bytes, unpaired surrogates and NUL in object keys in bodies, query strings and paths', async () => {
    const before = (await me()).body;
    for (const displayName of ['x\u0000y', 'x\ud800y', '\udc00']) {
      const res = await api.call('PUT', '/api/auth/me', {
        token: demo,
        body: { displayName, version: before.version },
      });
      expect(res.status, JSON.stringify(displayName)).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['displayName']);
    }
    expect((await me()).body).toEqual(before);

    const key = await api.call('PUT', '/api/system/settings/upload.allowedExtensions', {
      token: demo,
      body: { value: { 'a\u0000': 1 } },
    });
    expect(key.status).toBe(400);
    expect(fieldsOf(key.body)).toEqual(['value.a\u0000']);

    const query = await api.call('GET', '/api/system/admin?userName=ad%00min', { token: demo });
    expect(query.status).toBe(400);
    expect(fieldsOf(query.body)).toEqual(['userName']);

    const path = await api.call('PUT', '/api/system/settings/branding.name%00', { token: demo, body: { value: 'x' } });
    expect(path.status).toBe(400);
  });

  it('refuses a body over the limit with 413 saying the limit, in the request’s language (issue 32)', async () => {
    const before = (await me()).body;
    const body = { displayName: 'x', remark: 'y'.repeat(1024 * 1024), version: before.version };
    const zh = await api.call('PUT', '/api/auth/me', { token: demo, body });
    expect(zh.status).toBe(413);
    expect(zh.body).toMatchObject({ code: 'common.payloadTooLarge', message: '请求内容超过 1 MB 的上限' });
    const english = await api.call('PUT', '/api/auth/me', { token: demo, body, headers: en });
    expect(english.body.message).toBe('The request body is larger than the limit of 1 MB');
    expect((await me()).body).toEqual(before);
  });

  it('refuses integers beyond the int column and nesting deeper than 32 levels', async () => {
    const before = (await me()).body;
    const version = await api.call('PUT', '/api/auth/me', {
      token: demo,
      body: { displayName: 'x', version: 2 ** 31 },
    });
    expect(version.status).toBe(400);
    expect(fieldsOf(version.body)).toEqual(['version']);
    expect((await me()).body).toEqual(before);

    const industry = await api.call('POST', '/api/dictionary/industry', {
      token: platform,
      body: { code: '9999', name: 'x', wechatIndustryId: 2 ** 31 },
    });
    expect(industry.status).toBe(400);
    expect(fieldsOf(industry.body)).toEqual(['wechatIndustryId']);
    expect(await api.db.selectFrom('industry').select('id').where('code', '=', '9999').execute()).toEqual([]);

    const deep = `{"value":${'['.repeat(100_000)}"x"${']'.repeat(100_000)}}`;
    const nested = await api.call('PUT', '/api/system/settings/upload.allowedExtensions', {
      token: demo,
      rawBody: deep,
    });
    expect(nested.status).toBe(400);
    expect(nested.body.code).toBe('common.validation');
  });

  it('answers 400 auth.invalidClient for HTTP Basic credentials with a malformed percent-escape', async () => {
    for (const credentials of ['console:%E0%A4%A', '%zz:secret', 'console%:x']) {
      const res = await api.call('POST', '/api/auth/token', {
        body: { grant_type: 'password', tenant: 'demo', username: 'admin', password: 'admin123' },
        headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      });
      expect(res.status, credentials).toBe(400);
      expect(res.body.code).toBe('auth.invalidClient');
    }
  });

  it('says a value of the wrong type is of the wrong type, and a missing one is required, in the request’s language', async () => {
    const wrong = await api.call('PUT', '/api/auth/me', {
      token: demo,
      body: { displayName: 42, version: 0 },
      headers: en,
    });
    expect(wrong.body.fields).toEqual([{ field: 'displayName', message: 'expected text' }]);
    const wrongZh = await api.call('PUT', '/api/auth/me', { token: demo, body: { displayName: 42, version: 0 } });
    expect(wrongZh.body.fields).toEqual([{ field: 'displayName', message: '类型不正确，应为文本' }]);
    const nulled = await api.call('PUT', '/api/auth/me', {
      token: demo,
      body: { displayName: null, version: 0 },
      headers: en,
    });
    expect(nulled.body.fields).toEqual([{ field: 'displayName', message: 'expected text' }]);
    const missing = await api.call('PUT', '/api/auth/me', { token: demo, body: { version: 0 }, headers: en });
    expect(missing.body.fields).toEqual([{ field: 'displayName', message: 'is required' }]);
    const token = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'password', tenant: 'demo', username: 7, password: 'admin123', client_id: 'console' },
      headers: en,
    });
    expect(token.body.fields).toEqual([{ field: 'username', message: 'expected text' }]);
  });

  it('ignores token-request parameters it does not recognise (RFC 6749 §3.2) while other endpoints stay strict', async () => {
    const extra = await signIn({ role: 'superuser', redirect_uri: 'https://example.com' });
    expect(extra.status).toBe(200);
    const form = await api.call('POST', '/api/auth/token', {
      rawBody: 'grant_type=password&tenant=demo&username=admin&password=admin123&client_id=console&state=xyz',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    const strict = await api.call('PUT', '/api/auth/me', {
      token: demo,
      body: { displayName: 'x', version: 0, role: 'x' },
    });
    expect(strict.status).toBe(400);
    expect(fieldsOf(strict.body)).toEqual(['role']);
  });
});
