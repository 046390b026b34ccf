import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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

/** How many messages a round sends, one after the other, before it reads the tenant's settings again. */
const ROUND = 50;
/**
 * How long a claim lasts. A message is sent within seconds of its claim (a provider's answer is waited for at most
 * `message.wechat.timeoutMs`, a minute at most), so a message still `sending` when its claim expires was left by a
 * stopped worker: the sweep queues it again.
 */
export const CLAIM_MS = 2 * 60_000;
export const DELIVER = 'message.deliver';

type External = Exclude<Channel, 'in_app'>;

export interface DeliveryDeps {
  tenancy: Tenancy;
  settings: SettingsService;
  jobs: Jobs;
  wechat: WechatConnectionDeps;
  outbound: Outbound;
  logger?: Logger;
  /** The clock claims are dated by (`config.now`; tests move it). */
  now?: () => Date;
  /** Who claims, as the messages it is sending say: by default this process (host, pid and a random tag). */
  worker?: string;
  /** How long a claim lasts (`MESSAGE_CLAIM_SECONDS`); `CLAIM_MS` by default. */
  claimMs?: number;
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

/**
 * The batches' rows locked, in order: a count is then read and written by one writer at a time. Whatever changes a
 * batch's messages and counts takes its batch first, then the messages, so that no two writers wait on each other.
 */
export const lockBatches = (tx: Tx, batchIds: readonly string[]) =>
  sql`SELECT id FROM message_batch WHERE id = ANY(${batchIds}::bigint[]) ORDER BY id FOR UPDATE`.execute(tx);

/** Sets a batch's counts from its messages, and completes it when none is left to send. */
export async function recountBatches(tx: Tx, batchIds: readonly string[]): Promise<void> {
  if (batchIds.length === 0) return;
  const ids = [...new Set(batchIds)];
  // locked first, so that the count (a statement of its own, which sees what committed meanwhile) is not overwritten
  // by, nor overwrites, a message's outcome counted at the same time
  await lockBatches(tx, ids);
  await sql`UPDATE message_batch b SET
      sent_count = c.sent, failed_count = c.failed, read_count = c.read,
      status = CASE WHEN b.status = 'sending' AND c.pending = 0 THEN 'completed' ELSE b.status END,
      finished_at = CASE WHEN b.status = 'sending' AND c.pending = 0 THEN now() ELSE b.finished_at END
    FROM (SELECT m.batch_id,
        count(*) FILTER (WHERE m.status IN ('sent', 'delivered', 'read'))::int AS sent,
        count(*) FILTER (WHERE m.status = 'failed')::int AS failed,
        count(*) FILTER (WHERE m.status = 'read')::int AS read,
        count(*) FILTER (WHERE m.status IN ('queued', 'sending'))::int AS pending
      FROM message m WHERE m.batch_id = ANY(${ids}::bigint[]) GROUP BY m.batch_id) c
    WHERE b.id = c.batch_id`.execute(tx);
}

/**
 * One more message of the batch sent (or failed for good), in the transaction that recorded it (after the batch's
 * row was locked): the batch completes when none of its messages is left queued or being sent.
 */
async function countOutcome(tx: Tx, batchId: string, column: 'sent_count' | 'failed_count'): Promise<void> {
  await sql`UPDATE message_batch b SET ${sql.ref(column)} = ${sql.ref(column)} + 1,
      status = CASE WHEN b.status = 'sending' AND NOT pending.waiting THEN 'completed' ELSE b.status END,
      finished_at = CASE WHEN b.status = 'sending' AND NOT pending.waiting THEN now() ELSE b.finished_at END
    FROM (SELECT EXISTS (SELECT 1 FROM message m WHERE m.batch_id = ${batchId}::bigint
      AND m.status IN ('queued', 'sending')) AS waiting) pending
    WHERE b.id = ${batchId}::bigint`.execute(tx);
}

/**
 * Delivery of the messages that go out through a provider (e-mail, SMS, WeChat), at most once per claim. A worker
 * (the delivery job of one process) claims one due message at a time: marked `sending`, with the worker's name and a
 * claim that expires in two minutes, by one statement that commits before the provider is called. The provider is
 * called outside any transaction, and its answer is recorded at once, in a short transaction of its own: sent; failed
 * for good (a refusal, or the last retry); or queued again after a back-off that doubles each time (the settings
 * `message.retry.*`), with a job at that time. A worker that stops (a crash, a kill) leaves at most the one message it
 * was sending, which the sweep queues again once its claim has expired: that one may reach its recipient twice, no
 * other can. Rounds go on until nothing is due.
 */
export function createDelivery(deps: DeliveryDeps) {
  const { tenancy, settings, jobs, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const claimMs = deps.claimMs ?? CLAIM_MS;
  const worker = (deps.worker ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(0, 100);
  const wechat = wechatChannel(deps.wechat);

  /** The channels and retry settings of the tenant, read once per round (a saved change applies to the next one). */
  const settingsOf = (tenantId: string) =>
    tenancy.inTenant(tenantId, async (tx) => ({
      adapters: await adaptersOf(tx, settings, wechat, deps.outbound),
      retry: await settings.numbers(tx, { 'message.retry.maxAttempts': 3, 'message.retry.baseSeconds': 30 }),
    }));

  /** The tenant's next due message, claimed by this worker (none when nothing is due or every due one is taken). */
  const claim = (tenantId: string): Promise<Due | undefined> =>
    tenancy.inTenant(tenantId, async (tx) => {
      const expires = new Date(now().getTime() + claimMs);
      const { rows } = await sql<Due>`WITH claimed AS (
          UPDATE message SET status = 'sending', claimed_by = ${worker}, claim_expires_at = ${expires},
            updated_at = now()
          WHERE id = (SELECT id FROM message WHERE status = 'queued' AND next_attempt_at <= now()
            ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING id, batch_id, template_id, channel, address, title, content, params, retry_count)
        SELECT c.id::text, c.batch_id::text, c.channel, c.address, c.title, c.content, c.params, c.retry_count,
          t.external_template_id, t.wechat_account_id::text, t.data_mapping, t.jump_url
        FROM claimed c LEFT JOIN message_template t ON t.id = c.template_id`.execute(tx);
      return rows[0];
    });

  /**
   * The provider accepted it: sent, whoever holds its claim now (the answer came after the claim expired: the message
   * was sent, and is not sent again if it is still waiting to be). Counted once, by the statement that made it sent.
   */
  const recordSent = (tenantId: string, m: Due) =>
    tenancy.inTenant(tenantId, async (tx) => {
      if (m.batch_id) await lockBatches(tx, [m.batch_id]);
      const changed = await tx
        .updateTable('message')
        .set({
          status: 'sent',
          sent_at: sql`now()`,
          error_code: null,
          error_message: null,
          next_attempt_at: null,
          claimed_by: null,
          claim_expires_at: null,
        })
        .where('id', '=', m.id)
        .where('status', 'in', ['queued', 'sending'])
        .executeTakeFirst();
      if (m.batch_id && Number(changed.numUpdatedRows) === 1) await countOutcome(tx, m.batch_id, 'sent_count');
    });

  /** The provider refused it or could not be reached: recorded only while the claim is still this worker's. */
  const recordFailure = (
    tenantId: string,
    m: Due,
    error: ChannelError,
    retry: { 'message.retry.maxAttempts': number; 'message.retry.baseSeconds': number },
  ) =>
    tenancy.inTenant(tenantId, async (tx) => {
      if (m.batch_id) await lockBatches(tx, [m.batch_id]);
      const again = error.retryable && m.retry_count < retry['message.retry.maxAttempts'];
      const delay = retry['message.retry.baseSeconds'] * 2 ** m.retry_count;
      const changed = await tx
        .updateTable('message')
        .set({
          status: again ? 'queued' : 'failed',
          error_code: error.code.slice(0, 50),
          error_message: error.message.slice(0, 500),
          retry_count: again ? m.retry_count + 1 : m.retry_count,
          next_attempt_at: again ? sql`now() + make_interval(secs => ${delay})` : null,
          claimed_by: null,
          claim_expires_at: null,
        })
        .where('id', '=', m.id)
        .where('status', '=', 'sending')
        .where('claimed_by', '=', worker)
        .executeTakeFirst();
      if (m.batch_id && !again && Number(changed.numUpdatedRows) === 1)
        await countOutcome(tx, m.batch_id, 'failed_count');
    });

  const send = async (tenantId: string, adapters: Record<External, ChannelAdapter>, m: Due) => {
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
      return undefined;
    } catch (err) {
      return err instanceof ChannelError
        ? err
        : new ChannelError('error', String((err as Error)?.message ?? err), true);
    }
  };

  /** Up to `ROUND` messages, each claimed, sent and recorded before the next is claimed. */
  async function round(tenantId: string): Promise<{ sent: number; more: boolean }> {
    let settingsNow: Awaited<ReturnType<typeof settingsOf>> | undefined;
    let sent = 0;
    for (let i = 0; i < ROUND; i += 1) {
      const m = await claim(tenantId);
      if (!m) return { sent, more: false };
      settingsNow ??= await settingsOf(tenantId);
      const error = await send(tenantId, settingsNow.adapters, m);
      if (error) await recordFailure(tenantId, m, error, settingsNow.retry);
      else {
        await recordSent(tenantId, m);
        sent += 1;
      }
    }
    return { sent, more: true };
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
    /** The name this worker's claims carry. */
    worker,

    /** The job: rounds until nothing of the tenant is due, then a job for its next retry. */
    async deliver({ tenantId }: { tenantId: string }): Promise<void> {
      let sent = 0;
      for (;;) {
        const r = await round(tenantId);
        sent += r.sent;
        if (!r.more) break;
      }
      if (sent) logger?.info({ tenantId, sent, worker }, 'messages sent');
      await nextDue(tenantId);
    },

    /**
     * The schedule's sweep (every minute, as the system): messages whose claim has expired (their worker stopped) are
     * queued again, and each tenant with messages due gets a delivery job (one lost with an in-process queue is found
     * here). A message claimed before claims expired (no expiry) counts from when it was last touched.
     */
    async sweep(): Promise<string[]> {
      return tenancy.asSystem(async (tx) => {
        await sql`UPDATE message SET status = 'queued', next_attempt_at = now(), claimed_by = NULL,
            claim_expires_at = NULL
          WHERE status = 'sending'
            AND coalesce(claim_expires_at, updated_at + make_interval(secs => ${claimMs / 1000})) < ${now()}`.execute(
          tx,
        );
        const due = await sql<{ tenant_id: string }>`SELECT DISTINCT tenant_id::text FROM message
          WHERE status = 'queued' AND next_attempt_at <= now()`.execute(tx);
        return due.rows.map((r) => r.tenant_id);
      });
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
