import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Jobs } from '../../../core/jobs';
import type { Outbound } from '../../../core/outbound';
import type { Tenancy, Tx } from '../../../core/tenancy';
import type { SettingsService } from '../../system/settings/settings.service';
import { type Channel, type ChannelAdapter, ChannelError, type Outgoing } from '../channel/channel';
import { emailChannel } from '../channel/email';
import { smsChannel } from '../channel/sms';
import { wechatChannel } from '../wechat/wechat-channel';
import type { WechatConnectionDeps } from '../wechat/wechat-connection';

/** How many due messages one round takes (marked `sending` together), and how many of them go out at once. */
const ROUND = 50;
const PARALLEL = 5;
/** A message `sending` this long was left by a stopped process: it is queued again. */
const STALE_SENDING = '10 minutes';
export const DELIVER = 'message.deliver';

type External = Exclude<Channel, 'in_app'>;

export interface DeliveryDeps {
  tenancy: Tenancy;
  settings: SettingsService;
  jobs: Jobs;
  wechat: WechatConnectionDeps;
  outbound: Outbound;
  logger?: Logger;
}

/**
 * The channels a tenant's settings make, read once per round (a saved change applies to the next round), each under
 * the outbound guard of whoever set its address: the tenant, or the platform (core/outbound.ts).
 */
async function adaptersOf(tx: Tx, settings: SettingsService, wechat: ChannelAdapter, outbound: Outbound) {
  const text = await settings.strings(tx, {
    'message.email.smtpHost': '',
    'message.email.smtpUser': '',
    'message.email.smtpPassword': '',
    'message.email.from': '',
    'message.sms.endpoint': '',
    'message.sms.apiKey': '',
    'message.sms.signName': '',
  });
  const numbers = await settings.numbers(tx, {
    'message.email.smtpPort': 587,
    'message.wechat.timeoutMs': 5000,
  });
  const { 'message.email.smtpSecure': secure } = await settings.booleans(tx, { 'message.email.smtpSecure': false });
  const timeoutMs = numbers['message.wechat.timeoutMs'];
  const guard = async (...keys: string[]) => outbound.of(await settings.addressOwner(tx, keys));
  const adapters: Record<External, ChannelAdapter> = {
    email: emailChannel({
      host: text['message.email.smtpHost'],
      port: numbers['message.email.smtpPort'],
      secure,
      user: text['message.email.smtpUser'],
      password: text['message.email.smtpPassword'],
      from: text['message.email.from'],
      timeoutMs,
      outbound: await guard('message.email.smtpHost', 'message.email.smtpPort'),
    }),
    sms: smsChannel({
      endpoint: text['message.sms.endpoint'],
      apiKey: text['message.sms.apiKey'],
      signName: text['message.sms.signName'],
      timeoutMs,
      outbound: await guard('message.sms.endpoint'),
    }),
    wechat_mp: wechat,
  };
  return adapters;
}

interface Due {
  id: string;
  batch_id: string | null;
  channel: External;
  address: string | null;
  title: string | null;
  content: string;
  params: Record<string, string>;
  retry_count: number;
  external_template_id: string | null;
  wechat_account_id: string | null;
  data_mapping: unknown;
  jump_url: string | null;
}

type Outcome = { id: string; sent: true } | { id: string; sent: false; error: ChannelError; retry_count: number };

/** Sets a batch's counts from its messages, and completes it when none is left to send. */
export async function recountBatches(tx: Tx, batchIds: readonly string[]): Promise<void> {
  if (batchIds.length === 0) return;
  await sql`UPDATE message_batch b SET
      sent_count = c.sent, failed_count = c.failed, read_count = c.read,
      status = CASE WHEN b.status = 'sending' AND c.pending = 0 THEN 'completed' ELSE b.status END,
      finished_at = CASE WHEN b.status = 'sending' AND c.pending = 0 THEN now() ELSE b.finished_at END
    FROM (SELECT m.batch_id,
        count(*) FILTER (WHERE m.status IN ('sent', 'delivered', 'read'))::int AS sent,
        count(*) FILTER (WHERE m.status = 'failed')::int AS failed,
        count(*) FILTER (WHERE m.status = 'read')::int AS read,
        count(*) FILTER (WHERE m.status IN ('queued', 'sending'))::int AS pending
      FROM message m WHERE m.batch_id = ANY(${[...new Set(batchIds)]}::bigint[]) GROUP BY m.batch_id) c
    WHERE b.id = c.batch_id`.execute(tx);
}

/**
 * Delivery of the messages that go out through a provider (e-mail, SMS, WeChat): a round takes the tenant's due
 * messages (marked `sending` in a short transaction), sends them outside any transaction, and records each outcome:
 * sent; failed for good (a refusal, or the last retry); or queued again after a back-off that doubles each time (the
 * settings `message.retry.*`), with a job at that time. Rounds go on until nothing is due.
 */
