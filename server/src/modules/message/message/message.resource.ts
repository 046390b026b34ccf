import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { recordRow } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';
import { CHANNELS, type Channel } from '../channel/channel';

/**
 * Messages (docs/domain.md §6.2): one rendered message for one recipient on one channel, and its delivery. Made by a
 * batch or by a business event, never by a form: the generic create and update routes are left out.
 */
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const RECIPIENT_TYPES = ['admin_user', 'trainee', 'person'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

interface MessageTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  batch_id: Nullable<Ref>;
  template_id: Nullable<Ref>;
  template_code: Nullable<string>;
  business_item_code: Nullable<string>;
  channel: Channel;
  recipient_type: RecipientType;
  recipient_id: Ref;
  recipient_name: Nullable<string>;
  address: Nullable<string>;
  title: Nullable<string>;
  content: string;
  params: Defaulted<Record<string, string>>;
  status: MessageStatus;
  error_code: Nullable<string>;
  error_message: Nullable<string>;
  retry_count: Defaulted<number>;
  next_attempt_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  read_at: NullableTimestamp;
  biz_ref_type: Nullable<string>;
  biz_ref_id: Nullable<Ref>;
  /** The worker sending it (a message `sending`), until its claim expires (delivery.ts). */
  claimed_by: Nullable<string>;
  claim_expires_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    message: MessageTable;
  }
}

export const Message = recordRow({
  batchId: z.string().nullable(),
  batchName: z.string().nullable(),
  templateId: z.string().nullable(),
  templateCode: z.string().nullable(),
  businessItemCode: z.string().nullable(),
  channel: z.enum(CHANNELS),
  recipientType: z.enum(RECIPIENT_TYPES),
  recipientId: z.string(),
  recipientName: z.string().nullable(),
  address: z.string().nullable().openapi({ description: 'The e-mail address, mobile number or openid it went to' }),
  title: z.string().nullable(),
  content: z.string(),
  params: z.record(z.string(), z.string()),
  status: z.enum(MESSAGE_STATUSES),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  retryCount: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  readAt: z.string().nullable(),
  bizRefType: z.string().nullable(),
  bizRefId: z.string().nullable(),
}).openapi('Message');
export type Message = z.infer<typeof Message>;

const NoCreate = z.object({});
const NoUpdate = z.object({ version: z.number().int() });
export type NoCreate = z.infer<typeof NoCreate>;
export type NoUpdate = z.infer<typeof NoUpdate>;

export const messageResource = defineResource({
  path: 'message/message',
  permission: 'message:message',
  labels: 'message.message',
  schemas: { row: Message, create: NoCreate, update: NoUpdate },
  table: {
    name: 'message',
    columns: columnsOf(Message, { except: ['batchName'] }),
    json: ['params'],
    tenantOwned: true,
    audited: true,
    computed: {
      batchName: sql`(SELECT b.name FROM message_batch b WHERE b.id = message.batch_id AND b.tenant_id = message.tenant_id)`,
    },
  },
  list: {
    sort: ['createdAt', 'status', 'sentAt'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['title', 'recipient_name', 'address'] },
      batchId: { kind: 'eq', column: 'batch_id', pattern: /^\d{1,19}$/ },
      channel: { kind: 'in', column: 'channel', values: CHANNELS },
      status: { kind: 'in', column: 'status', values: MESSAGE_STATUSES },
      recipientType: { kind: 'in', column: 'recipient_type', values: RECIPIENT_TYPES },
      businessItemCode: { kind: 'eq', column: 'business_item_code', pattern: /^[a-z][\w.]{0,99}$/ },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.recipientName ?? row.recipientId} · ${row.title ?? row.templateCode ?? row.channel}`,
  columns: [
    { key: 'batchName' },
    { key: 'channel' },
    { key: 'recipientName' },
    { key: 'address' },
    { key: 'title' },
    { key: 'content' },
    { key: 'status' },
    { key: 'errorCode' },
    { key: 'errorMessage' },
    { key: 'retryCount' },
    { key: 'sentAt' },
    { key: 'readAt' },
    { key: 'createdAt' },
  ],
});
