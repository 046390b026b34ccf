import { z } from '@hono/zod-openapi';

/** The largest value a PostgreSQL `int` (int4) column stores; a bigger one is refused by the schema, not the database. */
export const INT4_MAX = 2_147_483_647;

/** The optimistic-locking `version` every table keeps in an `int` column. */
export const Version = z.number().int().min(0).max(INT4_MAX);
