import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types';

/** The channel every instance LISTENs on (core/invalidation.ts). */
export const INVALIDATION_CHANNEL = 'medu_invalidation';

/** Sent on its own (after the change committed): any pooled connection will do, pgbouncer's included. */
export async function notify(db: Kysely<DB>, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${INVALIDATION_CHANNEL}, ${payload})`.execute(db);
}
