import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { AppError } from './errors';
import { clientIp } from './request-info';

/** Fixed-window counter per key, in memory (one process; put a shared limiter in front when scaling out). */
export function createRateLimiter(options: { windowMs: number; max: number }, now: () => Date) {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    /** Counts a hit; false when the key has used up its window. */
    hit(key: string): boolean {
      const t = now().getTime();
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (t - w.start >= options.windowMs) windows.delete(k);
      }
      const w = windows.get(key);
      if (!w || t - w.start >= options.windowMs) {
        windows.set(key, { start: t, count: 1 });
        return true;
      }
      w.count += 1;
      return w.count <= options.max;
    },
    /** Whole seconds until the key's window ends (at least 1). */
    retryAfterSeconds(key: string): number {
      const w = windows.get(key);
      return w ? Math.max(1, Math.ceil((w.start + options.windowMs - now().getTime()) / 1000)) : 1;
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function rateLimitByIp(
  pick: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => RateLimiter,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limiter = pick(c);
    const key = clientIp(c) ?? 'unknown';
    if (!limiter.hit(key)) {
      c.header('Retry-After', String(limiter.retryAfterSeconds(key)));
      throw new AppError('auth.tooManyRequests');
    }
    await next();
  };
}
