import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppEnv } from './core/context';
import { ErrorCatalog } from './core/error-catalog';
import { createErrorHandler, createNotFoundHandler } from './core/error-handler';
import { AppError } from './core/errors';
import { resolveLang } from './core/i18n';
import { mountApiDocs, validationHook } from './core/openapi';
import { createPasswordHasher } from './core/password';
import { createRateLimiter } from './core/rate-limit';
import { createSystemLookups } from './core/system-lookups';
import { createTenancy } from './core/tenancy';
import type { Engine } from './db/database';
import type { DB } from './db/types';
import { adminUserRoutes } from './modules/admin-user/admin-user.routes';
import { createAdminUserService } from './modules/admin-user/admin-user.service';
import { auditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { dictRoutes } from './modules/dict/dict.routes';
import { createDictService } from './modules/dict/dict.service';
import { ping } from './modules/health/health.repository';
import { healthRoutes } from './modules/health/health.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { createSettingsService } from './modules/settings/settings.service';

export const API_VERSION = '0.1.0';

export interface AppDeps {
  db: Kysely<DB>;
  engine: Engine;
  config: Config;
  logger?: Logger;
}

export function createServices({ db, engine, config }: AppDeps) {
  const tenancy = createTenancy(db);
  const lookups = createSystemLookups(tenancy);
  const hasher = createPasswordHasher(config.argon2);
  const catalog = new ErrorCatalog();
  const settings = createSettingsService({ tenancy, lookups });
  const audit = createAuditService({ tenancy });
  return {
    config,
    engine,
    tenancy,
    hasher,
    catalog,
    settings,
    tokenRateLimiter: createRateLimiter(config.tokenRateLimit, config.now),
    auth: createAuthService({ tenancy, lookups, settings, hasher, config }),
    dict: createDictService({ tenancy, catalog }),
    audit,
    adminUsers: createAdminUserService({ tenancy, audit, catalog, hasher, settings, config }),
    health: { ping: () => tenancy.inPlatformScope(ping) },
  };
}

export type Services = ReturnType<typeof createServices>;

/** The API as a Hono app under /api; no global state, everything comes from `services`. */
export function createApp(services: Services, logger?: Logger) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const onError = createErrorHandler(services.catalog, logger);
  app.onError(onError);
  app.notFound(createNotFoundHandler(onError));

  app.use('*', async (c, next) => {
    const requestId = c.req.header('x-request-id')?.slice(0, 64) || randomUUID();
    c.set('requestId', requestId);
    c.set('lang', resolveLang(c.req.header('accept-language')));
    c.set('services', services);
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    logger?.info(
      { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  app.use('/api/*', bodyLimit({ maxSize: 1024 * 1024, onError: () => { throw new AppError('common.payloadTooLarge'); } }));

  app.route('/api', healthRoutes());
  app.route('/api', authRoutes());
  app.route('/api', settingsRoutes());
  app.route('/api', dictRoutes());
  app.route('/api', adminUserRoutes());
  app.route('/api', auditRoutes());
  mountApiDocs(app, API_VERSION);

  return app;
}
