import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppEnv, Services } from './core/context';
import { ErrorCatalog } from './core/error-catalog';
import { createErrorHandler, createNotFoundHandler, JSON_BODY_LIMIT, payloadTooLarge } from './core/error-handler';
import { resolveLang } from './core/i18n';
import { createIdNumberCipher } from './core/id-number';
import { createInstances } from './core/instances';
import type { Invalidation } from './core/invalidation';
import type { Jobs } from './core/jobs';
import type { Metrics } from './core/metrics';
import { recordRequests, scrapeMetrics } from './core/metrics-http';
import { mountApiDocs, validationHook } from './core/openapi';
import { createOutbound } from './core/outbound';
import { createPasswordHasher } from './core/password';
import { createPlatformScope } from './core/platform-scope';
import { createPrincipalCache } from './core/principal-cache';
import { createRateLimiter } from './core/rate-limit';
import { createImportJobs, IMPORT_BODY_LIMIT } from './core/resource/import-jobs';
import { keyRingOf } from './core/seal';
import { createSecretBox } from './core/secret-box';
import { createSystemLookups } from './core/system-lookups';
import { createTenancy } from './core/tenancy';
import type { Engine } from './db/database';
import type { DB } from './db/types';
import { PRINCIPAL_SOURCES } from './modules/auth/auth.repository';
import { createAuthService } from './modules/auth/auth.service';
import { createWorkspaceService } from './modules/dashboard/workspace/workspace.service';
import { createDictService } from './modules/dictionary/catalog/catalog.service';
import { ping } from './modules/health/health.repository';
import { createReadiness } from './modules/health/readiness';
import { metaRoutes } from './modules/meta/meta.routes';
import { type ModuleDeps, type ResourceServices, resources, routeModules } from './modules/registry';
import { createAuditService } from './modules/system/audit/audit.service';
import { createRetentionService } from './modules/system/retention/retention.service';
import { createSettingsService, SETTING_SECRET } from './modules/system/settings/settings.service';

export const API_VERSION = '0.1.0';
/** The one route whose body is not JSON and has no fixed limit. */
const UPLOAD_PATH = '/api/file/file/upload';

export interface AppDeps {
  db: Kysely<DB>;
  engine: Engine;
  config: Config;
  /** The background queues (core/jobs.ts): pg-boss on PostgreSQL, in process on the embedded database. */
  jobs: Jobs;
  /** Tells the other instances on the database which of their caches a write made stale (core/invalidation.ts). */
  invalidation: Invalidation;
  /** The counters and gauges of `/metrics` (core/metrics.ts). */
  metrics: Metrics;
  logger?: Logger;
}

export function createServices({ db: unwatched, engine, config, jobs, invalidation, metrics, logger }: AppDeps) {
  const principals = createPrincipalCache({
    sources: PRINCIPAL_SOURCES,
    ttlMs: config.authCacheTtlMs,
    now: config.now,
    onWritten: () => invalidation.publish('principals'),
  });
  invalidation.subscribe('principals', principals.invalidate);
  const db = unwatched.withPlugin(principals.plugin);
  const tenancy = createTenancy(db, principals.watchTransaction);
  const lookups = createSystemLookups(tenancy);
  const hasher = createPasswordHasher(config.argon2);
  const catalog = new ErrorCatalog();
  const audit = createAuditService({ tenancy });
  const platform = createPlatformScope();
  const outbound = createOutbound({ config, tenancy, logger });
  const settings = createSettingsService({
    tenancy,
    lookups,
    audit,
    platform,
    outbound,
    secrets: createSecretBox(keyRingOf(config), SETTING_SECRET),
  });
  const dict = createDictService({ tenancy, catalog, publish: () => invalidation.publish('error-catalog') });
  invalidation.subscribe('error-catalog', dict.reloadErrorCatalog);
  const idNumbers = createIdNumberCipher(keyRingOf(config));
  const modules = buildModules({
    tenancy,
    audit,
    catalog,
    platform,
    hasher,
    settings,
    dict,
    config,
    idNumbers,
    jobs,
    outbound,
    metrics,
  });
  const instances = createInstances({ tenancy, dataDir: config.dataDir, logger });
  return {
    config,
    engine,
    /** The database with the principal cache's watch on it: write through this one, never around it. */
    db,
    tenancy,
    hasher,
    catalog,
    jobs,
    invalidation,
    metrics,
    /** Whether the server takes traffic (`/api/ready`); told at shutdown. */
    readiness: createReadiness({ db: unwatched, jobs }),
    settings,
    /** The daily purge of old log rows and sent messages (`retention.*` settings). */
    retention: createRetentionService({ tenancy, settings, onPurged: metrics.rowsPurged }),
    /** The guard of the addresses the server connects to (core/outbound.ts). */
    outbound,
    /** This server process among those on the database (core/instances.ts). */
    instances,
    imports: createImportJobs({
      tenancy,
      settings,
      catalog,
      engine,
      owner: instances,
      analyze: async () => {
        await sql`ANALYZE`.execute(db);
      },
      onRowsImported: metrics.rowsImported,
      logger,
    }),
    tokenRateLimiter: createRateLimiter({ name: 'auth_token', ...config.tokenRateLimit }, { engine, db: unwatched }),
    auth: createAuthService({ tenancy, lookups, settings, hasher, config, principals }),
    dict,
    audit,
    workspace: createWorkspaceService({ tenancy, now: config.now }),
    health: { ping: () => tenancy.inPlatformScope(ping) },
    ...modules.services,
    /** The routes of every registered resource, bound to its service (createApp mounts them). */
    resourceRoutes: modules.routes,
  };
}

