import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import type { ResourceDeps } from '../../../core/resource/resource.service';
import { defineRoute, recordAction } from '../../../core/route';
import { SyncFollowers, SyncReport, WechatTag, wechatAccountResource } from './wechat-account.resource';
import { createWechatAccountService, type WechatAccountService } from './wechat-account.service';
import { createWechatConnections, type WechatConnectionDeps } from './wechat-connection';

const path = wechatAccountResource.path;

const sync = recordAction({
  path,
  verb: 'sync',
  summary:
    "Read the account's followers from WeChat (full: every profile again; incremental: new followers only), mark " +
    'those WeChat no longer lists unsubscribed, and keep its tags',
  permission: 'message:follower:sync',
  body: SyncFollowers,
  answer: ['How many followers were added, updated and unsubscribed', SyncReport],
  errors: [400, 401, 403, 404, 409, 502],
});
const tags = defineRoute({
  method: 'get',
  path: `/${path}/{id}/tags`,
  tags: [path],
  summary: "The account's tags as WeChat has them now",
  permission: 'message:follower:list',
  request: { params: IdParam },
  responses: answers('The tags', z.array(WechatTag), 400, 401, 403, 404, 409, 502),
});

const actions = (service: WechatAccountService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(sync, async (c) =>
      c.json(await service.sync(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(tags, async (c) => c.json(await service.tags(c.var.principal.tenantId, c.req.valid('param').id), 200));

/** No import: an app secret is never written into a sheet. */
export const wechatAccounts = resourceModule(wechatAccountResource, {
  service: (deps: ResourceDeps & Omit<WechatConnectionDeps, 'tenancy'>) =>
    createWechatAccountService({ ...deps, wechat: createWechatConnections(deps) }),
  routes: actions,
  omit: ['import', 'template'],
});
