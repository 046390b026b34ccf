import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { json } from '../../core/openapi';
import { defineRoute } from '../../core/route';
import { READY_CHECKS } from './readiness';

/**
 * What the operator should fix though the server answers: `storage.localDiskNotShared`, several live instances keep
 * local files in different directories while some tenant stores files there (use S3 or one shared volume).
 */
const HealthWarning = z.enum(['storage.localDiskNotShared']);

const Health = z
  .object({ status: z.literal('ok'), engine: z.enum(['pglite', 'postgres']), warnings: z.array(HealthWarning) })
  .openapi('Health');

const getHealth = defineRoute({
  method: 'get',
  path: '/health',
  tags: ['health'],
  summary: 'Liveness: the process answers and the database responds; what the operator should fix',
  permission: 'public',
  responses: { 200: { description: 'Healthy', content: json(Health) } },
});

const Ready = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    /** The check that failed: shutting down, the database not answering, a migration not applied, the queues idle. */
    failed: z.enum(READY_CHECKS).nullable(),
  })
  .openapi('Ready');

const getReady = defineRoute({
  method: 'get',
  path: '/ready',
  tags: ['health'],
  summary:
    'Readiness: 200 once the database answers, the migrations are current and the job queues run; 503 before, and ' +
    'from the moment the server is told to stop',
  permission: 'public',
  responses: {
    200: { description: 'Ready to take traffic', content: json(Ready) },
    503: { description: 'Not ready: `failed` names the check', content: json(Ready) },
  },
});

export function healthRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(getReady, async (c) => {
      const failed = (await c.var.services.readiness.failing()) ?? null;
      return failed
        ? c.json({ status: 'unavailable' as const, failed }, 503)
        : c.json({ status: 'ready' as const, failed }, 200);
    })
    .openapi(getHealth, async (c) => {
      const { services } = c.var;
      await services.health.ping();
      const warnings: z.infer<typeof HealthWarning>[] = [];
      // worked out once per heartbeat (core/instances.ts): a balancer's probe every few seconds costs one ping
      if (services.instances.localDiskNotShared) warnings.push('storage.localDiskNotShared');
      return c.json({ status: 'ok' as const, engine: services.engine, warnings }, 200);
    });
}
