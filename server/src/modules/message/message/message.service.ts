import { sql } from 'kysely';
import type { Config } from '../../../config';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Jobs } from '../../../core/jobs';
import type { Metrics } from '../../../core/metrics';
import type { Outbound } from '../../../core/outbound';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import type { SettingsService } from '../../system/settings/settings.service';
import { renderTemplate } from '../template/render';
import { type BatchPreview, batchResource, type MessageBatch, type SendBatch } from './batch.resource';
import { createDelivery, DELIVER } from './delivery';
import { lockBatches, recountBatches } from './delivery.repository';
import { type Message, messageResource, type NoCreate, type NoUpdate } from './message.resource';
import { missingOf, templateById, writeMessages } from './outbox';
import { recipientsOf } from './recipients';

const START = 'message.batch.start';
const SWEEP = 'message.sweep';

const texts = {
  'zh-CN': { missing: '模板变量未填写', past: '定时发送的时间须在将来', noTemplate: '模板不存在' },
  'en-US': {
    missing: 'the template needs a value for it',
    past: 'must be in the future',
    noTemplate: 'no such template',
  },
};

/**
 * Messages (docs/domain.md §6.2): batches sent to an audience through a template, now or at a time (a job expands
 * the audience into messages; the channel's jobs deliver them, with retries); the inbox of each console user (the
 * header's bell); the messages of business events are written by `notify` (./outbox.ts).
 */
