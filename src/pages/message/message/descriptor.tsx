import type { BatchPreview, MessageBatch, SendBatch } from '@server/modules/message/message/batch.resource';
import type { Message } from '@server/modules/message/message/message.resource';
import { Progress, Tooltip } from 'antd';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { BatchPreview, Message, MessageBatch, SendBatch };

/** Messages and batches are made by a send: their lists have no create or update body. */
export const messages = resourceService<Message, never, never>('message/message');
export const batches = resourceService<MessageBatch, never, never>('message/batch');

export const sendBatch = (body: SendBatch, options?: Options) =>
  request.post<MessageBatch>('/api/message/batch', { ...options, data: body });
export const previewBatch = (body: SendBatch, options?: Options) =>
  request.post<BatchPreview>('/api/message/batch/preview', { ...options, data: body });
export const cancelBatch = (row: MessageBatch) =>
  batches.action<MessageBatch>(row.id, 'cancel', { version: row.version });
export const retryBatch = (row: MessageBatch) =>
  batches.action<MessageBatch>(row.id, 'retry', { version: row.version });
export const retryMessage = (row: Message) => messages.action<Message>(row.id, 'retry', { version: row.version });

const CHANNELS = ['in_app', 'email', 'sms', 'wechat_mp'] as const;
const channelOptions = CHANNELS.map((value) => ({ value, labelId: `message.channel.${value}` }));

/** How far a batch has gone: what was sent and what failed, of its recipients. */
function BatchProgress({ row }: { row: MessageBatch }) {
  const done = row.sentCount + row.failedCount;
  const percent = row.total ? Math.round((done / row.total) * 100) : 0;
  const success = row.total ? Math.round((row.sentCount / row.total) * 100) : 0;
  return (
    <Tooltip title={`${row.sentCount} / ${row.failedCount} / ${row.pendingCount}`}>
      <Progress
        percent={percent}
        success={{ percent: success }}
        size="small"
        status={row.failedCount ? 'exception' : percent === 100 ? 'success' : 'active'}
        data-testid="batch-progress"
        style={{ minWidth: 120, margin: 0 }}
      />
    </Tooltip>
  );
}

/** Batches (docs/domain.md §6.2): /message/list, first tab; API message/batch, permission message:message. */
export const batchDescriptor = describeResource<MessageBatch, never, never>(
  'message/message',
  (column) => ({
    auditType: 'message_batch',
    readOnly: true,
    recordName: (row) => row.name,
    form: { create: [], update: [] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', { sorter: true, hideInSearch: true }),
      column('templateName', { hideInSearch: true }),
      column('channel', { options: channelOptions }),
      column('total', { sorter: true, hideInSearch: true, align: 'right' }),
      column('progress', { hideInSearch: true, render: (_dom, row) => <BatchProgress row={row} /> }),
      column('readCount', { hideInSearch: true, align: 'right' }),
      column('status', {
        sorter: true,
        options: [
          { value: 'scheduled', labelId: 'message.batch.status.scheduled', color: 'default' },
          { value: 'sending', labelId: 'message.batch.status.sending', color: 'processing' },
          { value: 'completed', labelId: 'message.batch.status.completed', color: 'success' },
          { value: 'cancelled', labelId: 'message.batch.status.cancelled', color: 'default' },
        ],
      }),
      column('scheduledAt', { valueType: 'dateTime', hideInSearch: true }),
      column('creatorName', { hideInSearch: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
      column('createdAt', { valueType: 'dateRange', searchOnly: true }),
    ],
  }),
  { resource: 'message/batch', titles: 'message.batch' },
);

/** Messages (docs/domain.md §6.2): /message/list, second tab; API message/message, permission message:message. */
export const messageDescriptor = describeResource<Message, never, never>('message/message', (column) => ({
  auditType: 'message',
  readOnly: true,
  recordName: (row) => row.title ?? row.recipientName ?? row.id,
  form: { create: [], update: [] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('recipientName', { hideInSearch: true }),
    column('recipientType', {
      options: [
        { value: 'admin_user', labelId: 'message.message.recipientType.admin_user' },
        { value: 'trainee', labelId: 'message.message.recipientType.trainee' },
        { value: 'person', labelId: 'message.message.recipientType.person' },
      ],
    }),
    column('channel', { options: channelOptions }),
    column('address', { hideInSearch: true }),
    column('title', { hideInSearch: true, ellipsis: true }),
    column('content', { hideInSearch: true, hideInTable: true }),
    column('batchName', { hideInSearch: true }),
    column('status', {
      sorter: true,
      options: [
        { value: 'queued', labelId: 'message.message.status.queued', color: 'default' },
        { value: 'sending', labelId: 'message.message.status.sending', color: 'processing' },
        { value: 'sent', labelId: 'message.message.status.sent', color: 'success' },
        { value: 'delivered', labelId: 'message.message.status.delivered', color: 'success' },
        { value: 'read', labelId: 'message.message.status.read', color: 'cyan' },
        { value: 'failed', labelId: 'message.message.status.failed', color: 'error' },
        { value: 'cancelled', labelId: 'message.message.status.cancelled', color: 'default' },
      ],
    }),
    column('errorMessage', { hideInSearch: true, ellipsis: true }),
    column('retryCount', { hideInSearch: true, hideInTable: true }),
    column('sentAt', { valueType: 'dateTime', hideInSearch: true, sorter: true }),
    column('readAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true, sorter: true }),
    column('createdAt', { valueType: 'dateRange', searchOnly: true }),
  ],
}));
