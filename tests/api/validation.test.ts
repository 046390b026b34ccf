import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBase } from '../../server/src/db/seed/base';
import { engines, startApi, type TestApi } from './helpers';

describe.each(engines())('validation and error messages on $name', (engine) => {
  let api: TestApi;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    api = await startApi(engine);
    token = (await api.tokens('demo', 'admin', 'admin123')).access;
    userId = await api.userId('demo', 'admin');
  });
  afterAll(() => api?.close());

  const row = () =>
    api.db
      .selectFrom('admin_user')
      .select(['display_name', 'email', 'version'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  async function expectRejected(options: { body?: unknown; rawBody?: string }, field: string) {
    const before = await row();
    const res = await api.call('PUT', '/api/auth/me', { token, ...options });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation');
    expect(res.body.family).toBe('CLIENT_ERROR');
    expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await row()).toEqual(before);
    return res;
  }

  it('rejects malformed JSON', async () => {
    await expectRejected({ rawBody: '{"displayName": "x",' }, 'body');
  });

  it('rejects an unknown field and names it', async () => {
    const res = await expectRejected({ body: { displayName: 'x', version: 0, isAdmin: true } }, 'isAdmin');
    expect(res.body.fields).toHaveLength(1);
  });

  it('rejects a too-long string', async () => {
    await expectRejected({ body: { displayName: 'x'.repeat(51), version: 0 } }, 'displayName');
  });

  it('rejects a wrong type', async () => {
    await expectRejected({ body: { displayName: 'x', version: '0' } }, 'version');
  });

  it('rejects a missing required field and a bad e-mail', async () => {
    await expectRejected({ body: { version: 0 } }, 'displayName');
    await expectRejected({ body: { displayName: 'x', email: 'not-an-email', version: 0 } }, 'email');
  });

  it('rejects an unknown grant type', async () => {
    const bad = await api.call('POST', '/api/auth/token', {
      body: { grant_type: 'client_credentials', client_id: 'console' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('grant_type');
    const none = await api.call('POST', '/api/auth/token', {});
    expect(none.status).toBe(400);
  });

  it('answers 415 for a body of an unsupported content type', async () => {
    const res = await api.call('PUT', '/api/auth/me', {
      token,
      rawBody: 'displayName=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('common.unsupportedMediaType');
  });

  it('writes the message in the language of Accept-Language (zh-CN by default)', async () => {
    const zh = await api.call('GET', '/api/auth/me');
    expect(zh.body.message).toBe('登录已过期，请重新登录');
    const en = await api.call('GET', '/api/auth/me', { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.body.message).toBe('Your session has expired, please sign in again');
    const preferZh = await api.call('GET', '/api/auth/me', { headers: { 'accept-language': 'en;q=0.5, zh-CN' } });
    expect(preferZh.body.message).toBe('登录已过期，请重新登录');
    const fields = await api.call('PUT', '/api/auth/me', {
      token,
      body: { displayName: 'x'.repeat(51), version: 0 },
      headers: { 'accept-language': 'en-US' },
    });
    expect(fields.body.message).toBe('The request is invalid');
    expect(fields.body.fields[0].message).toBe('must be at most 50 characters');
  });

  it('says in words, in the request language, what a format rule accepts: never the pattern', async () => {
    const zh = await expectRejected({ body: { displayName: 'x', mobile: 'call me', version: 0 } }, 'mobile');
    expect(zh.body.fields[0].message).toBe('请填写有效的电话号码：数字，可带 + 前缀，可用空格或 - 分隔');
    const platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    const en = await api.call('POST', '/api/system/tenant', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
      body: {
        code: 'Bad Code',
        name: 'x',
        packageId: '1',
        maxAccounts: 1,
        adminUserName: '-x',
        adminPassword: 'x',
        adminDisplayName: 'x',
      },
    });
    expect(en.status).toBe(400);
    const messages = Object.fromEntries(
      en.body.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(messages).toMatchObject({
      code: 'a lower-case letter, then 1–31 lower-case letters, digits or -',
      adminUserName: 'starts with a letter or digit; letters, digits and . _ @ - only',
    });
    for (const message of Object.values(messages)) expect(message).not.toMatch(/[\^$\\]/);
  });

  it('keeps a message edited in the error-code dictionary when the built-in codes are seeded again', async () => {
    await api.db
      .updateTable('error_code')
      .set({ message_en: 'Please sign in again (edited)', message_customized: true })
      .where('key', '=', 'common.unauthorized')
      .execute();
    await api.tenancy.asSystem(seedBase);
    const codes = await api.call('GET', '/api/dictionary/catalog/errcodes');
    expect(codes.status).toBe(200);
    expect(codes.body).toContainEqual({
      code: 'common.unauthorized',
      httpStatus: 401,
      messageZh: '登录已过期，请重新登录',
      messageEn: 'Please sign in again (edited)',
    });
    expect(codes.body).toContainEqual(
      expect.objectContaining({ code: 'common.forbidden', messageEn: 'You do not have permission to do this' }),
    );
  });
});
