import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig, readEnvFiles } from './config';
import { listenForMetrics } from './core/metrics-http';
import { createLogger } from './logger';
import { startScheduledWork } from './scheduled-work';
import { createServer } from './server';
import { createWebRoot } from './web-root';

const DIST = path.resolve('dist');
const INDEX_HTML = path.join(DIST, 'index.html');
const SHUTDOWN_GRACE_MS = 10_000;

function ensureConsoleBuilt(logger: Logger) {
  if (existsSync(INDEX_HTML)) return;
  logger.info('dist/index.html is missing: building the console (npx max build)');
  const result = spawnSync('npx', ['max', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0 || !existsSync(INDEX_HTML)) {
    logger.fatal('the console build failed');
    process.exit(1);
  }
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

  const root = createWebRoot({
    api: api.app,
    indexHtml: readFileSync(INDEX_HTML, 'utf8'),
    dist: DIST,
    storeOrigins: () => api.services.files.stores.origins(),
    logger,
  });

  const server = serve({ fetch: root.fetch, port: config.port }, (info) => {
    logger.info(
      { port: info.port, engine: config.databaseUrl ? 'postgres' : 'pglite' },
      `listening on http://localhost:${info.port}`,
    );
  });

  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : listenForMetrics(api.services.metrics, config.metricsToken, config.metricsPort, (port) =>
          logger.info({ port }, `metrics on http://localhost:${port}/metrics`),
        );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    // the readiness probe answers 503 to the requests still coming on open connections
    api.services.readiness.stop();
    metricsServer?.close();
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
