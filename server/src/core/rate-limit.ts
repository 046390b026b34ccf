import type { MiddlewareHandler } from 'hono';
import { CompiledQuery, type Kysely } from 'kysely';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Engine } from '../db/database';
import type { DB } from '../db/types';
import type { AppEnv } from './context';
import { AppError } from './errors';
import { clientIp } from './request-info';

/** The table of every shared limit (migration 0057), in the shape rate-limiter-flexible reads and writes. */
export const RATE_LIMIT_TABLE = 'rate_limit';

export interface RateLimitOptions {
  /** Distinguishes this limit's keys from other limits' in the shared table. */
  name: string;
  windowMs: number;
  max: number;
}

export interface RateLimiter {
  /** Counts a hit; when the key has used up its window, the whole seconds until the window ends (at least 1). */
  hit(key: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
}

/**
 * The library's PostgreSQL store through our own pool (Kysely's), so that a limit costs no connection of its own. Its
 * statements go unnamed: a named prepared statement does not survive pgbouncer in transaction mode, where the next
 * statement may reach another server connection. They run outside a tenant's transaction, as the migrating role that
 * owns the table: the keys are client addresses, no tenant's rows.
 */
function storeClient(db: Kysely<DB>) {
  return {
    async query({ text, values }: { text: string; values?: unknown[] }) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? result.rows.length) };
    },
  };
}

/**
 * A fixed window per key: on PostgreSQL in the database, shared by every instance on it (a limit per process would
 * let N instances allow N times as much), on the embedded database in memory (it has one process). When the database
 * does not answer, the instance counts in its own memory meanwhile rather than refusing every sign-in.
 */
export function createRateLimiter(options: RateLimitOptions, store: { engine: Engine; db: Kysely<DB> }): RateLimiter {
  const shape = { keyPrefix: options.name, points: options.max, duration: options.windowMs / 1000 };
  const limiter =
    store.engine === 'postgres'
      ? new RateLimiterPostgres({
          ...shape,
          storeClient: storeClient(store.db),
          storeType: 'pool',
          tableName: RATE_LIMIT_TABLE,
          tableCreated: true,
          insuranceLimiter: new RateLimiterMemory(shape),
        })
      : new RateLimiterMemory(shape);
  return {
    async hit(key) {
      try {
        await limiter.consume(key);
        return { allowed: true };
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
      }
    },
  };
}

export function rateLimitByIp(
  pick: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => RateLimiter,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const answer = await pick(c).hit(clientIp(c) ?? 'unknown');
    if (!answer.allowed) {
      c.header('Retry-After', String(answer.retryAfterSeconds));
      throw new AppError('auth.tooManyRequests');
    }
    await next();
  };
}

/** Written by rate-limiter-flexible only; declared so that the schema is known in one place. */
export interface RateLimitTable {
  key: string;
  points: number;
  /** Epoch milliseconds, read as text (bigint). */
  expire: string | null;
}

declare module '../db/types' {
  interface DB {
    rate_limit: RateLimitTable;
  }
}
