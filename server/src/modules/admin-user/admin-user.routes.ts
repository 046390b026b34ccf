import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { errorResponses } from '../../core/openapi';
import { defineRoute } from '../../core/route';
import { AdminUser, IdParam } from './admin-user.schema';

const getAdminUser = defineRoute({
  method: 'get',
  path: '/admin-users/{id}',
  tags: ['admin-users'],
  summary: 'One admin user of the caller’s tenant',
  permission: 'system:admin:list',
  request: { params: IdParam },
  responses: {
    200: { description: 'The user', content: { 'application/json': { schema: AdminUser } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function adminUserRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getAdminUser, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await c.var.services.adminUsers.get(c.var.principal.tenantId, id), 200);
  });
}
