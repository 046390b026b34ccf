import { type ServerType, serve } from '@hono/node-server';
import { type Handler, Hono, type MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from './metrics';

/** The label of a request no route answered (404): one series, whatever the paths people try. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts and times every request by the route template Hono matched (`/api/assess/paper/:id`), never the path asked
 * for: a label per id would make a series per record. The middlewares (method `ALL`) are not the route.
 */
export function recordRequests(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL')?.path ?? UNMATCHED_ROUTE;
      metrics.request(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
    }
  };
}

/** The scrape itself, in Prometheus's text format. */
export const scrapeMetrics =
  (metrics: Metrics): Handler =>
  async (c) =>
    c.body(await metrics.text(), 200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });

/**
 * What METRICS_PORT serves: `/metrics` and nothing else, without a token unless METRICS_TOKEN is set (the port is
 * meant for a network the operator keeps apart).
 */
export function createMetricsApp(metrics: Metrics, token: string | undefined): Hono {
  const app = new Hono();
  if (token) app.use('/metrics', bearerAuth({ token }));
  app.get('/metrics', scrapeMetrics(metrics));
  return app;
}

/** The second listener of METRICS_PORT (main.ts); `port` 0 takes a free one, told to `listening`. */
export function listenForMetrics(
  metrics: Metrics,
  token: string | undefined,
  port: number,
  listening?: (port: number) => void,
): ServerType {
  return serve({ fetch: createMetricsApp(metrics, token).fetch, port }, (info) => listening?.(info.port));
}
