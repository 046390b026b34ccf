import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig, readEnvFiles } from './config';
import { listenForMetrics } from './core/metrics-http';
import { openDumpChannel, snapshotOf } from './db/backup/dump-channel';
import { createLogger } from './logger';
import { startScheduledWork } from './scheduled-work';
import { createServer } from './server';
import { createWebRoot } from './web-root';

/** The built console: the release's dist/ (this file is dist/server/main.js), or the checkout's beside the sources. */
const DIST = __filename.endsWith('.js') ? path.resolve(__dirname, '..') : path.resolve(__dirname, '../../dist');
const INDEX_HTML = path.join(DIST, 'index.html');
const SHUTDOWN_GRACE_MS = 10_000;

/** The console is built by `npm run build` (which `npm start` runs when dist/ is missing or stale), never here. */
function requireConsoleBuilt(logger: Logger) {
  if (existsSync(INDEX_HTML)) return;
  logger.fatal({ path: INDEX_HTML }, 'the built console is missing: run npm run build (or npm start, which builds it)');
  process.exit(1);
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
  requireConsoleBuilt(logger);

  const api = await createServer({
    database: config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl, directUrl: config.databaseDirectUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
    demo: !config.databaseUrl,
    demoContent: !config.databaseUrl && config.demoContent,
    logger,
    config,
  });

  // `npm run backup` asks a running embedded database for its dump here (db/backup/dump-channel.ts)
  const { dumpDataDir } = api;
  const dumpChannel = dumpDataDir
    ? await openDumpChannel(
        config.dataDir,
        () => snapshotOf(api.db, dumpDataDir, api.config.idNumberKey as Buffer),
        (err) => logger.error({ err }, 'a backup snapshot failed'),
      )
    : undefined;

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
      await dumpChannel?.close();
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
