import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';
import type { Channel } from '../channel/channel';

/** The SQL of message delivery (delivery.ts): claims, outcomes, the sweep, and the batches' counts. */

type External = Exclude<Channel, 'in_app'>;

type TemplateField = 'external_template_id' | 'wechat_account_id' | 'data_mapping' | 'jump_url';

export interface Due {
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
export async function countOutcome(tx: Tx, batchId: string, column: 'sent_count' | 'failed_count'): Promise<void> {
  await sql`UPDATE message_batch b SET ${sql.ref(column)} = ${sql.ref(column)} + 1,
      status = CASE WHEN b.status = 'sending' AND NOT pending.waiting THEN 'completed' ELSE b.status END,
      finished_at = CASE WHEN b.status = 'sending' AND NOT pending.waiting THEN now() ELSE b.finished_at END
    FROM (SELECT EXISTS (SELECT 1 FROM message m WHERE m.batch_id = ${batchId}::bigint
      AND m.status IN ('queued', 'sending')) AS waiting) pending
    WHERE b.id = ${batchId}::bigint`.execute(tx);
}

/**
 * The next due message, claimed for `worker` until `expires` (none when nothing is due or every due one is taken), with
 * what its template tells the provider. The template is read by its id apart from the message: it may be the platform
 * tenant's (a shared template), a row Citus would not join to the tenant's on a key without `tenant_id`.
 */
export async function claimNext(tx: Tx, worker: string, expires: Date): Promise<Due | undefined> {
  const { rows } = await sql<Omit<Due, TemplateField> & { template_id: string | null }>`
    UPDATE message SET status = 'sending', claimed_by = ${worker}, claim_expires_at = ${expires}, updated_at = now()
    WHERE id = (SELECT id FROM message WHERE status = 'queued' AND next_attempt_at <= now()
      ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id::text, batch_id::text, template_id::text, channel, address, title, content, params, retry_count`.execute(
    tx,
  );
  const claimed = rows[0];
  if (!claimed) return undefined;
  const { template_id, ...message } = claimed;
  const template = template_id
    ? await tx
        .selectFrom('message_template')
        .select([
          'external_template_id',
          sql<string | null>`wechat_account_id::text`.as('wechat_account_id'),
          'data_mapping',
          'jump_url',
        ])
        .where('id', '=', template_id)
        .executeTakeFirst()
    : undefined;
  return {
    ...message,
    external_template_id: template?.external_template_id ?? null,
    wechat_account_id: template?.wechat_account_id ?? null,
    data_mapping: template?.data_mapping ?? null,
    jump_url: template?.jump_url ?? null,
  };
}

/** Marks a message sent unless it already ended; answers whether this statement did (and so counts it). */
export async function markSent(tx: Tx, id: string): Promise<boolean> {
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
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

/**
 * Records a provider's failure while the claim is still `worker`'s: queued again in `retryInSeconds`, or failed for
 * good when that is null. Answers whether the message changed.
 */
export async function markFailure(
  tx: Tx,
  m: { id: string; worker: string; retryCount: number },
  error: { code: string; message: string },
  retryInSeconds: number | null,
): Promise<boolean> {
  const again = retryInSeconds !== null;
  const changed = await tx
    .updateTable('message')
    .set({
      status: again ? 'queued' : 'failed',
      error_code: error.code.slice(0, 50),
      error_message: error.message.slice(0, 500),
      retry_count: again ? m.retryCount + 1 : m.retryCount,
      next_attempt_at: again ? sql`now() + make_interval(secs => ${retryInSeconds})` : null,
      claimed_by: null,
      claim_expires_at: null,
    })
    .where('id', '=', m.id)
    .where('status', '=', 'sending')
    .where('claimed_by', '=', m.worker)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}

/** When the next queued message is due, if any. */
export async function nextDueAt(tx: Tx): Promise<Date | null | undefined> {
  const next = await tx
    .selectFrom('message')
    .select('next_attempt_at')
    .where('status', '=', 'queued')
    .orderBy('next_attempt_at')
    .limit(1)
    .executeTakeFirst();
  return next?.next_attempt_at;
}

/**
 * Queues again the messages whose claim expired before `now` (their worker stopped); one claimed before claims
 * expired (no expiry) counts from when it was last touched, `claimMs` later.
 */
export async function requeueExpiredClaims(tx: Tx, claimMs: number, now: Date): Promise<void> {
  await sql`UPDATE message SET status = 'queued', next_attempt_at = now(), claimed_by = NULL,
      claim_expires_at = NULL
    WHERE status = 'sending'
      AND coalesce(claim_expires_at, updated_at + make_interval(secs => ${claimMs / 1000})) < ${now}`.execute(tx);
}

/** The tenants with messages due now. */
export async function tenantsWithDueMessages(tx: Tx): Promise<string[]> {
  const due = await sql<{ tenant_id: string }>`SELECT DISTINCT tenant_id::text FROM message
    WHERE status = 'queued' AND next_attempt_at <= now()`.execute(tx);
  return due.rows.map((r) => r.tenant_id);
}
