import dns from 'node:dns';
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { refusal, specialRange } from '../../server/src/core/outbound';
import { engines, type Json, secondTenant, startApi, type TestApi } from './helpers';

const storage = '/api/file/storage';
const templates = '/api/message/template';
const messages = '/api/message/message';
const UNREACHABLE = 'Could not reach the service';
const NOT_PUBLIC = 'must not be a local, private or reserved address';

describe('the ranges an outbound address may not be in', () => {
  it('names the range of every local, private, link-local and reserved address, IPv4-mapped ones included', () => {
    const table: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.1.2.3', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.254', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['169.254.169.254', 'linkLocal'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:169.254.169.254', 'linkLocal'],
      ['::ffff:10.0.0.1', 'private'],
      ['::7f00:1', 'reserved'],
      ['64:ff9b::7f00:1', 'rfc6052'],
      ['2002:7f00:1::1', '6to4'],
      ['100.100.100.200', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['::ffff:100.100.100.200', 'metadata'],
    ];
    for (const [ip, range] of table) expect(specialRange(ip), ip).toBe(range);
    for (const ip of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(specialRange(ip), ip).toBeUndefined();
  });

  it('reads the tenants allowed private addresses from OUTBOUND_PRIVATE_TENANTS, none by default', () => {
    expect(loadConfig({}).outboundPrivateTenants).toEqual([]);
    expect(loadConfig({ OUTBOUND_PRIVATE_TENANTS: 'platform, hospital-a,' }).outboundPrivateTenants).toEqual([
      'platform',
      'hospital-a',
    ]);
  });

  it('lets a tenant allowed private addresses reach loopback and private ones, never link-local or reserved', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', 'fd00::1', '::ffff:10.0.0.1', '100.64.0.1'])
      expect(refusal(ip, 'private'), ip).toBeUndefined();
    for (const ip of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '224.0.0.1',
      '::ffff:169.254.169.254',
      '100.100.100.200',
      'fd00:ec2::254',
    ])
      expect(refusal(ip, 'private'), ip).toBeDefined();
    expect(refusal('127.0.0.1', 'public')).toBe('loopback');
  });
});

