import { z } from '@hono/zod-openapi';

export const Id = z
  .string()
  .regex(/^[1-9]\d{0,17}$/, 'must be a positive integer id')
  .openapi({ example: '2' });

export const IdParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' } }) });
