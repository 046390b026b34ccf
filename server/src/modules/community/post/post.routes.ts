import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, type PermissionCode, recordAction } from '../../../core/route';
import {
  CreateReply,
  Post,
  PostAction,
  PostFlag,
  PostMove,
  PostPin,
  PostReason,
  PostReject,
  postResource,
  Reply,
  ReplyAction,
  ReplyReason,
  ReplyThread,
} from './post.resource';
import { createPostService, type PostService } from './post.service';

const path = 'community/post';
const replyPath = 'community/reply';
const answer: [string, typeof Post] = ['The post', Post];
const replyAnswer: [string, typeof Reply] = ['The reply', Reply];
const MODERATE: PermissionCode = 'community:post:moderate';

const postAction = <B extends z.ZodType>(verb: string, summary: string, permission: PermissionCode, body: B) =>
  recordAction({ path, verb, summary, permission, body, answer });

const approve = postAction(
  'approve',
  'Approve a post waiting on a pre-moderated board: published',
  MODERATE,
  PostAction,
);
const reject = postAction(
  'reject',
  'Reject a post waiting for approval, with a comment to its author',
  MODERATE,
  PostReject,
);
const hide = postAction('hide', 'Hide a published post, with a reason shown to its author', MODERATE, PostReason);
const restore = postAction('restore', 'Show a hidden or deleted post again', MODERATE, PostAction);
const remove = postAction(
  'delete',
  'Delete a post (kept, out of sight), with a reason shown to its author; DELETE purges it afterwards',
  MODERATE,
  PostReason,
);
const pin = postAction(
  'pin',
  'Pin the post on its board (until a time, or until unpinned), or unpin it',
  'community:post:pin',
  PostPin,
);
const feature = postAction(
  'feature',
  'Mark the post as featured (精华), or not',
  'community:post:feature',
  PostFlag('FeaturePost'),
);
const lock = postAction(
  'lock',
  'Lock the post (no new replies), or unlock it',
  'community:post:lock',
  PostFlag('LockPost'),
);
const move = postAction(
  'move',
  'Move the post to another board (not an archived one)',
  'community:post:move',
  PostMove,
);

const replies = defineRoute({
  method: 'get',
  path: `/${path}/{id}/replies`,
  tags: [path],
  summary: 'The thread: top-level replies in order, each with its replies (one level deep), in every status',
  permission: 'community:post:list',
  request: { params: IdParam },
  responses: answers('The replies', z.array(ReplyThread), 400, 401, 403, 404),
});
const reply = defineRoute({
  method: 'post',
  path: `/${path}/{id}/replies`,
  tags: [path],
  summary:
    'Reply to a published, unlocked post of an open board, as the console user; to the post or to one of its ' +
    'top-level replies',
  permission: 'community:post:create',
  request: { params: IdParam, body: { required: true, content: json(CreateReply) } },
  responses: {
    201: { description: 'The reply', content: json(Reply) },
    ...errorResponses(400, 401, 403, 404, 409),
  },
});
const replyAction = <B extends z.ZodType>(verb: string, summary: string, body: B) =>
  recordAction({ path: replyPath, verb, summary, permission: MODERATE, body, answer: replyAnswer });
const hideReply = replyAction('hide', 'Hide a published reply, with a reason shown to its author', ReplyReason);
const restoreReply = replyAction('restore', 'Show a hidden or deleted reply again', ReplyAction);
const deleteReply = replyAction('delete', 'Delete a reply (kept, out of sight), with a reason', ReplyReason);

const actions = (service: PostService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(approve, async (c) =>
      c.json(await service.approve(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(reject, async (c) => {
      const { comment, version } = c.req.valid('json');
      return c.json(await service.reject(writeContext(c), c.req.valid('param').id, version, comment), 200);
    })
    .openapi(hide, async (c) => {
      const { reason, version } = c.req.valid('json');
      return c.json(await service.hide(writeContext(c), c.req.valid('param').id, version, reason), 200);
    })
    .openapi(restore, async (c) =>
      c.json(await service.restore(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(remove, async (c) => {
      const { reason, version } = c.req.valid('json');
      return c.json(await service.delete(writeContext(c), c.req.valid('param').id, version, reason), 200);
    })
    .openapi(pin, async (c) =>
      c.json(await service.pin(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(feature, async (c) => {
      const { on, version } = c.req.valid('json');
      return c.json(await service.feature(writeContext(c), c.req.valid('param').id, on, version), 200);
    })
    .openapi(lock, async (c) => {
      const { on, version } = c.req.valid('json');
      return c.json(await service.lock(writeContext(c), c.req.valid('param').id, on, version), 200);
    })
    .openapi(move, async (c) => {
      const { boardId, version } = c.req.valid('json');
      return c.json(await service.move(writeContext(c), c.req.valid('param').id, boardId, version), 200);
    })
    .openapi(replies, async (c) =>
      c.json(await service.replies(c.var.principal.tenantId, c.req.valid('param').id), 200),
    )
    .openapi(reply, async (c) =>
      c.json(await service.reply(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 201),
    )
    .openapi(hideReply, async (c) => {
      const { reason, version } = c.req.valid('json');
      return c.json(await service.hideReply(writeContext(c), c.req.valid('param').id, version, reason), 200);
    })
    .openapi(restoreReply, async (c) =>
      c.json(await service.restoreReply(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(deleteReply, async (c) => {
      const { reason, version } = c.req.valid('json');
      return c.json(await service.deleteReply(writeContext(c), c.req.valid('param').id, version, reason), 200);
    });

export const posts = resourceModule(postResource, {
  service: createPostService,
  routes: actions,
  omit: ['import', 'template'],
});