/** A TCP server on every loopback address that counts the connections it is given and hangs up on each. */
async function listener() {
  const server = net.createServer((socket) => {
    count.connections++;
    socket.destroy();
  });
  const count = { connections: 0 };
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { count, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An SMTP sink: the recipients of every message it is given. */
async function smtpSink() {
  const received: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        received.push(session.envelope.rcptTo.map((r) => r.address));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as net.AddressInfo;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe.each(engines())('outbound addresses a tenant sets, on $name', (engine) => {
  let api: TestApi;
  let demo: string;
  let platform: string;
  let open: Awaited<ReturnType<typeof listener>>;
  let closed: number;
  const call = (method: string, path: string, body?: unknown, token = demo) =>
    api.call(method, path, { token, body, headers: { 'accept-language': 'en-US' } });

  /**
   * Endpoints no tenant may reach: loopback (open and closed ports, by name, IPv6, IPv4-mapped, the database's
   * port, a decimal IPv4), the metadata service, a private network.
   */
  const forbidden = () => [
    `http://127.0.0.1:${open.port}`,
    `http://127.0.0.1:${closed}`,
    `http://[::1]:${open.port}`,
    `http://localhost:${open.port}`,
    `http://[::ffff:127.0.0.1]:${open.port}`,
    `http://2130706433:${open.port}`,
    'http://127.0.0.1:5432',
    'http://169.254.169.254',
    'http://10.0.0.1:9000',
  ];

  beforeAll(async () => {
    // the platform is allowed private addresses, as an operator would allow it for a relay on its intranet
    api = await startApi(engine, { config: { outboundPrivateTenants: ['platform'] } });
    await api.addTenant(secondTenant);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    open = await listener();
    closed = await closedPort();
  });
  afterAll(async () => {
    await open?.close();
    await api?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const s3Body = (endpoint: string, name = endpoint) => ({
    name: name.slice(0, 63),
    provider: 's3',
    endpoint,
    region: 'us-east-1',
    bucket: 'medu',
    pathStyle: true,
    accessKeyId: 'KEY',
    secretAccessKey: 'SECRET',
  });

  it('refuses a storage endpoint on a local, private or reserved address when a tenant saves it, naming the field', async () => {
    for (const endpoint of forbidden()) {
      const res = await call('POST', storage, s3Body(endpoint));
      expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'endpoint', message: NOT_PUBLIC }]);
    }
    const kept = await call('POST', storage, s3Body('https://s3.example.invalid', 'Kept'));
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    const moved = await call('PUT', `${storage}/${kept.body.id}`, {
      endpoint: `http://127.0.0.1:${open.port}`,
      version: kept.body.version,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.fields).toEqual([{ field: 'endpoint', message: NOT_PUBLIC }]);
    expect(open.count.connections).toBe(0);
  });

  it('tests a configuration saved before this check without connecting to it, in one message for every address', async () => {
    const config = await call('POST', storage, s3Body('https://s3.example.invalid', 'Saved before'));
    expect(config.status, JSON.stringify(config.body)).toBe(201);
    const answers = new Set<string>();
    for (const endpoint of forbidden()) {
      await api.db.updateTable('storage_config').set({ endpoint }).where('id', '=', config.body.id).execute();
      const test = await call('POST', `${storage}/${config.body.id}/test`);
      expect(test.status).toBe(200);
      expect(test.body.ok, endpoint).toBe(false);
      answers.add(test.body.message);
    }
    expect([...answers]).toEqual([UNREACHABLE]);
    expect(open.count.connections).toBe(0);
  });

  it('checks the address a name resolves to when it connects: a name that turns to loopback after it was saved reaches nothing', async () => {
    const lookup = dns.lookup;
    const resolve = dns.promises.lookup;
    const rebinding = 'rebind.example.test';
    // when saved, the name is a public address; when connected to, loopback (DNS rebinding)
    vi.spyOn(dns.promises, 'lookup').mockImplementation(((host: string, options: dns.LookupAllOptions) =>
      host === rebinding
        ? Promise.resolve([{ address: '93.184.216.34', family: 4 }])
        : resolve(host, options)) as typeof dns.promises.lookup);
    vi.spyOn(dns, 'lookup').mockImplementation(((
      host: string,
      options: dns.LookupOptions,
      callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
    ) => {
      if (host !== rebinding) return lookup(host, options, callback);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as typeof dns.lookup);
    const config = await call('POST', storage, s3Body(`http://${rebinding}:${open.port}`, 'Rebinding'));
    expect(config.status, JSON.stringify(config.body)).toBe(201);
    const test = await call('POST', `${storage}/${config.body.id}/test`);
    expect(test.body).toMatchObject({ ok: false, message: UNREACHABLE });
    expect(open.count.connections).toBe(0);
  });

  it('refuses an SMS gateway or an SMTP server on a local, private or reserved address when a tenant saves it', async () => {
    for (const endpoint of forbidden()) {
      const res = await call('PUT', '/api/system/settings/message.sms.endpoint', { value: `${endpoint}/send` });
      expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'value', message: NOT_PUBLIC }]);
    }
    for (const host of ['127.0.0.1', 'localhost', '::1', '::ffff:127.0.0.1', '169.254.169.254', '192.168.1.20']) {
      const res = await call('PUT', '/api/system/settings/message.email.smtpHost', { value: host });
      expect(res.status, `${host}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.fields).toEqual([{ field: 'value', message: NOT_PUBLIC }]);
    }
    // even the platform, allowed private addresses, may not reach the metadata service
    const metadata = await call(
      'PUT',
      '/api/system/settings/message.sms.endpoint',
      {
        value: 'http://169.254.169.254/latest',
      },
      platform,
    );
    expect(metadata.status).toBe(400);
    expect(open.count.connections).toBe(0);
  });

  /** Sends a test of `template` to the signed-in administrator and waits for its outcome. */
  const testSend = async (template: string, token = demo) => {
    const res = await call('POST', `${templates}/${template}/test-send`, { params: { code: '1234' } }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const end = Date.now() + 20_000;
    for (;;) {
      const message = (await call('GET', `${messages}/${res.body.id}`, undefined, token)).body as Json;
      if (message.status === 'sent' || message.status === 'failed') return message;
      if (Date.now() > end) throw new Error(`still ${message.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const setting = async (key: string, value: unknown, token = demo) => {
    const res = await call('PUT', `/api/system/settings/${key}`, { value }, token);
    expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(200);
  };
  /** Writes a tenant's override as a version before this check would have kept it. */
  const storedBefore = (tenant: string, key: string, value: unknown) =>
    api.db
      .updateTable('system_setting')
      .set({ value: JSON.stringify(value) })
      .where('key', '=', key)
      .where('tenant_id', '=', (qb) => qb.selectFrom('tenant').select('id').where('code', '=', tenant))
      .execute();
  const profile = async (change: Json, token = demo) => {
    const me = (await call('GET', '/api/auth/me', undefined, token)).body as Json;
    const res = await call(
      'PUT',
      '/api/auth/me',
      { displayName: me.displayName, version: me.version, ...change },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('makes a test send through a gateway or server saved before reach nothing, with one message for every address', async () => {
    await profile({ email: 'admin@example.com', mobile: '13800000001' });
    await setting('message.retry.maxAttempts', 0);
    const sms = await call('POST', templates, {
      code: 'sms-probe',
      name: 'SMS',
      channel: 'sms',
      externalTemplateId: 'SMS_1',
      contentTemplate: '验证码 {code}',
    });
    const mail = await call('POST', templates, {
      code: 'mail-probe',
      name: 'Mail',
      channel: 'email',
      titleTemplate: 'Code',
      contentTemplate: '验证码 {code}',
    });
    expect([sms.status, mail.status]).toEqual([201, 201]);
    const outcomes = new Set<string>();

    await setting('message.sms.endpoint', 'https://sms.example.invalid/send');
    for (const endpoint of forbidden()) {
      await storedBefore('demo', 'message.sms.endpoint', `${endpoint}/send`);
      const message = await testSend(sms.body.id);
      outcomes.add(JSON.stringify([message.status, message.errorCode, message.errorMessage]));
    }

    await setting('message.email.smtpHost', 'smtp.example.invalid');
    for (const [host, port] of [
      ['127.0.0.1', open.port],
      ['127.0.0.1', closed],
      ['localhost', open.port],
      ['::1', open.port],
      ['::ffff:127.0.0.1', open.port],
      ['169.254.169.254', 25],
    ] as const) {
      await storedBefore('demo', 'message.email.smtpHost', host);
      await setting('message.email.smtpPort', port);
      const message = await testSend(mail.body.id);
      outcomes.add(JSON.stringify([message.status, message.errorCode, message.errorMessage]));
    }
    expect([...outcomes]).toEqual([JSON.stringify(['failed', 'unreachable', UNREACHABLE])]);
    expect(open.count.connections).toBe(0);
  });

  it("reaches the platform's local SMTP server for a tenant that keeps the platform's settings, not for one that sets its own port", async () => {
    const sink = await smtpSink();
    try {
      await setting('message.email.smtpHost', '127.0.0.1', platform);
      await setting('message.email.smtpPort', sink.port, platform);
      const other = (await api.tokens('demo2', 'admin', 'admin123')).access;
      await profile({ email: 'admin2@example.com' }, other);
      const mail = await call(
        'POST',
        templates,
        { code: 'mail', name: 'Mail', channel: 'email', titleTemplate: 'Hi', contentTemplate: 'Hello {code}' },
        other,
      );
      expect(mail.status, JSON.stringify(mail.body)).toBe(201);
      expect(await testSend(mail.body.id, other)).toMatchObject({ status: 'sent' });
      expect(sink.received).toEqual([['admin2@example.com']]);

      // the same server, but the port is the tenant's: the address is the tenant's, which may not be loopback
      await setting('message.retry.maxAttempts', 0, other);
      await setting('message.email.smtpPort', sink.port, other);
      expect(await testSend(mail.body.id, other)).toMatchObject({
        status: 'failed',
        errorCode: 'unreachable',
        errorMessage: UNREACHABLE,
      });
      expect(sink.received).toHaveLength(1);
    } finally {
      await sink.close();
    }
  });
});
