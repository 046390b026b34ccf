import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { errorResponses } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceRoutes, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, type Permission } from '../../../core/route';
import { tenantResource } from './tenant.resource';
import { RenewTenant, ResolvedTenant, ResolveTenantQuery, Tenant } from './tenant.schema';

const tags = ['system/tenant'];
const json = <S>(schema: S) => ({ 'application/json': { schema } });

const resolve = defineRoute({
  method: 'get',
  path: '/system/tenant/resolve',
  tags,
  summary: 'The tenant of a sign-in page, by code or domain: name and status only',
  permission: 'public',
  request: { query: ResolveTenantQuery },
  responses: { 200: { description: 'The tenant', content: json(ResolvedTenant) }, ...errorResponses(400, 404) },
});

const action = (verb: string, permission: Permission, summary: string) =>
  defineRoute({
    method: 'post',
    path: `/system/tenant/{id}/${verb}`,
    tags,
    summary,
    permission,
    request: { params: IdParam },
    responses: {
      200: { description: 'The tenant after it', content: json(Tenant) },
      ...errorResponses(400, 401, 403, 404, 409),
    },
  });

const disable = action(
  'disable',
  'system:tenant:disable',
  'Disable: its users cannot sign in or refresh, their tokens stop working',
);
const enable = action('enable', 'system:tenant:enable', 'Enable again');
const renew = defineRoute({
  method: 'post',
  path: '/system/tenant/{id}/renew',
  tags,
  summary: 'Set a new expiry (in the future, or null for never)',
  permission: 'system:tenant:renew',
  request: { params: IdParam, body: { required: true, content: json(RenewTenant) } },
  responses: {
    200: { description: 'The tenant after it', content: json(Tenant) },
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

export function tenantRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>().openapi(resolve, async (c) => {
    const { code, domain } = c.req.valid('query');
    return c.json(await c.var.services.tenants.resolve({ code, domain }), 200);
  });
  app.route(
    '/',
    resourceRoutes(tenantResource, (s) => s.tenants.resource),
  );
  return app
    .openapi(disable, async (c) =>
      c.json(await c.var.services.tenants.disable(writeContext(c), c.req.valid('param').id), 200),
    )
    .openapi(enable, async (c) =>
      c.json(await c.var.services.tenants.enable(writeContext(c), c.req.valid('param').id), 200),
    )
    .openapi(renew, async (c) =>
      c.json(
        await c.var.services.tenants.renew(writeContext(c), c.req.valid('param').id, c.req.valid('json').expiresAt),
        200,
      ),
    );
}
