import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { json } from '../../core/openapi';
import { defineRoute } from '../../core/route';

const Health = z.object({ status: z.literal('ok'), engine: z.enum(['pglite', 'postgres']) }).openapi('Health');

const getHealth = defineRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Liveness: the process answers and the database responds',
  permission: 'public',
  responses: { 200: { description: 'Healthy', content: json(Health) } },
});

export function healthRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getHealth, async (c) => {
    await c.var.services.health.ping();
    return c.json({ status: 'ok' as const, engine: c.var.services.engine }, 200);
  });
}
