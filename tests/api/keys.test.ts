import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idNumberKeyFile, previousKeyFile, resolveIdNumberKey, resolveKeys } from '../../server/src/config';
import { createIdNumberCipher } from '../../server/src/core/id-number';
import { resealAll } from '../../server/src/core/reseal';
import { byteaColumns, SEALED_COLUMNS } from '../../server/src/core/reseal.repository';
import { keyIdOf, keyVersionOf } from '../../server/src/core/seal';
import { createSecretBox } from '../../server/src/core/secret-box';
import type { DatabaseOptions } from '../../server/src/db/database';
import { engines, type Json, startApi, type TestApi } from './helpers';
import { mailToSelf, smtpSinkWithLogin } from './smtp-sink';

const OLD = Buffer.alloc(32, 1);
const NEW = Buffer.alloc(32, 2);
const ID_NO = '11010519491231002X';
const SMTP = { user: 'mailer', password: 'rotated-Pa55-0c1d' };

/** A value as the code before key versions sealed it: `IV | tag | ciphertext`, no format byte, no key id. */
function legacySeal(master: Buffer, info: string, text: string): Buffer {
  const key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

describe('sealing, with a key version in each value', () => {
  it('opens values sealed before versions (version 1), and seals under the current key with its id', () => {
    const ids = createIdNumberCipher({ current: NEW, previous: [OLD] });
    const legacy = legacySeal(OLD, 'id-number encryption', ID_NO);
    expect(ids.inspect(legacy)).toEqual({ text: ID_NO, current: false });
    expect(createIdNumberCipher(OLD).decrypt(legacy)).toBe(ID_NO);
    const sealed = ids.encrypt(ID_NO.toLowerCase());
    expect(keyVersionOf(sealed)).toBe(keyIdOf(NEW).toString('hex'));
    expect(ids.inspect(sealed)).toEqual({ text: ID_NO, current: true });
    // under the previous key: opens while that key is in the ring, and not once it is gone
    const before = createIdNumberCipher(OLD).encrypt(ID_NO);
    expect(keyVersionOf(before)).toBe(keyIdOf(OLD).toString('hex'));
    expect(ids.inspect(before)).toEqual({ text: ID_NO, current: false });
    expect(() => createIdNumberCipher(NEW).decrypt(before)).toThrow(/ID_NUMBER_KEY/);
    // a changed byte of the header is refused: it is authenticated with the value
    const forged = Buffer.from(sealed);
    forged[1] = (forged[1] as number) ^ 1;
    expect(() => ids.decrypt(forged)).toThrow();
    // the blind index: current first, then the previous key's
    expect(ids.hashes(ID_NO)).toEqual([createIdNumberCipher(NEW).hash(ID_NO), createIdNumberCipher(OLD).hash(ID_NO)]);

    const box = createSecretBox({ current: NEW, previous: [OLD] }, 'storage secret');
    expect(box.open(legacySeal(OLD, 'storage secret encryption', 's3cret'))).toBe('s3cret');
    const signed = createSecretBox(OLD, 'file link').sign('x');
    expect(createSecretBox({ current: NEW, previous: [OLD] }, 'file link').verify('x', signed)).toBe(true);
    expect(createSecretBox(NEW, 'file link').verify('x', signed)).toBe(false);
  });
});

describe('where the embedded database keeps its key', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'medu-keys-'));
  const env = { XDG_CONFIG_HOME: path.join(root, 'config') };
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is outside DATA_DIR by default, under the config folder, and ID_NUMBER_KEY_FILE moves it', () => {
    const dataDir = path.join(root, 'data');
    const file = idNumberKeyFile({ dataDir }, env);
    expect(file.startsWith(path.join(env.XDG_CONFIG_HOME, 'medu-admin', 'keys', 'data-'))).toBe(true);
    expect(path.relative(dataDir, file).startsWith('..')).toBe(true);
    expect(idNumberKeyFile({ dataDir, idNumberKeyFile: path.join(root, 'k') }, env)).toBe(path.join(root, 'k'));

    const made = resolveIdNumberKey(undefined, { kind: 'pglite', dataDir }, { env });
    expect(readFileSync(file, 'utf8').trim()).toBe(made.toString('hex'));
    expect(existsSync(path.join(dataDir, 'id-number.key'))).toBe(false);
    expect(resolveIdNumberKey(undefined, { kind: 'pglite', dataDir }, { env })).toEqual(made);
  });

  it('reads the previous keys of a rotation from the key file and <file>.previous', () => {
    const file = path.join(root, 'ring.key');
    writeFileSync(file, `${NEW.toString('hex')}\n${OLD.toString('hex')}\n`);
    writeFileSync(previousKeyFile(file), `${Buffer.alloc(32, 3).toString('hex')}\n`);
    const keys = resolveKeys(
      { previousIdNumberKeys: [], idNumberKeyFile: file },
      { kind: 'pglite', dataDir: path.join(root, 'ring') },
    );
    expect(keys).toEqual({ idNumberKey: NEW, previousIdNumberKeys: [OLD, Buffer.alloc(32, 3)] });
  });

  it('moves a key an earlier version kept inside DATA_DIR out of it, and says so', () => {
    const dataDir = path.join(root, 'old-install');
    mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    writeFileSync(path.join(dataDir, 'id-number.key'), `${OLD.toString('hex')}\n`);
    const lines: string[] = [];
    const key = resolveIdNumberKey(undefined, { kind: 'pglite', dataDir }, { env, log: (l) => lines.push(l) });
    expect(key).toEqual(OLD);
    expect(existsSync(path.join(dataDir, 'id-number.key'))).toBe(false);
    expect(readFileSync(idNumberKeyFile({ dataDir }, env), 'utf8').trim()).toBe(OLD.toString('hex'));
    expect(lines.join('\n')).toMatch(/moved out of DATA_DIR/);
  });

  it('refuses to start on data without its key, naming the variable and the file it needs', () => {
    const dataDir = path.join(root, 'copied');
    mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    expect(() => resolveIdNumberKey(undefined, { kind: 'pglite', dataDir }, { env })).toThrow(
      new RegExp(`ID_NUMBER_KEY.*${idNumberKeyFile({ dataDir }, env).replaceAll('.', '\\.')}`),
    );
    expect(() => resolveIdNumberKey(undefined, { kind: 'postgres', url: 'postgres://x' })).toThrow(
      /ID_NUMBER_KEY is required/,
    );
  });
});

