import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/database';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { type TestApi, engines, startApi } from './helpers';

describe.each(engines())('documentation and public endpoints on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { demo: false });
  });
  afterAll(() => api?.close());

  it('GET /api/openapi.json lists every route with its permission', async () => {
    const res = await api.call('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const permissions: Record<string, string> = {};
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, { 'x-permission': string }>>)) {
      for (const [method, op] of Object.entries(item)) permissions[`${method.toUpperCase()} ${path}`] = op['x-permission'];
    }
    expect(permissions).toEqual({
      'GET /api/health': 'public',
      'POST /api/auth/token': 'public',
      'POST /api/auth/logout': 'authenticated',
      'GET /api/auth/me': 'authenticated',
      'PUT /api/auth/me': 'authenticated',
      'POST /api/auth/password': 'authenticated',
      'GET /api/settings/public': 'public',
      'GET /api/dict/syscodes': 'authenticated',
      'GET /api/dict/errcodes': 'public',
      'GET /api/admin-users': 'system:admin:list',
      'POST /api/admin-users': 'system:admin:create',
      'GET /api/admin-users/export': 'system:admin:export',
      'GET /api/admin-users/import-template': 'system:admin:import',
      'POST /api/admin-users/import': 'system:admin:import',
      'POST /api/admin-users/batch-delete': 'system:admin:delete',
      'GET /api/admin-users/{id}': 'system:admin:list',
      'PUT /api/admin-users/{id}': 'system:admin:update',
      'DELETE /api/admin-users/{id}': 'system:admin:delete',
      'POST /api/admin-users/{id}/enable': 'system:admin:update-status',
      'POST /api/admin-users/{id}/disable': 'system:admin:update-status',
      'POST /api/admin-users/{id}/unlock': 'system:admin:update-status',
      'POST /api/admin-users/{id}/reset-password': 'system:admin:reset-password',
      'POST /api/admin-users/{id}/force-logout': 'system:admin:force-logout',
      'PUT /api/admin-users/{id}/roles': 'system:admin:assign-role',
      'GET /api/audit-logs': 'authenticated',
      'GET /api/login-logs': 'system:admin:list',
    });
    const list = res.body.paths['/api/admin-users'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['current', 'pageSize', 'sort', 'keyword', 'status', 'roleId', 'createdAt']),
    );
    expect(Object.keys(res.body.paths['/api/admin-users/import'].post.requestBody.content)).toEqual(['multipart/form-data']);
    expect(res.body.components.schemas).toHaveProperty('AdminUserList');
    expect(res.body.paths['/api/admin-users/{id}'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('serves the reference page with local assets', async () => {
    const page = await api.call('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('/api/docs/swagger-ui-bundle.js');
    expect(page.body).not.toMatch(/https?:\/\/(?!localhost)/);
    const bundle = await api.server.app.fetch(new Request('http://test.local/api/docs/swagger-ui-bundle.js'));
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await api.call('GET', '/api/docs/init.js')).body).toContain('/api/openapi.json');
    expect((await api.call('GET', '/api/docs/secret.txt')).status).toBe(404);
  });

  it('GET /api/health reports the engine', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res).toMatchObject({ status: 200, body: { status: 'ok', engine: engine.name } });
  });

  it('seeds base data without demo data when not asked', async () => {
    const tenants = await api.db.selectFrom('tenant').select(['id', 'code']).execute();
    expect(tenants).toEqual([{ id: '1', code: 'platform' }]);
    expect(await api.db.selectFrom('admin_user').select('id').execute()).toEqual([]);
    const client = await api.db.selectFrom('oauth_client').selectAll().where('client_id', '=', 'console').executeTakeFirstOrThrow();
    expect(client).toMatchObject({ client_type: 'public', access_token_ttl_sec: 1800, refresh_token_ttl_sec: 2_592_000 });
    expect(client.grant_types.sort()).toEqual(['password', 'refresh_token']);
    const codes = await api.db.selectFrom('permission').select('code').where('code', 'is not', null).execute();
    expect(codes.map((c) => c.code)).toEqual(expect.arrayContaining(['dashboard:workspace:view', 'account:profile:view', 'system:admin:list']));
    const menu = await api.db
      .selectFrom('permission as p')
      .innerJoin('permission as parent', 'parent.id', 'p.parent_id')
      .select(['p.type', 'parent.type as parentType'])
      .where('p.code', '=', 'system:admin:reset-password')
      .executeTakeFirstOrThrow();
    expect(menu).toEqual({ type: 'button', parentType: 'menu' });
    const sign = await api.signIn('demo', 'admin', 'admin123');
    expect(sign.status).toBe(400);
  });

  it('GET /api/dict/errcodes lists the declared codes with both messages', async () => {
    const res = await api.call('GET', '/api/dict/errcodes');
    expect(res.status).toBe(200);
    const keys = res.body.map((c: { code: string }) => c.code);
    for (const key of ['common.validation', 'common.unauthorized', 'common.forbidden', 'common.notFound', 'common.versionConflict',
      'common.internal', 'auth.invalidGrant', 'auth.badCredentials', 'auth.accountLocked', 'auth.userDisabled',
      'auth.tooManyRequests', 'tenant.disabled', 'tenant.expired', 'common.importFailed', 'tenant.accountQuotaExceeded',
      'admin.selfOperation']) {
      expect(keys).toContain(key);
    }
    expect(res.body.find((c: { code: string }) => c.code === 'auth.accountLocked').httpStatus).toBe(423);
  });
});

describe.each(engines())('migrations on $name', (engine) => {
  it('apply, revert down to nothing and apply again', async () => {
    const database = await engine.create();
    const { db, close } = await openDatabase(database.options);
    try {
      expect(await migrateToLatest(db)).toEqual(['applied 0001_core_schema', 'applied 0002_tenancy_rls', 'applied 0003_audit_log']);
      expect(await migrateToLatest(db)).toEqual([]);
      expect(await migrateDown(db)).toEqual(['reverted 0003_audit_log']);
      expect(await migrateDown(db)).toEqual(['reverted 0002_tenancy_rls']);
      expect(await migrateDown(db)).toEqual(['reverted 0001_core_schema']);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
      expect(await migrateToLatest(db)).toHaveLength(3);
    } finally {
      await close();
      await database.drop();
    }
  });
});
