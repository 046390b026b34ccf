import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, NullableTimestamp, Ref } from '../../../db/types';
import { CHANNELS, type Channel } from '../channel/channel';

/**
 * Message batches (docs/domain.md §6.2): a template sent to an audience, now or at a time. The audience is expanded
 * into one message per recipient when the batch starts (a job), then the channel's messages are delivered (jobs).
 */
export const BATCH_STATUSES = ['scheduled', 'sending', 'completed', 'cancelled'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

const Ids = (table: 'admin_user' | 'role' | 'organization' | 'trainee' | 'trainee_type') =>
  z.array(ref(table)).max(1000).default([]);
/**
 * Who a batch goes to. Console users: those named, the members of the roles, the users of the organisations. Trainees:
 * those named, and those in training of every criterion given (types, bases, cohorts). Each person once.
 */
export const Audience = z
  .object({
    userIds: Ids('admin_user'),
    roleIds: Ids('role'),
    userOrgIds: Ids('organization'),
    traineeIds: Ids('trainee'),
    traineeTypeIds: Ids('trainee_type'),
    traineeOrgIds: Ids('organization'),
    cohortYears: z.array(z.number().int().min(1950).max(2100)).max(100).default([]),
  })
  .strict()
  .openapi('MessageAudience');
export type Audience = z.infer<typeof Audience>;

interface MessageBatchTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  template_id: Ref;
  template_code: string;
  channel: Channel;
  audience: Audience;
  common_params: Defaulted<Record<string, string>>;
  total: Defaulted<number>;
  sent_count: Defaulted<number>;
  failed_count: Defaulted<number>;
  read_count: Defaulted<number>;
  status: Defaulted<BatchStatus>;
  scheduled_at: NullableTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    message_batch: MessageBatchTable;
  }
}

export const MessageBatch = recordRow({
  name: z.string(),
  templateId: z.string(),
  templateCode: z.string(),
  templateName: z.string().nullable(),
  channel: z.enum(CHANNELS),
  audience: Audience,
  commonParams: z.record(z.string(), z.string()),
  total: z.number().int(),
  sentCount: z.number().int().openapi({ description: 'Sent or delivered (in-app), read included' }),
  failedCount: z.number().int(),
  readCount: z.number().int(),
  pendingCount: z.number().int().openapi({ description: 'Queued or being sent' }),
  status: z.enum(BATCH_STATUSES),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  creatorName: z.string().nullable(),
}).openapi('MessageBatch');
export type MessageBatch = z.infer<typeof MessageBatch>;

/** Values of the template's variables: text, each up to 500 characters. */
export const ParamValues = z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/), z.string().max(500));

export const SendBatch = requestBody('SendMessageBatch', {
  name: field.requiredText(100),
  templateId: ref('message_template'),
  audience: Audience,
  params: ParamValues.default({}).openapi({
    description: 'The variables common to every recipient; `name` is each recipient’s own',
  }),
  scheduledAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .openapi({ description: 'Send at this time (in the future); now when left out' }),
});
export type SendBatch = z.infer<typeof SendBatch>;

export const BatchPreview = z
  .object({
    recipients: z.number().int().openapi({ description: 'How many people the audience takes now' }),
    missing: z.array(z.string()).openapi({ description: 'Variables of the template no value is given for' }),
    sample: z
      .object({ recipientName: z.string().nullable(), title: z.string().nullable(), content: z.string() })
      .nullable(),
  })
  .openapi('MessageBatchPreview');
export type BatchPreview = z.infer<typeof BatchPreview>;

const NoUpdate = z.object({ version: z.number().int() });

export const batchResource = defineResource({
  path: 'message/batch',
  permission: 'message:message',
  labels: 'message.batch',
  type: 'message_batch',
  schemas: { row: MessageBatch, create: SendBatch, update: NoUpdate },
  table: {
    name: 'message_batch',
    columns: columnsOf(MessageBatch, { except: ['templateName', 'creatorName', 'pendingCount'] }),
    json: ['audience', 'commonParams'],
    tenantOwned: true,
    audited: true,
    computed: {
      templateName: sql`(SELECT t.name FROM message_template t WHERE t.id = message_batch.template_id)`,
      creatorName: sql`(SELECT u.display_name FROM admin_user u WHERE u.id = message_batch.created_by)`,
      pendingCount: sql`GREATEST(message_batch.total - message_batch.sent_count - message_batch.failed_count, 0)::int`,
    },
  },
  list: {
    sort: ['createdAt', 'name', 'status', 'total'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['name', 'template_code'] },
      channel: { kind: 'in', column: 'channel', values: CHANNELS },
      status: { kind: 'in', column: 'status', values: BATCH_STATUSES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.name,
  columns: [
    { key: 'name' },
    { key: 'templateName' },
    { key: 'channel' },
    { key: 'total' },
    { key: 'sentCount' },
    { key: 'failedCount' },
    { key: 'readCount' },
    { key: 'status' },
    { key: 'scheduledAt' },
    { key: 'creatorName' },
    { key: 'createdAt' },
  ],
});