export function createMessageService(
  deps: ResourceDeps & { jobs: Jobs; settings: SettingsService; config: Config; outbound: Outbound; metrics: Metrics },
) {
  const { tenancy, jobs, settings, config, outbound, metrics } = deps;
  const delivery = createDelivery({
    tenancy,
    settings,
    jobs,
    wechat: { tenancy, settings, config },
    outbound,
    now: config.now,
    claimMs: config.messageClaimMs,
    onDelivered: metrics.messageDelivered,
  });

  const messageStore: ResourceStore<Message, NoCreate, NoUpdate> = {
    ...messageResource.store,
    async create() {
      throw notFound();
    },
    async update() {
      throw notFound();
    },
    async remove() {
      throw new AppError('message.kept');
    },
  };
  const messages = createResourceService(messageResource, messageStore, deps);

  async function prepare(tx: Tx, input: SendBatch, ctx: WriteContext) {
    const t = texts[ctx.lang];
    const template = await templateById(tx, input.templateId);
    if (!template) throw invalidField('templateId', t.noTemplate);
    if (template.status !== 'enabled') throw new AppError('message.templateUnusable', { code: template.code });
    const missing = missingOf(template, input.params);
    if (missing.length) throw invalidField(`params.${missing[0]}`, t.missing);
    if (input.scheduledAt && new Date(input.scheduledAt).getTime() <= ctx.now.getTime())
      throw invalidField('scheduledAt', t.past);
    return template;
  }

  const batchStore: ResourceStore<MessageBatch, SendBatch, { version: number }> = {
    ...batchResource.store,
    async create(tx, input, ctx) {
      const template = await prepare(tx, input, ctx);
      const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count
        FROM (${recipientsOf(input.audience)}) r`.execute(tx);
      const count = rows[0]?.count ?? 0;
      if (count === 0) throw new AppError('message.noRecipients');
      const row = await tx
        .insertInto('message_batch')
        .values({
          tenant_id: ctx.tenantId,
          name: input.name,
          template_id: template.id,
          template_code: template.code,
          channel: template.channel,
          audience: JSON.stringify(input.audience) as never,
          common_params: JSON.stringify(input.params) as never,
          total: count,
          status: 'scheduled',
          scheduled_at: input.scheduledAt ? new Date(input.scheduledAt) : null,
          created_at: ctx.now,
          created_by: ctx.actorId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await batchResource.store.find(tx, String(row.id))) as MessageBatch;
    },
    async update() {
      throw notFound();
    },
    async remove() {
      throw new AppError('message.kept');
    },
  };
  const batches = createResourceService(batchResource, batchStore, deps);

  /** The job: the batch's audience (as it is now) becomes its messages; then the channel's delivery. */
  async function startBatch({ tenantId, batchId }: { tenantId: string; batchId: string }): Promise<void> {
    const external = await tenancy.inTenant(tenantId, async (tx) => {
      const batch = await tx
        .selectFrom('message_batch')
        .selectAll()
        .where('id', '=', batchId)
        .forUpdate()
        .executeTakeFirst();
      if (!batch || batch.status !== 'scheduled') return false;
      if (batch.scheduled_at && batch.scheduled_at.getTime() > Date.now() + 1000) {
        await jobs.send(START, { tenantId, batchId }, { startAfter: batch.scheduled_at });
        return false;
      }
      const template = await templateById(tx, String(batch.template_id));
      if (!template) return false;
      const total = await writeMessages(
        tx,
        { template, params: batch.common_params, batchId, actorId: batch.created_by ? String(batch.created_by) : null },
        batch.audience,
      );
      await tx
        .updateTable('message_batch')
        .set({ status: 'sending', started_at: sql`now()`, total })
        .where('id', '=', batchId)
        .execute();
      await recountBatches(tx, [batchId]);
      return template.channel !== 'in_app';
    });
    if (external) await delivery.kick(tenantId);
  }

  jobs.define(START, startBatch);
  jobs.define(DELIVER, delivery.deliver, { retryLimit: 1 });
  jobs.define(SWEEP, async () => {
    for (const tenantId of await delivery.sweep()) await delivery.kick(tenantId);
    const due = await tenancy.asSystem(async (tx) =>
      tx
        .selectFrom('message_batch')
        .select(['tenant_id', 'id'])
        .where('status', '=', 'scheduled')
        .where((eb) => eb.or([eb('scheduled_at', 'is', null), eb('scheduled_at', '<=', sql<Date>`now()`)]))
        .execute(),
    );
    for (const b of due) await jobs.send(START, { tenantId: String(b.tenant_id), batchId: String(b.id) });
  });
  jobs.schedule(SWEEP, '* * * * *');

  const ownInbox = (tx: Tx, userId: string) =>
    tx
      .selectFrom('message')
      .where('recipient_type', '=', 'admin_user')
      .where('channel', '=', 'in_app')
      .where('recipient_id', '=', userId);

  return {
    resource: messages,
    batches,

    /** A batch is written (scheduled), then its job starts it: now, or at its time. */
    async send(ctx: WriteContext, input: SendBatch): Promise<MessageBatch> {
      const batch = await batches.create(ctx, input);
      await jobs.send(
        START,
        { tenantId: ctx.tenantId, batchId: batch.id },
        { startAfter: batch.scheduledAt ? new Date(batch.scheduledAt) : undefined },
      );
      return batch;
    },

    /** How many the audience takes now, the variables left without a value, and the message of its first person. */
    preview: (ctx: WriteContext, input: SendBatch) =>
      tenancy.inTenant(ctx.tenantId, async (tx): Promise<BatchPreview> => {
        const template = await templateById(tx, input.templateId);
        if (!template) throw invalidField('templateId', texts[ctx.lang].noTemplate);
        const recipients = sql`(${recipientsOf(input.audience)})`;
        const stats = await sql<{ count: number; name: string | null }>`SELECT count(*) OVER ()::int AS count, r.name
          FROM ${recipients} r ORDER BY r.recipient_type, r.recipient_id LIMIT 1`.execute(tx);
        const first = stats.rows[0];
        const rendered = renderTemplate(
          { titleTemplate: template.title_template, contentTemplate: template.content_template },
          { ...input.params, name: first?.name ?? '' },
        );
        return {
          recipients: first?.count ?? 0,
          missing: missingOf(template, input.params),
          sample: first ? { recipientName: first.name, title: rendered.title, content: rendered.content } : null,
        };
      }),

    /** A scheduled batch is not started; a batch sending keeps what went and sends nothing more. */
    cancel: (ctx: WriteContext, id: string, version: number) =>
      batches.act(ctx, id, 'send', async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (row.status !== 'scheduled' && row.status !== 'sending')
          throw new AppError('message.batchNotCancellable', { status: row.status });
        await lockBatches(tx, [id]);
        await tx
          .updateTable('message')
          .set({ status: 'cancelled', next_attempt_at: null })
          .where('batch_id', '=', id)
          .where('status', '=', 'queued')
          .execute();
        await recountBatches(tx, [id]);
        await tx
          .updateTable('message_batch')
          .set({
            status: 'cancelled',
            finished_at: sql`now()`,
            updated_at: ctx.now,
            updated_by: ctx.actorId,
            version: sql`version + 1`,
          })
          .where('id', '=', id)
          .execute();
        return (await batchResource.store.find(tx, id)) as MessageBatch;
      }),

    /** The failed messages of a batch are queued again, each from its first try. */
    async retryBatch(ctx: WriteContext, id: string, version: number): Promise<MessageBatch> {
      const batch = await batches.act(ctx, id, 'retry', async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        await lockBatches(tx, [id]);
        const retried = await tx
          .updateTable('message')
          .set({ status: 'queued', retry_count: 0, next_attempt_at: sql`now()`, error_code: null, error_message: null })
          .where('batch_id', '=', id)
          .where('status', '=', 'failed')
          .executeTakeFirst();
        if (Number(retried.numUpdatedRows) === 0) throw new AppError('message.notFailed');
        await tx
          .updateTable('message_batch')
          .set({
            status: 'sending',
            finished_at: null,
            updated_at: ctx.now,
            updated_by: ctx.actorId,
            version: sql`version + 1`,
          })
          .where('id', '=', id)
          .execute();
        await recountBatches(tx, [id]);
        return (await batchResource.store.find(tx, id)) as MessageBatch;
      });
      await delivery.kick(ctx.tenantId);
      return batch;
    },

    /** One failed message is queued again. */
    async retry(ctx: WriteContext, id: string, version: number): Promise<Message> {
      const message = await messages.act(ctx, id, 'retry', async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (row.status !== 'failed') throw new AppError('message.notFailed');
        await tx
          .updateTable('message')
          .set({
            status: 'queued',
            retry_count: 0,
            next_attempt_at: sql`now()`,
            error_code: null,
            error_message: null,
            updated_at: ctx.now,
            updated_by: ctx.actorId,
            version: sql`version + 1`,
          })
          .where('id', '=', id)
          .execute();
        if (row.batchId) {
          await tx
            .updateTable('message_batch')
            .set({ status: 'sending', finished_at: null })
            .where('id', '=', row.batchId)
            .where('status', '=', 'completed')
            .execute();
          await recountBatches(tx, [row.batchId]);
        }
        return (await messageResource.store.find(tx, id)) as Message;
      });
      await delivery.kick(ctx.tenantId);
      return message;
    },

    /** A template sent to the signed-in user alone, with sample values (the template screen's test send). */
    async testSend(ctx: WriteContext, templateId: string, params: Record<string, string>): Promise<Message> {
      const id = await tenancy.inTenant(ctx.tenantId, async (tx) => {
        const template = await templateById(tx, templateId);
        if (!template) throw notFound();
        const written = await writeMessages(
          tx,
          { template, params, actorId: ctx.actorId, bizRef: { type: 'message_template', id: templateId } },
          { type: 'admin_user', ids: [ctx.actorId] },
        );
        if (written === 0) throw new AppError('message.noRecipients');
        const row = await tx
          .selectFrom('message')
          .where('recipient_type', '=', 'admin_user')
          .where('recipient_id', '=', ctx.actorId)
          .where('template_id', '=', templateId)
          .select('id')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow();
        return String(row.id);
      });
      if (
        await tenancy.inTenant(
          ctx.tenantId,
          async (tx) => (await messageResource.store.find(tx, id))?.status === 'queued',
        )
      )
        await delivery.kick(ctx.tenantId);
      return messages.get(ctx.tenantId, id);
    },

    inbox: {
      unreadCount: (tenantId: string, userId: string) =>
        tenancy.inTenant(tenantId, async (tx) => {
          const row = await ownInbox(tx, userId)
            .where('status', '=', 'delivered')
            .select(sql<number>`count(*)::int`.as('count'))
            .executeTakeFirstOrThrow();
          return row.count;
        }),

      list: (tenantId: string, userId: string, query: { current: number; pageSize: number; unread?: boolean }) =>
        tenancy.inTenant(tenantId, async (tx) => {
          let q = ownInbox(tx, userId);
          if (query.unread) q = q.where('status', '=', 'delivered');
          const rows = await q
            .select([
              'id',
              'title',
              'content',
              'business_item_code',
              'biz_ref_type',
              'biz_ref_id',
              'created_at',
              'read_at',
            ])
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .offset((query.current - 1) * query.pageSize)
            .limit(query.pageSize)
            .execute();
          const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
          return {
            data: rows.map((r) => ({
              id: String(r.id),
              title: r.title,
              content: r.content,
              businessItemCode: r.business_item_code,
              bizRefType: r.biz_ref_type,
              bizRefId: r.biz_ref_id === null ? null : String(r.biz_ref_id),
              createdAt: r.created_at.toISOString(),
              readAt: r.read_at?.toISOString() ?? null,
            })),
            total,
            current: query.current,
            pageSize: query.pageSize,
          };
        }),

      /** Marks the user's own messages read (`ids`, or all); answers how many were unread. */
      markRead: (tenantId: string, userId: string, ids: readonly string[] | 'all') =>
        tenancy.inTenant(tenantId, async (tx) => {
          let q = tx
            .updateTable('message')
            .set({ status: 'read', read_at: sql`now()` })
            .where('recipient_type', '=', 'admin_user')
            .where('channel', '=', 'in_app')
            .where('recipient_id', '=', userId)
            .where('status', '=', 'delivered');
          if (ids !== 'all') q = q.where('id', 'in', ids.length ? [...ids] : ['0']);
          const read = await q.returning('batch_id').execute();
          const batchIds = [...new Set(read.flatMap((r) => (r.batch_id ? [String(r.batch_id)] : [])))];
          await recountBatches(tx, batchIds);
          return read.length;
        }),
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
