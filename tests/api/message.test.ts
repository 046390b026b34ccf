import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

const templates = '/api/message/template';
const batches = '/api/message/batch';
const messages = '/api/message/message';
const inbox = '/api/message/inbox';

/** An SMTP sink: every message it is given, as its envelope and raw text. */
async function smtpSink() {
  const received: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An SMS gateway stand-in: answers `status` to each POST and keeps its bodies. */
async function smsGateway() {
  const calls: Json[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      calls.push({ auth: req.headers.authorization, ...JSON.parse(body) });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(status === 200 ? { id: `sms-${calls.length}` } : { error: 'busy' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    calls,
    url: `http://127.0.0.1:${port}/send`,
    answer: (s: number) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(engines())('messages on $name', (engine) => {
  // the SMTP sink and the SMS gateway listen on loopback: demo is allowed private addresses (OUTBOUND_PRIVATE_TENANTS)
  const s = twoTenants(engine, { config: { outboundPrivateTenants: ['demo'] } });
  const { call, create } = s;
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let sms: Awaited<ReturnType<typeof smsGateway>>;
  let me: Json;
  let adminRole: Json;
  let notice: Json;

  const setting = async (key: string, value: unknown) => {
    const res = await call('PUT', `/api/system/settings/${key}`, { value });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** The demo administrator's own profile changed; answers it as `{ id }` for an audience. */
  const updateMe = async (change: Json) => {
    const current = (await call('GET', '/api/auth/me')).body as Json;
    const res = await call('PUT', '/api/auth/me', {
      displayName: current.displayName,
      version: current.version,
      ...change,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { id: current.userId as string };
  };
  const batchOf = (id: string, token = s.demo) => call('GET', `${batches}/${id}`, undefined, token);
  const finished = (id: string) =>
    until(
      async () => (await batchOf(id)).body as Json,
      (b) => b.status === 'completed' || b.status === 'cancelled',
    );

  beforeAll(async () => {
    smtp = await smtpSink();
    sms = await smsGateway();
    me = (await call('GET', '/api/auth/me')).body as Json;
    const roles = (await call('GET', '/api/system/role?pageSize=100')).body as Json;
    adminRole = roles.data.find((r: Json) => r.code === 'admin') ?? roles.data[0];
    notice = await create(templates, {
      code: 'notice',
      name: '通知',
      channel: 'in_app',
      titleTemplate: '{subject}',
      contentTemplate: '{name}，您好：{body}',
    });
  });
  afterAll(async () => {
    await smtp?.close();
    await sms?.close();
  });

  it('sends an in-app template to a role; each member reads it in the inbox, once', async () => {
    const before = (await call('GET', `${inbox}/unread-count`)).body.count as number;
    const preview = await call('POST', `${batches}/preview`, {
      name: '停电通知',
      templateId: notice.id,
      audience: { roleIds: [adminRole.id] },
      params: { subject: '停电通知', body: '明天停电' },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.recipients).toBeGreaterThanOrEqual(1);
    expect(preview.body.missing).toEqual([]);
    expect(preview.body.sample.content).toMatch(/，您好：明天停电$/);

    const sent = await call('POST', batches, {
      name: '停电通知',
      templateId: notice.id,
      audience: { roleIds: [adminRole.id], userIds: [me.userId] },
      params: { subject: '停电通知', body: '明天停电' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const batch = await finished(sent.body.id);
    expect(batch).toMatchObject({ status: 'completed', channel: 'in_app', failedCount: 0 });
    expect(batch.sentCount).toBe(batch.total);

    const unread = (await call('GET', `${inbox}/unread-count`)).body.count as number;
    expect(unread).toBe(before + 1); // named twice (role and user), sent once
    const page = (await call('GET', `${inbox}?unread=true`)).body as Json;
    const mine = page.data.find((m: Json) => m.title === '停电通知');
    expect(mine.content).toBe(`${me.displayName}，您好：明天停电`);

    const read = await call('POST', `${inbox}/read`, { ids: [mine.id] });
    expect(read.body.count).toBe(1);
    expect((await call('POST', `${inbox}/read`, { ids: [mine.id] })).body.count).toBe(0);
    expect((await call('GET', `${inbox}/unread-count`)).body.count).toBe(before);
    expect((await batchOf(batch.id)).body.readCount).toBe(1);
    await call('POST', `${inbox}/read-all`);
    expect((await call('GET', `${inbox}/unread-count`)).body.count).toBe(0);
  });

  it('refuses a send that leaves a variable empty, names nobody or is scheduled in the past, and writes nothing', async () => {
    const total = (await call('GET', batches)).body.total as number;
    const missing = await call('POST', batches, {
      name: 'x',
      templateId: notice.id,
      audience: { roleIds: [adminRole.id] },
      params: { subject: '主题' },
    });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('params.body');
    const nobody = await call('POST', batches, {
      name: 'x',
      templateId: notice.id,
      audience: { traineeTypeIds: ['999999'] },
      params: { subject: 'a', body: 'b' },
    });
    expect(nobody.status).toBe(400);
    const past = await call('POST', batches, {
      name: 'x',
      templateId: notice.id,
      audience: { roleIds: [adminRole.id] },
      params: { subject: 'a', body: 'b' },
      scheduledAt: '2020-01-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain('scheduledAt');
    expect((await call('GET', batches)).body.total).toBe(total);
  });

  it('sends a plain notice by the seeded notice template, with no template written first', async () => {
    const found = (await call('GET', `${templates}?keyword=notice.&pageSize=50`)).body as Json;
    const seeded = found.data.filter((t: Json) => t.scope === 'platform');
    expect(seeded.map((t: Json) => [t.code, t.channel]).sort()).toEqual([
      ['notice.email', 'email'],
      ['notice.in_app', 'in_app'],
    ]);
    const inApp = seeded.find((t: Json) => t.channel === 'in_app');
    expect(inApp).toMatchObject({ params: ['title', 'content'], businessItemCode: null, status: 'enabled' });

    const sent = await call('POST', batches, {
      name: '会议通知',
      templateId: inApp.id,
      audience: { userIds: [me.userId] },
      params: { title: '周五教学会议', content: '周五下午三点在二楼会议室开会。' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(await finished(sent.body.id)).toMatchObject({ status: 'completed', sentCount: 1, failedCount: 0 });
    const page = (await call('GET', `${inbox}?unread=true`)).body as Json;
    expect(page.data.find((m: Json) => m.title === '周五教学会议')?.content).toBe('周五下午三点在二楼会议室开会。');
  });

  it('keeps a scheduled batch until its time; cancelled, it sends nothing', async () => {
    const sent = await call('POST', batches, {
      name: '定时',
      templateId: notice.id,
      audience: { roleIds: [adminRole.id] },
      params: { subject: '定时', body: '稍后' },
      scheduledAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(sent.body.status).toBe('scheduled');
    const cancelled = await call('POST', `${batches}/${sent.body.id}/cancel`, { version: sent.body.version });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const again = await call('POST', `${batches}/${sent.body.id}/cancel`, { version: cancelled.body.version });
    expect(again.status).toBe(409);
    const list = (await call('GET', `${messages}?batchId=${sent.body.id}`)).body as Json;
    expect(list.total).toBe(0);
  });

  it('sends e-mail through the tenant’s SMTP server', async () => {
    const admin = await updateMe({ email: 'admin@example.com' });
    await setting('message.email.smtpHost', '127.0.0.1');
    await setting('message.email.smtpPort', smtp.port);
    await setting('message.email.from', 'noreply@example.com');
    const mail = await create(templates, {
      code: 'mail',
      name: '邮件',
      channel: 'email',
      titleTemplate: '课程提醒',
      contentTemplate: '{name}：{course} 即将开始',
    });
    const sent = await call('POST', batches, {
      name: '邮件提醒',
      templateId: mail.id,
      audience: { userIds: [admin.id] },
      params: { course: '心肺复苏' },
    });
    const batch = await finished(sent.body.id);
    expect(batch).toMatchObject({ status: 'completed', sentCount: 1, failedCount: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toEqual(['admin@example.com']);
    expect(smtp.received[0]?.text).toContain('Subject:');
    const list = (await call('GET', `${messages}?batchId=${batch.id}`)).body as Json;
    expect(list.data[0]).toMatchObject({ status: 'sent', address: 'admin@example.com', channel: 'email' });
  });

  it('tries a failing SMS gateway again with back-off, then marks the message failed; a refusal is not retried', async () => {
    const admin = await updateMe({ mobile: '13800000001' });
    await setting('message.sms.endpoint', sms.url);
    await setting('message.sms.apiKey', 'k-123');
    await setting('message.retry.maxAttempts', 2);
    await setting('message.retry.baseSeconds', 0);
    const code = await create(templates, {
      code: 'sms-code',
      name: '短信',
      channel: 'sms',
      externalTemplateId: 'SMS_1',
      contentTemplate: '您的验证码为 {code}',
    });
    sms.answer(503);
    const sent = await call('POST', batches, {
      name: '短信',
      templateId: code.id,
      audience: { userIds: [admin.id] },
      params: { code: '1234' },
    });
    const batch = await finished(sent.body.id);
    expect(batch).toMatchObject({ sentCount: 0, failedCount: 1 });
    expect(sms.calls).toHaveLength(3); // the first try and two retries
    expect(sms.calls[0]).toMatchObject({ auth: 'Bearer k-123', mobile: '13800000001', templateCode: 'SMS_1' });
    const failed = ((await call('GET', `${messages}?batchId=${batch.id}`)).body as Json).data[0];
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'http_503', retryCount: 2 });

    sms.answer(200);
    const retried = await call('POST', `${messages}/${failed.id}/retry`, { version: failed.version });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    const done = await until(
      async () => (await call('GET', `${messages}/${failed.id}`)).body as Json,
      (m) => m.status === 'sent',
    );
    expect(done.errorCode).toBeNull();
    expect((await batchOf(batch.id)).body).toMatchObject({ status: 'completed', sentCount: 1, failedCount: 0 });

    sms.answer(400);
    const calls = sms.calls.length;
    const refused = await call('POST', batches, {
      name: '短信2',
      templateId: code.id,
      audience: { userIds: [admin.id] },
      params: { code: '5678' },
    });
    expect(await finished(refused.body.id)).toMatchObject({ failedCount: 1 });
    expect(sms.calls.length).toBe(calls + 1);
  });

  it('sends a test of a template to oneself', async () => {
    const res = await call('POST', `${templates}/${notice.id}/test-send`, {
      params: { subject: '测试', body: '样例' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'delivered', title: '测试', recipientType: 'admin_user' });
    const page = (await call('GET', inbox)).body as Json;
    expect(page.data[0]).toMatchObject({ id: res.body.id, title: '测试' });
  });

  it('shows a tenant neither another tenant’s messages nor its batches, and keeps messages from deletion', async () => {
    const mine = (await call('GET', messages)).body as Json;
    expect(mine.total).toBeGreaterThan(0);
    const id = mine.data[0].id;
    expect((await call('GET', `${messages}/${id}`, undefined, s.other)).status).toBe(404);
    expect(((await call('GET', messages, undefined, s.other)).body as Json).total).toBe(0);
    expect(((await call('GET', batches, undefined, s.other)).body as Json).total).toBe(0);
    expect(((await call('GET', `${inbox}`, undefined, s.other)).body as Json).total).toBe(0);
    const other = await call('POST', `${inbox}/read`, { ids: [id] }, s.other);
    expect(other.body.count).toBe(0);
    expect((await call('DELETE', `${messages}/${id}`)).status).toBe(409);
    // a template batches were sent with is kept (it may be disabled)
    const kept = await call('DELETE', `${templates}/${notice.id}`);
    expect(kept.status).toBe(409);
    expect(kept.body.code).toBe('messageTemplate.sent');
  });
});
