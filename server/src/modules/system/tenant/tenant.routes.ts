import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { tenantResource } from './tenant.resource';
import { RenewTenant, ResolvedTenant, ResolveTenantQuery, Tenant } from './tenant.schema';
import { createTenantService, type TenantService } from './tenant.service';

const tags = ['system/tenant'];

const resolve = defineRoute({
  method: 'get',
  path: '/system/tenant/resolve',
  tags,
  summary: 'The tenant of a sign-in page, by code or domain: name and status only',
  permission: 'public',
  request: { query: ResolveTenantQuery },
  responses: answers('The tenant', ResolvedTenant, 400, 404),
});

const action = recordActions(tenantResource.path, tags, { description: 'The tenant after it', schema: Tenant });

const disable = action(
  'disable',
  'system:tenant:disable',
  'Disable: its users cannot sign in or refresh, their tokens stop working',
);
const enable = action('enable', 'system:tenant:enable', 'Enable again');
const renew = recordAction({
  path: tenantResource.path,
  verb: 'renew',
  summary: 'Set a new expiry (in the future, or null for never)',
  permission: 'system:tenant:renew',
  body: RenewTenant,
  answer: ['The tenant after it', Tenant],
});

const actions = (service: TenantService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(resolve, async (c) => {
      const { code, domain } = c.req.valid('query');
      return c.json(await service.resolve({ code, domain }), 200);
    })
    .openapi(disable, async (c) => c.json(await service.disable(writeContext(c), c.req.valid('param').id), 200))
    .openapi(enable, async (c) => c.json(await service.enable(writeContext(c), c.req.valid('param').id), 200))
    .openapi(renew, async (c) =>
      c.json(await service.renew(writeContext(c), c.req.valid('param').id, c.req.valid('json').expiresAt), 200),
    );

export const tenants = resourceModule(tenantResource, { service: createTenantService, routes: actions });