/** Builds every registered resource's service, in the registry's order, and keeps its routes for createApp. */
function buildModules(deps: ModuleDeps) {
  const routes: (() => OpenAPIHono<AppEnv>)[] = [];
  const services = Object.fromEntries(
    Object.entries(resources).map(([name, module]) => {
      const built = module(deps);
      routes.push(built.routes);
      return [name, built.service];
    }),
  );
  // Object.entries loses the pairing of each name with its module's service type; the registry states it.
  return { services: services as ResourceServices, routes };
}

declare module './core/context' {
  interface Services extends ReturnType<typeof createServices> {}
}

/** The API as a Hono app under /api; no global state, everything comes from `services`. */
export function createApp(services: Services, logger?: Logger) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const onError = createErrorHandler(services.catalog, logger);
  app.onError(onError);
  app.notFound(createNotFoundHandler(onError));

  app.use('*', recordRequests(services.metrics));
  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
    c.set('requestId', requestId);
    c.set('lang', resolveLang(c.req.header('accept-language')));
    c.set('services', services);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    logger?.info(
      {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });
  // API answers carry personal data and tokens: no cache keeps them, except assets that say they are public. Set
  // before the handler, the header is part of the response it builds; set afterwards, the response is built again
  // (with its body as a stream), so that happens only to the rare answer that asked for another policy.
  app.use('/api/*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
    const policy = c.res.headers.get('cache-control');
    if (policy !== 'no-store' && !policy?.startsWith('public')) c.header('Cache-Control', 'no-store');
  });
  const limitOf = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw payloadTooLarge(maxSize);
      },
    });
  const jsonLimit = limitOf(JSON_BODY_LIMIT);
  // Spreadsheets may be larger; their own limits come from the tenant's settings (import-jobs.ts).
  const importLimit = limitOf(IMPORT_BODY_LIMIT);
  // A GET or HEAD has no body; asking for it would build the whole fetch Request that node-server otherwise spares. An
  // upload is streamed to the store and stopped at the tenant's own limit (file.service.ts).
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.path === UPLOAD_PATH
      ? next()
      : (/\/import(-jobs)?$/.test(c.req.path) ? importLimit : jsonLimit)(c, next),
  );

  for (const routes of routeModules) app.route('/api', routes());
  app.route('/api', metaRoutes());
  for (const routes of services.resourceRoutes) app.route('/api', routes());
  mountApiDocs(app, API_VERSION);
  // on the server's own port only to a bearer of METRICS_TOKEN, else 404 (main.ts may open METRICS_PORT for it);
  // Hono's bearer middleware compares the token in constant time
  const metricsToken = services.config.metricsToken;
  if (metricsToken) app.get('/metrics', bearerAuth({ token: metricsToken }), scrapeMetrics(services.metrics));

  return app;
}
