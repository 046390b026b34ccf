import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import type { ResourceDeps } from '../../../core/resource/resource.service';
import { defineRoute, recordAction } from '../../../core/route';
import { createWechatConnections, type WechatConnectionDeps } from '../wechat/wechat-connection';
import {
  BindFollower,
  Follower,
  FollowerRemark,
  followerResource,
  TagFollowers,
  TagResult,
  UnbindFollower,
} from './follower.resource';
import { createFollowerService, type FollowerService } from './follower.service';

const path = followerResource.path;
const answer: [string, typeof Follower] = ['The follower', Follower];

const bind = recordAction({
  path,
  verb: 'bind',
  summary: 'Bind the follower to a trainee, staff member or doctor of the tenant (messages to them reach it)',
  permission: 'message:follower:bind',
  body: BindFollower,
  answer,
});
const unbind = recordAction({
  path,
  verb: 'unbind',
  summary: 'Take the binding of the follower away',
  permission: 'message:follower:bind',
  body: UnbindFollower,
  answer,
});
const remark = recordAction({
  path,
  verb: 'remark',
  summary: "Set the follower's remark, on WeChat first",
  permission: 'message:follower:update',
  body: FollowerRemark,
  answer,
  errors: [400, 401, 403, 404, 409, 502],
});
const tag = defineRoute({
  method: 'post',
  path: `/${path}/tag`,
  tags: [path],
  summary: 'Add a WeChat tag to (or remove it from) followers of one account, on WeChat first, 50 at a time',
  permission: 'message:follower:update',
  request: { body: { required: true, content: json(TagFollowers) } },
  responses: answers('How many followers', TagResult, 400, 401, 403, 404, 409, 502),
});

const actions = (service: FollowerService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(tag, async (c) => c.json(await service.tag(writeContext(c), c.req.valid('json')), 200))
    .openapi(bind, async (c) =>
      c.json(await service.bind(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(unbind, async (c) =>
      c.json(await service.unbind(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    )
    .openapi(remark, async (c) =>
      c.json(await service.remark(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    );

/** Followers come from a sync of their account: no create, update or import by hand. */
export const followers = resourceModule(followerResource, {
  service: (deps: ResourceDeps & Omit<WechatConnectionDeps, 'tenancy'>) =>
    createFollowerService({ ...deps, wechat: createWechatConnections(deps) }),
  routes: actions,
  omit: ['import', 'template', 'create', 'update'],
});
