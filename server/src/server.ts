import type { Hono } from 'hono';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { createApp, createServices } from './app';
import { type Config, resolveConfig, resolveKeys } from './config';
import type { AppEnv, Services } from './core/context';
import type { InstanceTiming } from './core/instances';
import { createInvalidation } from './core/invalidation';
import { createJobs, type Jobs } from './core/jobs';
import { createMetrics } from './core/metrics';
import { importTargetsOf } from './core/resource/import-jobs';
import { type DatabaseOptions, onDirectSession, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrator';
import { seedBase } from './db/seed/base';
import { seedDemo } from './db/seed/demo';
import { seedDemoContent } from './db/seed/demo-content';
import { holdStartupLock } from './db/startup-lock';
import type { DB } from './db/types';
import { declareScheduledWork } from './scheduled-work';

export interface CreateServerOptions {
  database: DatabaseOptions;
  /** Seed the demo tenant (demo/admin/admin123, demo/viewer/viewer123) unless it exists. */
  demo?: boolean;
  /**
   * With `demo`: when the demo tenant is created, fill it with the demo content (organisations, people, questions,
   * papers, a course, activities) through the API (db/seed/demo-content.ts). Off unless asked for.
   */
  demoContent?: boolean;
  logger?: false | Logger;
  config?: Partial<Config>;
  /**
   * `server` (the default) serves the API: it recovers the imports a stopped process left and prepares the job queues.
   * `tool` is a command-line tool on the same database (create-admin): it opens, migrates and seeds the base data, and
   * leaves imports, jobs and the demo tenant to the servers.
   */
  role?: 'server' | 'tool';
  /**
   * The process registers as a server instance with a heartbeat, and takes over the import jobs of instances gone
   * (core/instances.ts); a tool never does, and `false` keeps a server out too. Tests may shorten the timing.
   */
  instance?: false | Partial<InstanceTiming>;
}

export interface ApiServer {
  app: Hono<AppEnv>;
  db: Kysely<DB>;
  services: Services;
  /** The configuration it runs with, its master key resolved. */
  config: Config;
  /** On the embedded database: its dump, for a backup taken while it runs (db/backup/dump-channel.ts). */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/**
 * Opens the database, migrates, seeds base (and optionally demo) data and builds the app. Instances started together
 * take turns for the work that prepares the database (db/startup-lock.ts).
 */
export async function createServer(options: CreateServerOptions): Promise<ApiServer> {
  const resolved = resolveConfig(options.config);
  const logger = options.logger || undefined;
  const config = { ...resolved, ...resolveKeys(resolved, options.database, (line) => logger?.info(line)) };
  const server = (options.role ?? 'server') === 'server';
  const metrics = createMetrics();
  const { db, engine, dumpDataDir, poolUse, close } = await openDatabase(options.database, (error) =>
    logger?.warn({ err: error }, 'the database closed a connection: the pool opens another'),
  );
  const invalidation = createInvalidation(
    options.database.kind === 'postgres'
      ? { kind: 'postgres', url: options.database.directUrl ?? options.database.url, db }
      : { kind: 'local' },
    logger,
  );
  let jobs: Jobs | undefined;
  let services: Services;
  try {
    const lock = await holdStartupLock(options.database, logger);
    let demoCreated = false;
    try {
      const applied = await onDirectSession(options.database, db, migrateToLatest);
      for (const line of applied) logger?.info(line);
      jobs = createJobs(
        options.database.kind === 'postgres' ? { kind: 'postgres', url: options.database.url } : { kind: 'local' },
        logger,
        { work: server, onFailure: metrics.jobFailed },
      );
      services = createServices({ db, engine, config, jobs, invalidation, metrics, logger });
      metrics.watch({ pool: poolUse, queueDepth: jobs.depth });
      // listening before the caches are first filled, so that no change made meanwhile is missed
      if (server) await invalidation.start();
      declareScheduledWork(services, logger);
      if (server) await jobs.prepare();
      await services.tenancy.asSystem(seedBase);
      const sealed = await services.tenancy.asSystem(services.settings.sealStoredSecrets);
      if (sealed) logger?.info({ sealed }, 'secret settings kept in clear are sealed');
      const hasher = services.hasher;
      demoCreated = server && options.demo === true && (await services.tenancy.asSystem((tx) => seedDemo(tx, hasher)));
      if (demoCreated) logger?.info('demo data created: tenant demo, users admin/admin123 and viewer/viewer123');
    } finally {
      await lock.release();
    }
    await services.dict.reloadErrorCatalog();
    if (server && options.instance !== false) {
      // Import jobs whose instance stopped or went silent: undone and failed, in the background, now and after every
      // heartbeat (a killed instance's job ends within its staleness and a heartbeat).
      const targets = importTargetsOf(services);
      const recover = () =>
        services.imports
          .recover(targets)
          .catch((err: unknown) => logger?.error({ err }, 'recovering interrupted import jobs failed'));
      await services.instances.register({
        ...options.instance,
        onBeat: recover,
        usesLocalDisk: () => services.files.stores.localInUse(),
      });
      void recover();
    }
    const app = createApp(services, logger);
    if (demoCreated && options.demoContent) {
      const started = performance.now();
      // through an app of its own that logs no request: the content's 150 calls are not the operator's; a call the
      // content's lists no longer fit is said, and the server starts with what was made rather than not at all
      await seedDemoContent(createApp(services), config.now()).then(
        () => logger?.info({ ms: Math.round(performance.now() - started) }, 'demo content created in tenant demo'),
        (err: unknown) => logger?.error({ err }, 'demo content stopped short: tenant demo holds what was made before'),
      );
    }
    let closed = false;
    return {
      app,
      db: services.db,
      services,
      config,
      dumpDataDir,
      close: async () => {
        if (closed) return;
        closed = true;
        // the readiness probe answers 503 from now on
        services.readiness.stop();
        // running imports stop at their next batch and are undone; then the instance says it stopped
        services.imports.stop();
        await services.imports.idle();
        await services.instances.stop();
        await services.jobs.stop();
        await invalidation.stop();
        await close();
      },
    };
  } catch (err) {
    await invalidation.stop();
    // pg-boss, once prepared, holds connections of its own
    await jobs?.stop().catch(() => {});
    await close();
    throw err;
  }
}
