import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Jobs } from '../../server/src/core/jobs';
import type { WriteContext } from '../../server/src/core/resource/resource';
import { SendBatch } from '../../server/src/modules/message/message/batch.resource';
import { CLAIM_MS, DELIVER } from '../../server/src/modules/message/message/delivery';
import { createMessageService } from '../../server/src/modules/message/message/message.service';
import { engines, type Json, testClock, twoTenants } from './helpers';

const START = 'message.batch.start';
const SWEEP = 'message.sweep';

/**
 * An SMTP sink that keeps every message it is given. `hold(after)` makes it answer `after` more messages, then keep the
 * next one without answering: its sender waits for the answer as a worker whose process stopped would, while the
 * message has reached the provider. `release()` answers it at last (accepted).
 */
async function smtpSink() {
  const received: string[] = [];
  let pass = -1;
  let held: (() => void) | undefined;
  let onHeld: (() => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        received.push(...session.envelope.rcptTo.map((r) => r.address));
        if (pass !== 0) {
          if (pass > 0) pass -= 1;
          return done();
        }
        pass = -1;
        held = () => done();
        onHeld?.();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    /** How many times each address was sent to. */
    counts: () => received.reduce((m, a) => m.set(a, (m.get(a) ?? 0) + 1), new Map<string, number>()),
    /** After `after` more messages, the next is kept unanswered; resolves when it has come. */
    hold: (after = 0) =>
      new Promise<void>((resolve) => {
        pass = after;
        onHeld = resolve;
      }),
    release() {
      held?.();
      held = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A job queue that runs nothing by itself: the test runs each job's handler, as one instance's worker would. */
function heldJobs() {
  const handlers = new Map<string, (data: object) => Promise<void>>();
  const schedules = new Map<string, string>();
  const jobs: Jobs = {
    define: (name, handler) => {
      handlers.set(name, handler as (data: object) => Promise<void>);
    },
    schedule: (name, cron) => {
      schedules.set(name, cron);
    },
    send: async () => {},
    prepare: async () => {},
    start: async () => {},
    stop: async () => {},
    running: true,
    depth: async () => ({}),
  };
  const run = (name: string, data: object = {}) => {
    const handler = handlers.get(name);
    if (!handler) throw new Error(`no handler ${name}`);
    return handler(data);
  };
  return { jobs, run, schedules };
}

describe.each(engines())('delivery at most once per claim on $name', (engine) => {
  // the SMTP sink listens on loopback: demo is allowed private addresses (OUTBOUND_PRIVATE_TENANTS)
  const s = twoTenants(engine, { config: { outboundPrivateTenants: ['demo'] } });
  const { call, create } = s;
  const clock = testClock();
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let mail: Json;
  let ctx: WriteContext;
  const people: string[] = [];

  /** An instance of the server as far as messages go: its own worker (and name), its own queue, the test's clock. */
  const instance = () => {
    const { services } = s.api.server;
    const { jobs, run, schedules } = heldJobs();
    const messages = createMessageService({
      tenancy: services.tenancy,
      audit: services.audit,
      catalog: services.catalog,
      settings: services.settings,
      jobs,
      outbound: services.outbound,
      metrics: services.metrics,
      config: { ...services.config, now: clock.now },
    });
    return {
      messages,
      schedules,
      /** The delivery job of this instance for the demo tenant. */
      deliver: () => run(DELIVER, { tenantId: ctx.tenantId }),
      /** The schedule's sweep, run by this instance. */
      sweep: () => run(SWEEP),
      /** A batch to `count` people, its messages written (queued) and not yet sent. */
      async batch(count: number) {
        const batch = await messages.send(
          { ...ctx, now: clock.now() },
          SendBatch.parse({ name: '停诊通知', templateId: mail.id, audience: { userIds: people.slice(0, count) } }),
        );
        await run(START, { tenantId: ctx.tenantId, batchId: batch.id });
        return batch.id;
      },
    };
  };

  const statuses = async (batchId: string) => {
    const page = (await call('GET', `/api/message/message?batchId=${batchId}&pageSize=100`)).body as Json;
    const counts: Record<string, number> = {};
    for (const m of page.data) counts[m.status] = (counts[m.status] ?? 0) + 1;
    return counts;
  };
  const batchOf = async (id: string) => (await call('GET', `/api/message/batch/${id}`)).body as Json;

  beforeAll(async () => {
    smtp = await smtpSink();
    const setting = async (key: string, value: unknown) => {
      const res = await call('PUT', `/api/system/settings/${key}`, { value });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await setting('message.email.smtpHost', '127.0.0.1');
    await setting('message.email.smtpPort', smtp.port);
    await setting('message.email.from', 'noreply@example.com');
    // a held answer is waited for well past the test (the provider's timeout would otherwise end the wait): the
    // platform's setting
    const platform = (await s.api.tokens('platform', 'admin', 'admin123')).access;
    const timeout = await call('PUT', '/api/system/settings/message.wechat.timeoutMs', { value: 60_000 }, platform);
    expect(timeout.status, JSON.stringify(timeout.body)).toBe(200);
    mail = await create('/api/message/template', {
      code: 'closing',
      name: '停诊',
      channel: 'email',
      titleTemplate: '停诊通知',
      contentTemplate: '{name}：明日停诊',
    });
    for (let i = 1; i <= 8; i += 1) {
      const user = await create('/api/system/admin', {
        userName: `reader${i}`,
        displayName: `读者${i}`,
        password: 'Quiet-Otter-42',
        email: `reader${i}@example.com`,
        roleIds: [],
        mustChangePassword: false,
      });
      people.push(user.id);
    }
    const me = (await call('GET', '/api/auth/me')).body as Json;
    const demo = await s.api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    ctx = {
      tenantId: String(demo.id),
      actorId: me.userId,
      now: clock.now(),
      ip: null,
      userAgent: null,
      lang: 'en-US',
    };
  });
  afterAll(async () => {
    smtp?.release();
    await smtp?.close();
  });

  it('a worker stopped mid-batch repeats only the message it had in flight; the rest go once, after its claim expires', async () => {
    const a = instance();
    const b = instance();
    const batchId = await a.batch(8);
    smtp.received.length = 0;

    // A's provider takes three messages, then the fourth without answering: A is stopped with it in flight
    const fourth = smtp.hold(3);
    const stopped = a.deliver();
    await fourth;
    expect(smtp.received).toHaveLength(4);
    // what the provider accepted is sent already; A holds one claim; the rest is waiting for whoever comes
    expect(await statuses(batchId)).toEqual({ sent: 3, sending: 1, queued: 4 });

    // B sends the rest meanwhile; A's claim is fresh, so its message is left to it
    await b.sweep();
    await b.deliver();
    expect(await statuses(batchId)).toEqual({ sent: 7, sending: 1 });
    expect(await batchOf(batchId)).toMatchObject({ status: 'sending', sentCount: 7, failedCount: 0 });

    // A never answers: its claim expires two minutes after it was taken, and the sweep (each minute) gives the
    // message to B
    expect(b.schedules.get(SWEEP)).toBe('* * * * *');
    clock.advance(CLAIM_MS + 1000);
    await b.sweep();
    expect(await statuses(batchId)).toEqual({ sent: 7, queued: 1 });
    await b.deliver();
    expect(await statuses(batchId)).toEqual({ sent: 8 });
    expect(await batchOf(batchId)).toMatchObject({ status: 'completed', total: 8, sentCount: 8, failedCount: 0 });

    // everyone got it; one person (the message in flight when A stopped) twice, nobody else
    const counts = smtp.counts();
    expect(counts.size).toBe(8);
    expect([...counts.values()].sort()).toEqual([1, 1, 1, 1, 1, 1, 1, 2]);

    // A's answer comes at last: the message is sent already, and counted once
    smtp.release();
    await stopped;
    expect(await statuses(batchId)).toEqual({ sent: 8 });
    expect(await batchOf(batchId)).toMatchObject({ status: 'completed', sentCount: 8, failedCount: 0 });
    expect(smtp.received).toHaveLength(9);
  });

  it('queues a message again only once its claim is older than two minutes; answered late, it is not sent again', async () => {
    const a = instance();
    const b = instance();
    const batchId = await a.batch(2);
    smtp.received.length = 0;

    const first = smtp.hold();
    const stopped = a.deliver();
    await first;
    expect(await statuses(batchId)).toEqual({ sending: 1, queued: 1 });

    // a claim a second short of two minutes old is left to its worker
    clock.advance(CLAIM_MS - 1000);
    await b.sweep();
    expect(await statuses(batchId)).toEqual({ sending: 1, queued: 1 });

    // older than two minutes, it is queued again
    clock.advance(2000);
    await b.sweep();
    expect(await statuses(batchId)).toEqual({ queued: 2 });

    // the provider's answer comes before anyone sent it again: sent, and not sent again; A goes on with the other
    smtp.release();
    await stopped;
    await b.deliver();
    expect(await statuses(batchId)).toEqual({ sent: 2 });
    expect([...smtp.counts().values()]).toEqual([1, 1]);
    expect(await batchOf(batchId)).toMatchObject({ status: 'completed', sentCount: 2, failedCount: 0 });
  });
});
