import { createHash } from 'node:crypto';
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { errorResponses, json } from '../../../core/openapi';
import { defineRoute } from '../../../core/route';
import { ErrCode, SysCode } from './catalog.schema';

const listSysCodes = defineRoute({
  method: 'get',
  path: '/dictionary/catalog/syscodes',
  tags: ['dictionary'],
  summary:
    'Enabled system-code items (tenant items merged over platform items); an ETag tells the console they changed',
  description:
    'Send the last `ETag` as `If-None-Match`: the answer is 304 without a body until an item or type changes.',
  permission: 'authenticated',
  responses: {
    200: {
      description: 'Items',
      headers: { ETag: { schema: { type: 'string' }, description: 'Changes whenever the items do' } },
      content: json(z.array(SysCode)),
    },
    304: { description: 'Unchanged since the ETag sent in If-None-Match' },
    ...errorResponses(401),
  },
});

const listErrCodes = defineRoute({
  method: 'get',
  path: '/dictionary/catalog/errcodes',
  tags: ['dictionary'],
  summary: 'The error-code dictionary with messages in both languages',
  permission: 'public',
  responses: { 200: { description: 'Error codes', content: json(z.array(ErrCode)) } },
});

export function dictRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(listSysCodes, async (c) => {
      const codes = await c.var.services.dict.sysCodes(c.var.principal.tenantId);
      const etag = `"${createHash('sha256').update(JSON.stringify(codes)).digest('base64url').slice(0, 32)}"`;
      c.header('ETag', etag);
      const sent = c.req.header('if-none-match');
      if (sent?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return c.body(null, 304);
      return c.json(codes, 200);
    })
    .openapi(listErrCodes, async (c) => c.json(await c.var.services.dict.errCodes(), 200));
}