export function createDelivery(deps: DeliveryDeps) {
  const { tenancy, settings, jobs, logger } = deps;
  const wechat = wechatChannel(deps.wechat);

  const claim = (tenantId: string) =>
    tenancy.inTenant(tenantId, async (tx) => {
      const due =
        await sql<Due>`SELECT m.id::text, m.batch_id::text, m.channel, m.address, m.title, m.content, m.params,
          m.retry_count, t.external_template_id, t.wechat_account_id::text, t.data_mapping, t.jump_url
        FROM message m LEFT JOIN message_template t ON t.id = m.template_id
        WHERE m.status = 'queued' AND m.next_attempt_at <= now()
        ORDER BY m.next_attempt_at LIMIT ${ROUND} FOR UPDATE OF m SKIP LOCKED`.execute(tx);
      if (due.rows.length === 0) return undefined;
      await tx
        .updateTable('message')
        .set({ status: 'sending', updated_at: sql`now()` })
        .where(
          'id',
          'in',
          due.rows.map((r) => r.id),
        )
        .execute();
      const retry = await settings.numbers(tx, { 'message.retry.maxAttempts': 3, 'message.retry.baseSeconds': 30 });
      return { due: due.rows, adapters: await adaptersOf(tx, settings, wechat, deps.outbound), retry };
    });

  const sendOne = async (tenantId: string, adapters: Record<External, ChannelAdapter>, m: Due): Promise<Outcome> => {
    const outgoing: Outgoing = {
      tenantId,
      address: m.address,
      title: m.title,
      content: m.content,
      params: m.params,
      externalTemplateId: m.external_template_id,
      extra: { wechatAccountId: m.wechat_account_id, dataMapping: m.data_mapping, url: m.jump_url },
    };
    try {
      await adapters[m.channel].send(outgoing);
      return { id: m.id, sent: true };
    } catch (err) {
      const error =
        err instanceof ChannelError ? err : new ChannelError('error', String((err as Error)?.message ?? err), true);
      return { id: m.id, sent: false, error, retry_count: m.retry_count };
    }
  };

  async function round(tenantId: string): Promise<{ sent: number; more: boolean }> {
    const claimed = await claim(tenantId);
    if (!claimed) return { sent: 0, more: false };
    const { due, adapters, retry } = claimed;
    const outcomes: Outcome[] = [];
    for (let i = 0; i < due.length; i += PARALLEL)
      outcomes.push(...(await Promise.all(due.slice(i, i + PARALLEL).map((m) => sendOne(tenantId, adapters, m)))));
    await tenancy.inTenant(tenantId, async (tx) => {
      const sent = outcomes.filter((o) => o.sent).map((o) => o.id);
      if (sent.length)
        await tx
          .updateTable('message')
          .set({ status: 'sent', sent_at: sql`now()`, error_code: null, error_message: null, next_attempt_at: null })
          .where('id', 'in', sent)
          .execute();
      for (const o of outcomes) {
        if (o.sent) continue;
        const again = o.error.retryable && o.retry_count < retry['message.retry.maxAttempts'];
        const delay = retry['message.retry.baseSeconds'] * 2 ** o.retry_count;
        await tx
          .updateTable('message')
          .set({
            status: again ? 'queued' : 'failed',
            error_code: o.error.code.slice(0, 50),
            error_message: o.error.message.slice(0, 500),
            retry_count: again ? o.retry_count + 1 : o.retry_count,
            next_attempt_at: again ? sql`now() + make_interval(secs => ${delay})` : null,
          })
          .where('id', '=', o.id)
          .execute();
      }
      await recountBatches(
        tx,
        due.flatMap((m) => (m.batch_id ? [m.batch_id] : [])),
      );
    });
    return { sent: outcomes.filter((o) => o.sent).length, more: due.length === ROUND };
  }

  /** When the tenant's next queued message is due, if any: a job is queued for then. */
  async function nextDue(tenantId: string): Promise<void> {
    const next = await tenancy.inTenant(tenantId, (tx) =>
      tx
        .selectFrom('message')
        .select('next_attempt_at')
        .where('status', '=', 'queued')
        .orderBy('next_attempt_at')
        .limit(1)
        .executeTakeFirst(),
    );
    if (next?.next_attempt_at) await kick(tenantId, next.next_attempt_at);
  }

  /** Queues a delivery job for the tenant (now, or when its next message is due). */
  async function kick(tenantId: string, at?: Date): Promise<void> {
    const later = at && at.getTime() > Date.now() + 500 ? at : undefined;
    await jobs.send(DELIVER, { tenantId }, { startAfter: later });
  }

  return {
    kick,

    /** The job: rounds until nothing of the tenant is due, then a job for its next retry. */
    async deliver({ tenantId }: { tenantId: string }): Promise<void> {
      let sent = 0;
      for (;;) {
        const r = await round(tenantId);
        sent += r.sent;
        if (!r.more) break;
      }
      if (sent) logger?.info({ tenantId, sent }, 'messages sent');
      await nextDue(tenantId);
    },

    /**
     * The schedule's sweep (every minute, as the system): messages a stopped process left `sending` are queued again,
     * and each tenant with messages due gets a delivery job (one lost with an in-process queue is found here).
     */
    async sweep(): Promise<string[]> {
      return tenancy.asSystem(async (tx) => {
        await sql`UPDATE message SET status = 'queued', next_attempt_at = now()
          WHERE status = 'sending' AND updated_at < now() - ${STALE_SENDING}::interval`.execute(tx);
        const due = await sql<{ tenant_id: string }>`SELECT DISTINCT tenant_id::text FROM message
          WHERE status = 'queued' AND next_attempt_at <= now()`.execute(tx);
        return due.rows.map((r) => r.tenant_id);
      });
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
