import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * The counters of the shared rate limits (core/rate-limit.ts), one row per limit and client address, in the shape
 * rate-limiter-flexible's PostgreSQL store reads and writes: `key` is the limit's name and the address, `points` the
 * hits in the window, `expire` the window's end in epoch milliseconds. The library's own table; every instance on the
 * database counts in it, so that N instances allow what one does. Made here rather than by the library at start-up,
 * where instances starting together would race to create it. Not a tenant's data: no tenant, no row-level security,
 * written by the owning role only. Rows an hour past their window are deleted by the library as it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE rate_limit (
      key varchar(255) PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire bigint
    )`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, ['DROP TABLE rate_limit']);
}
