import { sql } from 'kysely';
import type { Jobs } from '../../../core/jobs';
import { platformTenant } from '../../../core/platform-tenant.repository';
import { currentTenant, type Tx } from '../../../core/tenancy';
import type { Channel } from '../channel/channel';
import { renderTemplate } from '../template/render';
import type { Audience } from './batch.resource';
import { DELIVER } from './delivery';
import type { RecipientType } from './message.resource';
import { type Named, RECIPIENT_VARIABLES, recipientsOf } from './recipients';

/**
 * The outbox: what writes messages, for a batch, a test send or a business event. A business event's messages are
 * written in the event's own transaction (`notify`), so they exist exactly when the event does.
 */

export interface TemplateRow {
  id: string;
  code: string;
  name: string;
  channel: Channel;
  business_item_code: string | null;
  title_template: string | null;
  content_template: string;
  params: string[];
  status: string;
  wechat_account_id: string | null;
}

/** What one message statement writes: a template rendered for some recipients, and what it is about. */
interface Sending {
  template: TemplateRow;
  /** The template's values common to every recipient (each recipient's own are added by the statement). */
  params: Record<string, string>;
  batchId?: string;
  actorId?: string | null;
  bizRef?: { type: string; id: string };
}

const templateColumns = [
  'id',
  'code',
  'name',
  'channel',
  'business_item_code',
  'title_template',
  'content_template',
  'params',
  'status',
  'wechat_account_id',
] as const;

/** A template the tenant may use: its own, or the platform's (row-level security shows both). */
export async function templateById(tx: Tx, id: string): Promise<TemplateRow | undefined> {
  return (await tx.selectFrom('message_template').select(templateColumns).where('id', '=', id).executeTakeFirst()) as
    | TemplateRow
    | undefined;
}

/** The template a business item sends by: the tenant's of its default code, else the platform's; enabled only. */
async function templateOfBusinessItem(tx: Tx, code: string): Promise<TemplateRow | undefined> {
  return (await tx
    .selectFrom('message_template')
    .select(templateColumns)
    .where('status', '=', 'enabled')
    .where(
      'code',
      '=',
      tx.selectFrom('business_item').select('default_template_code').where('code', '=', code).limit(1) as never,
    )
    .orderBy(sql`tenant_id = ${platformTenant}`)
    .limit(1)
    .executeTakeFirst()) as TemplateRow | undefined;
}

/**
 * Writes the messages of `sending` for the recipients `audience` takes, in one statement: the template rendered with
 * the common values (each recipient's name put in by the statement), the address its channel needs (e-mail, mobile,
 * the openid of the follower bound to the person on the template's account). In-app messages are delivered as they
 * are written; the others are queued, or failed at once without an address. Answers how many were written.
 */
export async function writeMessages(
  tx: Tx,
  sending: Sending,
  audience: Audience | Named | readonly Named[],
): Promise<number> {
  const { template, params } = sending;
  const rendered = renderTemplate(
    { titleTemplate: template.title_template, contentTemplate: template.content_template },
    { ...params, name: '{name}' },
  );
  const channel = template.channel;
  const address =
    channel === 'email'
      ? sql`r.email`
      : channel === 'sms'
        ? sql`r.mobile`
        : channel === 'wechat_mp'
          ? sql`(SELECT f.openid FROM follower f WHERE f.wechat_account_id = ${template.wechat_account_id}::bigint
              AND f.bound_person_type = r.person_type AND f.bound_person_id = r.person_id
              AND f.subscribe_status = 'subscribed' ORDER BY f.id LIMIT 1)`
          : sql`NULL::text`;
  const inApp = channel === 'in_app';
  const result = await sql`INSERT INTO message (tenant_id, batch_id, template_id, template_code, business_item_code,
      channel, recipient_type, recipient_id, recipient_name, address, title, content, params, status, error_code,
      error_message, next_attempt_at, sent_at, created_by, biz_ref_type, biz_ref_id)
    SELECT ${currentTenant}, ${sending.batchId ?? null}::bigint, ${template.id}::bigint, ${template.code},
      ${template.business_item_code}, ${channel}, r.recipient_type, r.recipient_id, r.name, a.address,
      replace(${rendered.title}::text, '{name}', coalesce(r.name, '')),
      replace(${rendered.content}::text, '{name}', coalesce(r.name, '')),
      ${JSON.stringify(params)}::jsonb || jsonb_build_object('name', coalesce(r.name, '')),
      ${inApp ? sql`'delivered'` : sql`CASE WHEN a.address IS NULL THEN 'failed' ELSE 'queued' END`},
      ${inApp ? sql`NULL` : sql`CASE WHEN a.address IS NULL THEN 'no_address' END`},
      ${inApp ? sql`NULL` : sql`CASE WHEN a.address IS NULL THEN 'the recipient has no address on this channel' END`},
      ${inApp ? sql`NULL::timestamptz` : sql`CASE WHEN a.address IS NOT NULL THEN now() END`},
      ${inApp ? sql`now()` : sql`NULL::timestamptz`},
      ${sending.actorId ?? null}::bigint, ${sending.bizRef?.type ?? null}, ${sending.bizRef?.id ?? null}::bigint
    FROM (${recipientsOf(audience)}) r CROSS JOIN LATERAL (SELECT ${address} AS address) a`.execute(tx);
  return Number(result.numAffectedRows ?? 0);
}

/** The variables a send must give a value for: the template's, less each recipient's own. */
export const missingOf = (template: TemplateRow, params: Record<string, string>) =>
  template.params.filter(
    (name) => !(RECIPIENT_VARIABLES as readonly string[]).includes(name) && !(params[name] ?? '').trim(),
  );

/** What happened, to whom, with the values its template's variables take. */
export interface BusinessEvent {
  businessItemCode: string;
  /** The people told: one group, or groups of several kinds (one statement writes them all). */
  to: Named | readonly Named[];
  params: Record<string, string>;
  bizRef?: { type: string; id: string };
  actorId?: string | null;
}

/**
 * A business event's messages (an activity published, a registration or a qualification decided, a qualification
 * expiring), in the event's transaction: by the template its business item names (the tenant's of that code, else the
 * platform's), to the people named. Nothing when the business item has no enabled template. Messages that go through
 * a provider are delivered by a job shortly after (the sweep finds them should it come before the commit).
 */
export async function notify(tx: Tx, jobs: Jobs, event: BusinessEvent): Promise<number> {
  const groups: readonly Named[] = Array.isArray(event.to) ? event.to : [event.to];
  if (groups.every((group) => group.ids.length === 0)) return 0;
  const template = await templateOfBusinessItem(tx, event.businessItemCode);
  if (!template) return 0;
  const written = await writeMessages(
    tx,
    { template, params: event.params, actorId: event.actorId, bizRef: event.bizRef },
    groups,
  );
  if (written && template.channel !== 'in_app') {
    const row = await sql<{ t: string }>`SELECT ${currentTenant}::text AS t`.execute(tx);
    await jobs.send(DELIVER, { tenantId: row.rows[0]?.t }, { startAfter: new Date(Date.now() + 2000) });
  }
  return written;
}

const shown = new Intl.DateTimeFormat('zh-CN', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
/** An instant as a message shows it: China's time, to the minute (`2026/12/01 08:00`). */
export const messageTime = (iso: string | Date): string => shown.format(new Date(iso));
