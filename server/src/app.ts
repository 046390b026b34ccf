import { randomUUID } from 'node:crypto';
import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { AppEnv, Services } from './core/context';
import { ErrorCatalog } from './core/error-catalog';
import { createErrorHandler, createNotFoundHandler } from './core/error-handler';
import { AppError } from './core/errors';
import { resolveLang } from './core/i18n';
import { mountApiDocs, validationHook } from './core/openapi';
import { createPasswordHasher } from './core/password';
import { createPlatformScope } from './core/platform-scope';
import { createPrincipalCache } from './core/principal-cache';
import { createRateLimiter } from './core/rate-limit';
import { createImportJobs, IMPORT_BODY_LIMIT } from './core/resource/import-jobs';
import { createSystemLookups } from './core/system-lookups';
import { createTenancy } from './core/tenancy';
import type { Engine } from './db/database';
import type { DB } from './db/types';
import { PRINCIPAL_SOURCES } from './modules/auth/auth.repository';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { workspaceRoutes } from './modules/dashboard/workspace/workspace.routes';
import { createWorkspaceService } from './modules/dashboard/workspace/workspace.service';
import { businessItemRoutes } from './modules/dictionary/busiitem/busiitem.routes';
import { createBusinessItemService } from './modules/dictionary/busiitem/busiitem.service';
import { dictRoutes } from './modules/dictionary/catalog/catalog.routes';
import { createDictService } from './modules/dictionary/catalog/catalog.service';
import { errorCodeRoutes } from './modules/dictionary/errcode/errcode.routes';
import { createErrorCodeService } from './modules/dictionary/errcode/errcode.service';
import { industryRoutes } from './modules/dictionary/industry/industry.routes';
import { createIndustryService } from './modules/dictionary/industry/industry.service';
import { dictItemRoutes } from './modules/dictionary/syscode/syscode-item.routes';
import { createDictItemService } from './modules/dictionary/syscode/syscode-item.service';
import { dictTypeRoutes } from './modules/dictionary/syscode/syscode-type.routes';
import { createDictTypeService } from './modules/dictionary/syscode/syscode-type.service';
import { ping } from './modules/health/health.repository';
import { healthRoutes } from './modules/health/health.routes';
import { adminUserRoutes } from './modules/system/admin/admin.routes';
import { createAdminUserService } from './modules/system/admin/admin.service';
import { auditRoutes } from './modules/system/audit/audit.routes';
import { createAuditService } from './modules/system/audit/audit.service';
import { oauthClientRoutes } from './modules/system/client/client.routes';
import { createOauthClientService } from './modules/system/client/client.service';
import { districtRoutes } from './modules/system/district/district.routes';
import { createDistrictService } from './modules/system/district/district.service';
import { permissionRoutes } from './modules/system/permission/permission.routes';
import { createPermissionService } from './modules/system/permission/permission.service';
import { roleRoutes } from './modules/system/role/role.routes';
import { createRoleService } from './modules/system/role/role.service';
import { settingsRoutes } from './modules/system/settings/settings.routes';
import { createSettingsService } from './modules/system/settings/settings.service';
import { tenantRoutes } from './modules/system/tenant/tenant.routes';
import { createTenantService } from './modules/system/tenant/tenant.service';
import { tenantPackageRoutes } from './modules/system/tenant-package/tenant-package.routes';
import { createTenantPackageService } from './modules/system/tenant-package/tenant-package.service';

export const API_VERSION = '0.1.0';

export interface AppDeps {
  db: Kysely<DB>;
  engine: Engine;
  config: Config;
  logger?: Logger;
}

export function createServices({ db: unwatched, engine, config, logger }: AppDeps) {
  const principals = createPrincipalCache({
    sources: PRINCIPAL_SOURCES,
    ttlMs: config.authCacheTtlMs,
    now: config.now,
  });
  const db = unwatched.withPlugin(principals.plugin);
  const tenancy = createTenancy(db, principals.watchTransaction);
  const lookups = createSystemLookups(tenancy);
  const hasher = createPasswordHasher(config.argon2);
  const catalog = new ErrorCatalog();
  const audit = createAuditService({ tenancy });
  const platform = createPlatformScope();
  const settings = createSettingsService({ tenancy, lookups, audit, platform });
  const dict = createDictService({ tenancy, catalog });
  const configDeps = { tenancy, audit, catalog, platform };
  return {
    config,
    engine,
    /** The database with the principal cache's watch on it: write through this one, never around it. */
    db,
    tenancy,
    hasher,
    catalog,
    settings,
    imports: createImportJobs({
      tenancy,
      settings,
      catalog,
      engine,
      analyze: async () => {
        await sql`ANALYZE`.execute(db);
      },
      logger,
    }),
    tokenRateLimiter: createRateLimiter(config.tokenRateLimit, config.now),
    auth: createAuthService({ tenancy, lookups, settings, hasher, config, principals }),
    dict,
    dictTypes: createDictTypeService(configDeps),
    dictItems: createDictItemService(configDeps),
    errorCodes: createErrorCodeService({ ...configDeps, onChange: dict.reloadErrorCatalog }),
    districts: createDistrictService(configDeps),
    industries: createIndustryService(configDeps),
    businessItems: createBusinessItemService(configDeps),
    audit,
    adminUsers: createAdminUserService({ tenancy, audit, catalog, hasher, settings, config }),
    tenants: createTenantService({ tenancy, audit, catalog, hasher, settings, config }),
    tenantPackages: createTenantPackageService({ tenancy, audit, catalog }),
    permissions: createPermissionService({ tenancy, audit, catalog }),
    roles: createRoleService({ tenancy, audit, catalog }),
    clients: createOauthClientService({ tenancy, audit, catalog, hasher }),
    workspace: createWorkspaceService({ tenancy, now: config.now }),
    health: { ping: () => tenancy.inPlatformScope(ping) },
  };
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
  // API answers carry personal data and tokens: no cache keeps them, except assets that say they are public.
  app.use('/api/*', async (c, next) => {
    await next();
    if (!c.res.headers.get('cache-control')?.startsWith('public')) c.header('Cache-Control', 'no-store');
  });
  const tooLarge = () => {
    throw new AppError('common.payloadTooLarge');
  };
  const jsonLimit = bodyLimit({ maxSize: 1024 * 1024, onError: tooLarge });
  // Spreadsheets may be larger; their own limits come from the tenant's settings (import-jobs.ts).
  const importLimit = bodyLimit({ maxSize: IMPORT_BODY_LIMIT, onError: tooLarge });
  app.use('/api/*', (c, next) => (/\/import(-jobs)?$/.test(c.req.path) ? importLimit : jsonLimit)(c, next));

  app.route('/api', healthRoutes());
  app.route('/api', authRoutes());
  app.route('/api', settingsRoutes());
  app.route('/api', dictRoutes());
  app.route('/api', dictTypeRoutes());
  app.route('/api', dictItemRoutes());
  app.route('/api', errorCodeRoutes());
  app.route('/api', districtRoutes());
  app.route('/api', industryRoutes());
  app.route('/api', businessItemRoutes());
  app.route('/api', adminUserRoutes());
  app.route('/api', tenantRoutes());
  app.route('/api', tenantPackageRoutes());
  app.route('/api', permissionRoutes());
  app.route('/api', roleRoutes());
  app.route('/api', oauthClientRoutes());
  app.route('/api', auditRoutes());
  app.route('/api', workspaceRoutes());
  mountApiDocs(app, API_VERSION);

  return app;
}
