import type { Context } from 'hono';
import type { AppEnv } from './context';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The client's address. Behind `trustProxy` proxies, X-Forwarded-For's entry that many from the right: each proxy
 * appends the address it was reached from, so the entries right of it were written by our own proxies and the ones
 * left of it by whoever sent the request (a client can put anything there). With fewer entries than proxies, the
 * leftmost one; without the header, the peer's address.
 */
export function clientIp(c: Context<AppEnv>): string | null {
  const proxies = c.var.services.config.trustProxy;
  if (proxies > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const client = entries[Math.max(0, entries.length - proxies)];
    if (client) return client.slice(0, 64);
  }
  const env = c.env as NodeBindings | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}

export function userAgent(c: Context<AppEnv>): string | null {
  return c.req.header('user-agent')?.slice(0, 500) ?? null;
}
