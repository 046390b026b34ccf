import type { Context } from 'hono';
import type { AppEnv } from './context';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/** The peer address; X-Forwarded-For only when configured to trust the proxy in front. */
export function clientIp(c: Context<AppEnv>): string | null {
  if (c.var.services.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const env = c.env as NodeBindings | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}

export function userAgent(c: Context<AppEnv>): string | null {
  return c.req.header('user-agent')?.slice(0, 500) ?? null;
}
