import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
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
import {
  claimNext,
  countOutcome,
  type Due,
  lockBatches,
  markFailure,
  markSent,
  nextDueAt,
  requeueExpiredClaims,
  tenantsWithDueMessages,
} from './delivery.repository';

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
  /** Told of each message handed to a provider: sent, to be tried again, or failed for good (the metrics). */
  onDelivered?: (channel: string, status: 'sent' | 'retrying' | 'failed') => void;
}

/**
 * The channels a tenant's settings make, read once per round (a saved change applies to the next round), each under
 * the outbound guard of whoever set its address: the tenant, or the platform (core/outbound.ts).
 */
async function adaptersOf(tx: Tx, settings: SettingsService, wechat: ChannelAdapter, outbound: Outbound) {
  const text = await settings.strings(tx, {
    'message.email.smtpHost': '',
    'message.email.smtpUser': '',
    'message.email.from': '',
    'message.sms.endpoint': '',
    'message.sms.signName': '',
  });
  const secret = await settings.secrets(tx, { 'message.email.smtpPassword': '', 'message.sms.apiKey': '' });
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
      password: secret['message.email.smtpPassword'],
      from: text['message.email.from'],
      timeoutMs,
      outbound: await guard('message.email.smtpHost', 'message.email.smtpPort'),
    }),
    sms: smsChannel({
      endpoint: text['message.sms.endpoint'],
      apiKey: secret['message.sms.apiKey'],
      signName: text['message.sms.signName'],
      timeoutMs,
      outbound: await guard('message.sms.endpoint'),
    }),
    wechat_mp: wechat,
  };
  return adapters;
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
    tenancy.inTenant(tenantId, (tx) => claimNext(tx, worker, new Date(now().getTime() + claimMs)));

  /**
   * The provider accepted it: sent, whoever holds its claim now (the answer came after the claim expired: the message
   * was sent, and is not sent again if it is still waiting to be). Counted once, by the statement that made it sent.
   */
  const recordSent = (tenantId: string, m: Due) =>
    tenancy.inTenant(tenantId, async (tx) => {
      if (m.batch_id) await lockBatches(tx, [m.batch_id]);
      if ((await markSent(tx, m.id)) && m.batch_id) await countOutcome(tx, m.batch_id, 'sent_count');
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
      const changed = await markFailure(
        tx,
        { id: m.id, worker, retryCount: m.retry_count },
        { code: error.code, message: error.message },
        again ? delay : null,
      );
      if (m.batch_id && !again && changed) await countOutcome(tx, m.batch_id, 'failed_count');
      return again ? ('retrying' as const) : ('failed' as const);
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
      if (error) deps.onDelivered?.(m.channel, await recordFailure(tenantId, m, error, settingsNow.retry));
      else {
        await recordSent(tenantId, m);
        deps.onDelivered?.(m.channel, 'sent');
        sent += 1;
      }
    }
    return { sent, more: true };
  }

  /** When the tenant's next queued message is due, if any: a job is queued for then. */
  async function nextDue(tenantId: string): Promise<void> {
    const next = await tenancy.inTenant(tenantId, nextDueAt);
    if (next) await kick(tenantId, next);
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
        await requeueExpiredClaims(tx, claimMs, now());
        return tenantsWithDueMessages(tx);
      });
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
