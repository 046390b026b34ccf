import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { errorResponses } from '../../core/openapi';
import { defineRoute } from '../../core/route';
import { ErrCode, SysCode } from './dict.schema';

const listSysCodes = defineRoute({
  method: 'get',
  path: '/dict/syscodes',
  tags: ['dictionary'],
  summary: 'Enabled system-code items (tenant items merged over platform items)',
  permission: 'authenticated',
  responses: {
    200: { description: 'Items', content: { 'application/json': { schema: z.array(SysCode) } } },
    ...errorResponses(401),
  },
});

const listErrCodes = defineRoute({
  method: 'get',
  path: '/dict/errcodes',
  tags: ['dictionary'],
  summary: 'The error-code dictionary with messages in both languages',
  permission: 'public',
  responses: { 200: { description: 'Error codes', content: { 'application/json': { schema: z.array(ErrCode) } } } },
});

export function dictRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(listSysCodes, async (c) => c.json(await c.var.services.dict.sysCodes(c.var.principal.tenantId), 200))
    .openapi(listErrCodes, async (c) => c.json(await c.var.services.dict.errCodes(), 200));
}
