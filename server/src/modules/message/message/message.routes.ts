import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { Id } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { resourceRoutes, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { requestBody, updateBody } from '../../../core/schema-kit';
import { BatchPreview, batchResource, MessageBatch, ParamValues, SendBatch } from './batch.resource';
import { Message, messageResource } from './message.resource';
import { createMessageService, type MessageService } from './message.service';

const VersionOnly = updateBody('MessageVersion', {});
const TestSend = requestBody('TestSendMessageTemplate', { params: ParamValues.default({}) });

const send = defineRoute({
  method: 'post',
  path: '/message/batch',
  tags: ['message/batch'],
  summary:
    'Send a template to an audience, now or at `scheduledAt`: the batch is answered at once, its messages follow',
  permission: 'message:message:send',
  request: { body: { required: true, content: json(SendBatch) } },
  responses: answers('The batch, scheduled', MessageBatch, 400, 401, 403, 409),
});
const preview = defineRoute({
  method: 'post',
  path: '/message/batch/preview',
  tags: ['message/batch'],
  summary: 'How many people a send would reach, the variables left without a value, and its first message',
  permission: 'message:message:send',
  request: { body: { required: true, content: json(SendBatch) } },
  responses: answers('The preview', BatchPreview, 400, 401, 403),
});
const cancel = recordAction({
  path: 'message/batch',
  verb: 'cancel',
  summary: 'Cancel a batch: not started if scheduled; if sending, what is still queued is not sent',
  permission: 'message:message:send',
  body: VersionOnly,
  answer: ['The batch', MessageBatch],
});
const retryBatch = recordAction({
  path: 'message/batch',
  verb: 'retry',
  summary: 'Send the failed messages of a batch again',
  permission: 'message:message:retry',
  body: VersionOnly,
  answer: ['The batch', MessageBatch],
});
const retry = recordAction({
  path: 'message/message',
  verb: 'retry',
  summary: 'Send a failed message again',
  permission: 'message:message:retry',
  body: VersionOnly,
  answer: ['The message, queued', Message],
});
const testSend = recordAction({
  path: 'message/template',
  verb: 'test-send',
  summary: 'Send the template to yourself with sample values',
  permission: 'message:template:test-send',
  body: TestSend,
  answer: ['The message sent', Message],
});

const InboxItem = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    content: z.string(),
    businessItemCode: z.string().nullable(),
    bizRefType: z.string().nullable(),
    bizRefId: z.string().nullable(),
    createdAt: z.string(),
    readAt: z.string().nullable(),
  })
  .openapi('InboxMessage');
const InboxPage = z
  .object({ data: z.array(InboxItem), total: z.number().int(), current: z.number().int(), pageSize: z.number().int() })
  .openapi('InboxPage');
const InboxQuery = z.object({
  current: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
const MarkRead = requestBody('MarkMessagesRead', { ids: z.array(Id).min(1).max(200) });
const Count = z.object({ count: z.number().int() }).openapi('MessageCount');

const inbox = defineRoute({
  method: 'get',
  path: '/message/inbox',
  tags: ['message/inbox'],
  summary: 'The signed-in user’s in-app messages, newest first',
  permission: 'authenticated',
  request: { query: InboxQuery },
  responses: answers('A page of the inbox', InboxPage, 400, 401),
});
const unread = defineRoute({
  method: 'get',
  path: '/message/inbox/unread-count',
  tags: ['message/inbox'],
  summary: 'How many of the signed-in user’s in-app messages are unread',
  permission: 'authenticated',
  responses: answers('The count', Count, 401),
});
const markRead = defineRoute({
  method: 'post',
  path: '/message/inbox/read',
  tags: ['message/inbox'],
  summary: 'Mark some of one’s messages read; answers how many were unread',
  permission: 'authenticated',
  request: { body: { required: true, content: json(MarkRead) } },
  responses: answers('How many were marked', Count, 400, 401),
});
const markAllRead = defineRoute({
  method: 'post',
  path: '/message/inbox/read-all',
  tags: ['message/inbox'],
  summary: 'Mark all of one’s messages read; answers how many were unread',
  permission: 'authenticated',
  responses: answers('How many were marked', Count, 401),
});

const routes = (service: MessageService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(preview, async (c) => c.json(await service.preview(writeContext(c), c.req.valid('json')), 200))
    .openapi(send, async (c) => c.json(await service.send(writeContext(c), c.req.valid('json')), 200))
    .openapi(cancel, async (c) =>
      c.json(await service.cancel(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(retryBatch, async (c) =>
      c.json(await service.retryBatch(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(retry, async (c) =>
      c.json(await service.retry(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(testSend, async (c) =>
      c.json(await service.testSend(writeContext(c), c.req.valid('param').id, c.req.valid('json').params), 200),
    )
    .openapi(unread, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json({ count: await service.inbox.unreadCount(tenantId, userId) }, 200);
    })
    .openapi(inbox, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json(await service.inbox.list(tenantId, userId, c.req.valid('query')), 200);
    })
    .openapi(markRead, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json({ count: await service.inbox.markRead(tenantId, userId, c.req.valid('json').ids) }, 200);
    })
    .openapi(markAllRead, async (c) => {
      const { tenantId, userId } = c.var.principal;
      return c.json({ count: await service.inbox.markRead(tenantId, userId, 'all') }, 200);
    })
    .route(
      '/',
      resourceRoutes(batchResource, () => service.batches, { omit: ['import', 'template', 'create', 'update'] }),
    );

/** Messages, their batches and the inbox (docs/domain.md §6.2). */
export const messages = resourceModule(messageResource, {
  service: createMessageService,
  routes,
  omit: ['import', 'template', 'create', 'update'],
});
