import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig, readEnvFiles } from './config';
import { createLogger } from './logger';
import { startScheduledWork } from './scheduled-work';
import { createServer } from './server';

const DIST = path.resolve('dist');
const INDEX_HTML = path.join(DIST, 'index.html');
const SHUTDOWN_GRACE_MS = 10_000;
/** How long the S3 stores' origins (the page's Content-Security-Policy) are kept before they are read again. */
const STORE_ORIGINS_TTL_MS = 5_000;

function ensureConsoleBuilt(logger: Logger) {
  if (existsSync(INDEX_HTML)) return;
  logger.info('dist/index.html is missing: building the console (npx max build)');
  const result = spawnSync('npx', ['max', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0 || !existsSync(INDEX_HTML)) {
    logger.fatal('the console build failed');
    process.exit(1);
  }
}

/** Inline scripts in the built index.html (if any) are allowed by hash, never by 'unsafe-inline'. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)) {
    const body = match[1] ?? '';
    if (body.trim()) hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

async function main() {
  let config: Config;
  try {
    readEnvFiles();
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  ensureConsoleBuilt(logger);

  const api = await createServer({
    database: config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, directUrl: config.databaseDirectUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
    demo: !config.databaseUrl,
    demoContent: !config.databaseUrl && config.demoContent,
    logger,
    config,
  });

  // the work that runs by the clock (expiry, orphaned files, scheduled publishing) and the message queues
  await startScheduledWork(api.services);

  const indexHtml = readFileSync(INDEX_HTML, 'utf8');
  const root = new Hono();
  root.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    // /api requests are logged by the API app itself, with their request id.
    if (!c.req.path.startsWith('/api')) {
      logger.info(
        { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  });
  // The S3 stores the browser uploads to and previews from, read when the console's page is served (a page loaded
  // before a store was added reaches it once reloaded), at most every few seconds.
  let storeOrigins = '';
  let originsRead = 0;
  root.use('*', async (c, next) => {
    if (!c.req.path.startsWith('/api') && Date.now() - originsRead > STORE_ORIGINS_TTL_MS) {
      originsRead = Date.now();
      storeOrigins = (await api.services.files.stores.origins().catch(() => [])).join(' ');
    }
    await next();
  });
  const stores = () => storeOrigins;
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
    }),
  );
  root.all('/api', (c) => api.app.fetch(c.req.raw, c.env));
  root.all('/api/*', (c) => api.app.fetch(c.req.raw, c.env));
  root.use(
    '*',
    serveStatic({
      root: path.relative(process.cwd(), DIST) || '.',
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

  const server = serve({ fetch: root.fetch, port: config.port }, (info) => {
    logger.info(
      { port: info.port, engine: config.databaseUrl ? 'postgres' : 'pglite' },
      `listening on http://localhost:${info.port}`,
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    // running imports stop at their next batch and are undone now, not once every connection has closed
    api.services.imports.stop();
    setTimeout(() => {
      logger.warn('requests still running after the grace period; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    server.close(async (err) => {
      if (err) logger.error({ err }, 'closing the HTTP server failed');
      await api.close();
      logger.info('stopped');
      process.exit(err ? 1 : 0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
