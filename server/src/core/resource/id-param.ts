import { z } from '@hono/zod-openapi';

/** A record's id as text: a positive bigint (a list filter on an id column takes it as its pattern). */
export const ID_PATTERN = /^[1-9]\d{0,17}$/;

export const Id = z.string().regex(ID_PATTERN, 'must be a positive integer id').openapi({ example: '2' });

export const IdParam = z.object({ id: Id.openapi({ param: { name: 'id', in: 'path' } }) });