describe.each(engines())('rotating the key on $name', (engine) => {
  let database: DatabaseOptions;
  let drop = async () => {};
  const dataDir = mkdtempSync(path.join(tmpdir(), 'medu-rotate-'));
  let api: TestApi | undefined;
  let token = '';
  let staff: Json;
  let storageId = '';
  let wechatId = '';
  let smtp: Awaited<ReturnType<typeof smtpSinkWithLogin>>;
  let mailTemplate = '';
  const staffPath = '/api/people/staff';

  const start = async (config: { idNumberKey: Buffer; previousIdNumberKeys?: Buffer[] }) => {
    await api?.close();
    // the SMTP sink listens on loopback: demo is allowed private addresses
    api = await startApi(engine, { database, config: { ...config, outboundPrivateTenants: ['demo'] } });
    token = (await api.tokens('demo', 'admin', 'admin123')).access;
    return api;
  };
  const call = (method: string, p: string, body?: unknown) =>
    (api as TestApi).call(method, p, { token, body, headers: { 'accept-language': 'en-US' } });
  const raw = async () => {
    const db = (api as TestApi).db;
    const person = await db.selectFrom('person').select(['id_no_enc', 'id_no_hash']).execute();
    const storage = await db.selectFrom('storage_config').select('secret_enc').execute();
    const wechat = await db.selectFrom('wechat_account').select(['app_secret_enc', 'aes_key_enc']).execute();
    const settings = await db.selectFrom('system_setting').select('value_enc').execute();
    return [
      ...person.map((r) => r.id_no_enc),
      ...storage.map((r) => r.secret_enc),
      ...wechat.flatMap((r) => [r.app_secret_enc, r.aes_key_enc]),
      ...settings.map((r) => r.value_enc),
    ].filter((v): v is Buffer => v !== null);
  };

  // an embedded database in a folder (it is opened again under each key), slower to start than one in memory
  beforeAll(async () => {
    if (engine.name === 'pglite') database = { kind: 'pglite', dataDir };
    else ({ options: database, drop } = await engine.create());
    await start({ idNumberKey: OLD });
    const org = (await call('POST', '/api/people/organization', { code: 'H1', name: '第一医院', orgType: 'hospital' }))
      .body;
    const made = await call('POST', staffPath, { name: '王五', idNo: ID_NO, staffNo: 's001', orgId: org.id });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    staff = made.body;
    const other = await call('POST', staffPath, {
      name: '赵六',
      idNo: '110101199003071233',
      staffNo: 's002',
      orgId: org.id,
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    // the second person's number as the code before key versions sealed it
    await (api as TestApi).db
      .updateTable('person')
      .set({ id_no_enc: legacySeal(OLD, 'id-number encryption', '110101199003071233') })
      .where('name', '=', '赵六')
      .execute();
    const s3 = await call('POST', '/api/file/storage', {
      name: 'S3',
      provider: 's3',
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      bucket: 'medu-files',
      accessKeyId: 'AKID',
      secretAccessKey: 's3-secret',
    });
    expect(s3.status, JSON.stringify(s3.body)).toBe(201);
    storageId = s3.body.id;
    const wechat = await call('POST', '/api/message/wechat-account', {
      name: '公众号',
      appId: 'wx0123456789abcdef',
      appSecret: 'wechatSecret0123456789',
      aesKey: 'a'.repeat(43),
    });
    expect(wechat.status, JSON.stringify(wechat.body)).toBe(201);
    wechatId = wechat.body.id;
    smtp = await smtpSinkWithLogin(SMTP);
    const mail = {
      'message.email.smtpHost': '127.0.0.1',
      'message.email.smtpPort': smtp.port,
      'message.email.smtpUser': SMTP.user,
      'message.email.smtpPassword': SMTP.password,
    };
    for (const [key, value] of Object.entries(mail))
      expect((await call('PUT', `/api/system/settings/${key}`, { value })).status, key).toBe(200);
    const template = await call('POST', '/api/message/template', {
      code: 'rotation-mail',
      name: '邮件',
      channel: 'email',
      titleTemplate: '密钥轮换',
      contentTemplate: '{name}：密钥已轮换',
    });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    mailTemplate = template.body.id;
  }, 300_000);
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every sealed column of the catalogue', async () => {
    const bytea = await (api as TestApi).tenancy.asSystem(byteaColumns);
    const known = new Set(
      SEALED_COLUMNS.flatMap((c) => [`${c.table}.${c.column}`, ...('hash' in c ? [`${c.table}.${c.hash}`] : [])]),
    );
    // bytea columns that hold no secret sealed under the master key: an uploaded sheet awaiting import
    expect(bytea.filter((c) => !known.has(c))).toEqual(['import_job.file']);
  });

  it('serves both keys during a rotation, re-seals every value under the new one in batches, and reads them after', async () => {
    await start({ idNumberKey: NEW, previousIdNumberKeys: [OLD] });
    // before the re-seal: found by number (the previous key's hash), shown, and still unique
    const found = async () =>
      ((await call('GET', `${staffPath}?keyword=${ID_NO}`)).body.data as Json[]).map((r) => r.name);
    expect(await found()).toEqual(['王五']);
    expect((await call('POST', `${staffPath}/${staff.id}/reveal-id`)).body).toEqual({ idNo: ID_NO });
    const twice = await call('POST', staffPath, { name: '钱七', idNo: ID_NO, staffNo: 's003', orgId: staff.orgId });
    expect(twice.status).toBe(400);

    const counts = await resealAll((api as TestApi).tenancy, { current: NEW, previous: [OLD] }, { batch: 1 });
    expect(Object.fromEntries(counts.map((c) => [c.column, [c.seen, c.resealed, c.unreadable.length]]))).toEqual({
      'person.id_no_enc': [2, 2, 0],
      'storage_config.secret_enc': [1, 1, 0],
      'wechat_account.app_secret_enc': [1, 1, 0],
      'wechat_account.aes_key_enc': [1, 1, 0],
      'wechat_account.access_token_enc': [0, 0, 0],
      'system_setting.value_enc': [1, 1, 0],
    });
    const version = keyIdOf(NEW).toString('hex');
    const values = await raw();
    expect(values).toHaveLength(6);
    for (const v of values) expect(keyVersionOf(v)).toBe(version);
    // a second run finds nothing to do
    expect((await resealAll((api as TestApi).tenancy, { current: NEW, previous: [] })).map((c) => c.resealed)).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);

    // the previous key gone: everything still reads, and the numbers are found by the new key's hash
    await start({ idNumberKey: NEW });
    expect(await found()).toEqual(['王五']);
    expect((await call('POST', `${staffPath}/${staff.id}/reveal-id`)).body).toEqual({ idNo: ID_NO });
    const legacy = ((await call('GET', `${staffPath}?keyword=110101199003071233`)).body.data as Json[])[0];
    expect((await call('POST', `${staffPath}/${legacy?.id}/reveal-id`)).body).toEqual({ idNo: '110101199003071233' });
    const { services } = (api as TestApi).server;
    await expect(services.files.stores.of(storageId)).resolves.toMatchObject({ provider: 's3' });
    const wechatRow = await (api as TestApi).db
      .selectFrom('wechat_account')
      .select(['app_secret_enc', 'aes_key_enc'])
      .where('id', '=', wechatId)
      .executeTakeFirstOrThrow();
    const box = createSecretBox(NEW, 'wechat secret');
    expect(box.open(wechatRow.app_secret_enc as Buffer)).toBe('wechatSecret0123456789');
    expect(box.open(wechatRow.aes_key_enc as Buffer)).toBe('a'.repeat(43));
    // the SMTP password re-sealed: the e-mail channel still signs in with it
    const mailed = await mailToSelf((method, p, body) => call(method, p, body), mailTemplate, 'admin@example.com');
    expect(mailed).toMatchObject({ sentCount: 1, failedCount: 0 });
    expect(smtp.received.map((m) => m.user)).toEqual([SMTP.user]);
  }, 300_000);
});
