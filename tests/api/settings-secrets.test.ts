import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf, keyVersionOf } from '../../server/src/core/seal';
import type { DatabaseOptions } from '../../server/src/db/database';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { engines, type Json, startApi, TEST_ID_NUMBER_KEY, type TestApi } from './helpers';
import { mailToSelf, smtpSinkWithLogin } from './smtp-sink';

const SMTP = { user: 'mailer', password: 'smtp-Pa55-7f3e' };
const SMS_KEY = 'sms-key-91c2d';
const CAPTCHA = 'captcha-secret-5b7a';
const MASK = '******';

describe.each(engines())('secret settings on $name', (engine) => {
  let database: DatabaseOptions;
  let drop = async () => {};
  const dataDir = mkdtempSync(path.join(tmpdir(), 'medu-setting-secrets-'));
  let api: TestApi | undefined;
  let demo = '';
  let platform = '';
  let smtp: Awaited<ReturnType<typeof smtpSinkWithLogin>>;
  let templateId = '';

  const start = async () => {
    await api?.close();
    // the SMTP sink listens on loopback: demo is allowed private addresses
    api = await startApi(engine, { database, config: { outboundPrivateTenants: ['demo'] } });
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
  };
  const call = (token: string) => (method: string, p: string, body?: unknown) =>
    (api as TestApi).call(method, p, { token, body, headers: { 'accept-language': 'en-US' } });
  const put = async (token: string, key: string, value: unknown) => {
    const res = await call(token)('PUT', `/api/system/settings/${key}`, { value });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };
  /** The rows of the secret settings, as the database holds them. */
  const rows = () =>
    (api as TestApi).db
      .selectFrom('system_setting')
      .select(['key', 'tenant_id', 'value', 'value_enc'])
      .where('value_type', '=', 'secret')
      .orderBy('key')
      .orderBy('tenant_id')
      .execute();
  const rowOf = async (key: string) => (await rows()).filter((r) => r.key === key);

  // a database in a folder (PGlite) or of its own (PostgreSQL): the server is started on it again
  beforeAll(async () => {
    if (engine.name === 'pglite') database = { kind: 'pglite', dataDir };
    else ({ options: database, drop } = await engine.create());
    smtp = await smtpSinkWithLogin(SMTP);
    await start();
    const made = await call(demo)('POST', '/api/message/template', {
      code: 'secret-mail',
      name: '邮件',
      channel: 'email',
      titleTemplate: '提醒',
      contentTemplate: '{name}：设置已生效',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    templateId = made.body.id;
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('seals a secret as it is saved: the row holds no clear text, the API answers a mask, the channel uses it', async () => {
    await put(demo, 'message.email.smtpHost', '127.0.0.1');
    await put(demo, 'message.email.smtpPort', smtp.port);
    await put(demo, 'message.email.smtpUser', SMTP.user);
    await put(demo, 'message.email.from', 'noreply@example.com');
    expect(await put(demo, 'message.email.smtpPassword', SMTP.password)).toMatchObject({ value: MASK, hasValue: true });
    await put(platform, 'message.sms.apiKey', SMS_KEY);
    await put(platform, 'login.captchaSecret', CAPTCHA);

    const stored = await rows();
    const set = stored.filter((r) => r.value_enc !== null);
    expect(set.map((r) => r.key)).toEqual(['login.captchaSecret', 'message.email.smtpPassword', 'message.sms.apiKey']);
    for (const r of stored) expect(r.value, r.key).toBe('');
    const version = keyIdOf(TEST_ID_NUMBER_KEY).toString('hex');
    for (const r of set) expect(keyVersionOf(r.value_enc as Uint8Array), r.key).toBe(version);
    const text = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('latin1');
    const everything = `${text(stored)} ${set.map((r) => Buffer.from(r.value_enc as Uint8Array).toString('latin1'))}`;
    for (const secret of [SMTP.password, SMS_KEY, CAPTCHA]) expect(everything).not.toContain(secret);

    // never answered: the list of either scope, the public settings, the audit trail
    const list = await call(demo)('GET', '/api/system/settings');
    const answers = [
      list,
      await call(platform)('GET', '/api/system/settings'),
      await call(demo)('GET', '/api/system/settings/public?tenant=demo'),
      await call(platform)('GET', '/api/system/audit-log?resourceType=system_setting&pageSize=100'),
      await call(demo)('GET', '/api/system/audit-log?resourceType=system_setting&pageSize=100'),
    ];
    for (const a of answers) expect(a.status).toBe(200);
    for (const secret of [SMTP.password, SMS_KEY, CAPTCHA]) expect(JSON.stringify(answers)).not.toContain(secret);
    const shown = (list.body.data as Json[]).filter((s) => s.valueType === 'secret');
    expect(shown.map((s) => [s.key, s.value, s.hasValue])).toEqual([
      ['login.captchaSecret', MASK, true],
      ['message.email.smtpPassword', MASK, true],
      ['message.sms.apiKey', MASK, true],
    ]);

    const batch = await mailToSelf(call(demo), templateId, 'admin@example.com');
    expect(batch).toMatchObject({ sentCount: 1, failedCount: 0 });
    expect(smtp.received.map((m) => [m.user, m.to])).toEqual([[SMTP.user, ['admin@example.com']]]);
  });

  it('keeps a secret the console sends back masked, replaces it when a new one is typed, and drops it when emptied', async () => {
    const [before] = await rowOf('message.email.smtpPassword');
    const same = await put(demo, 'message.email.smtpPassword', MASK);
    expect(same).toMatchObject({ value: MASK, hasValue: true });
    expect((await rowOf('message.email.smtpPassword'))[0]?.value_enc).toEqual(before?.value_enc);

    await put(demo, 'message.email.smtpPassword', 'a-wrong-one');
    const refused = await mailToSelf(call(demo), templateId, 'admin@example.com');
    expect(refused).toMatchObject({ sentCount: 0, failedCount: 1 });

    expect(await put(platform, 'login.captchaSecret', '')).toMatchObject({ value: null, hasValue: false });
    expect((await rowOf('login.captchaSecret'))[0]).toMatchObject({ value: '', value_enc: null });
    await put(demo, 'message.email.smtpPassword', SMTP.password);
  });

  it('seals at start what an earlier release kept in clear, and keeps it sealed through migration 0075 undone', async () => {
    // as the release before sealing kept it: the text in `value`
    await (api as TestApi).db
      .updateTable('system_setting')
      .set({ value: JSON.stringify(CAPTCHA), value_enc: null })
      .where('key', '=', 'login.captchaSecret')
      .execute();
    await start();
    const [captcha] = await rowOf('login.captchaSecret');
    expect(captcha?.value).toBe('');
    expect(Buffer.from(captcha?.value_enc as Uint8Array).toString('latin1')).not.toContain(CAPTCHA);
    expect((await call(platform)('GET', '/api/system/settings?category=login')).body.data).toContainEqual(
      expect.objectContaining({ key: 'login.captchaSecret', value: MASK, hasValue: true }),
    );

    const sealed = await rows();
    const { db } = api as TestApi;
    const reverted: string[] = [];
    while (!reverted.includes('reverted 0075_setting_secrets_sealed')) reverted.push(...(await migrateDown(db)));
    const { rows: waiting } = await sql<{ key: string; value: Json }>`
      SELECT key, value FROM system_setting WHERE value_type = 'secret' ORDER BY key, tenant_id`.execute(db);
    expect(JSON.stringify(waiting)).not.toContain(CAPTCHA);
    expect(waiting.filter((r) => typeof r.value === 'object').map((r) => r.key)).toEqual([
      'login.captchaSecret',
      'message.email.smtpPassword',
      'message.sms.apiKey',
    ]);
    await migrateToLatest(db);
    expect(await rows()).toEqual(sealed);

    smtp.received.length = 0;
    const batch = await mailToSelf(call(demo), templateId, 'admin@example.com');
    expect(batch).toMatchObject({ sentCount: 1, failedCount: 0 });
    expect(smtp.received).toHaveLength(1);
  });
});
