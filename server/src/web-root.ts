import { createHash } from 'node:crypto';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';

/** How long the S3 stores' origins (the page's Content-Security-Policy) are kept before they are read again. */
const STORE_ORIGINS_TTL_MS = 5_000;

/** Inline scripts in the built index.html (if any) are allowed by hash, never by 'unsafe-inline'. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

export interface WebRootOptions {
  /** The API (`/api`, `/api/*`, `/metrics`). */
  api: { fetch(request: Request, env?: unknown): Response | Promise<Response> };
  /** The built console: its index.html, and the directory of its files. */
  indexHtml: string;
  dist: string;
  /** The origins of the S3 stores the browser uploads to and previews from. */
  storeOrigins: () => Promise<string[]>;
  logger: Logger;
}

/** What `npm start` serves: the API, the built console, and the security headers of every answer. */
export function createWebRoot({ api, indexHtml, dist, storeOrigins, logger }: WebRootOptions): Hono {
  const root = new Hono();
  root.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // /api requests are logged by the API app itself, with their request id.
    if (!c.req.path.startsWith('/api') && c.req.path !== '/metrics') {
      logger.info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  });
  // The S3 stores the browser uploads to and previews from, read when the console's page is served (a page loaded
  // before a store was added reaches it once reloaded), at most every few seconds.
  let origins = '';
  let originsRead = 0;
  root.use('*', async (c, next) => {
    if (!c.req.path.startsWith('/api') && Date.now() - originsRead > STORE_ORIGINS_TTL_MS) {
      originsRead = Date.now();
      origins = (await storeOrigins().catch(() => [])).join(' ');
    }
    await next();
  });
  const stores = () => origins;
  root.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(indexHtml)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', stores],
        mediaSrc: ["'self'", stores],
        frameSrc: ["'self'", stores],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", stores],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      // an answer with a policy of its own keeps it: a stored file's content, which the console's preview frames
      overwrite: false,
    }),
  );
  root.all('/api', (c) => api.fetch(c.req.raw, c.env));
  root.all('/api/*', (c) => api.fetch(c.req.raw, c.env));
  // the API answers it: to a bearer of METRICS_TOKEN, else 404
  root.get('/metrics', (c) => api.fetch(c.req.raw, c.env));
  root.use(
    '*',
    serveStatic({
      root: path.relative(process.cwd(), dist) || '.',
      onFound: (filePath, c) => {
        const hashed = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpe?g|gif)$/i.test(filePath);
        c.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  root.get('*', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(indexHtml);
  });
  return root;
}
