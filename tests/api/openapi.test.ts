import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/database';
import { migrations } from '../../server/src/db/migrations';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { engines, startApi, type TestApi } from './helpers';

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
    for (const [path, item] of Object.entries(
      res.body.paths as Record<string, Record<string, { 'x-permission': string }>>,
    )) {
      for (const [method, op] of Object.entries(item))
        permissions[`${method.toUpperCase()} ${path}`] = op['x-permission'];
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
      'POST /api/admin-users/import-jobs': 'system:admin:import',
      'GET /api/admin-users/import-jobs/latest': 'system:admin:import',
      'GET /api/admin-users/import-jobs/{id}': 'system:admin:import',
      'POST /api/admin-users/import-jobs/{id}/cancel': 'system:admin:import',
      'GET /api/admin-users/import-jobs/{id}/failures': 'system:admin:import',
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
      'GET /api/workspace': 'authenticated',
      'GET /api/auth/menus': 'authenticated',
      'GET /api/tenants/resolve': 'public',
      'GET /api/tenants': 'system:tenant:list',
      'POST /api/tenants': 'system:tenant:create',
      'GET /api/tenants/export': 'system:tenant:export',
      'GET /api/tenants/import-template': 'system:tenant:import',
      'POST /api/tenants/import-jobs': 'system:tenant:import',
      'GET /api/tenants/import-jobs/latest': 'system:tenant:import',
      'GET /api/tenants/import-jobs/{id}': 'system:tenant:import',
      'POST /api/tenants/import-jobs/{id}/cancel': 'system:tenant:import',
      'GET /api/tenants/import-jobs/{id}/failures': 'system:tenant:import',
      'POST /api/tenants/import': 'system:tenant:import',
      'POST /api/tenants/batch-delete': 'system:tenant:delete',
      'GET /api/tenants/{id}': 'system:tenant:list',
      'PUT /api/tenants/{id}': 'system:tenant:update',
      'DELETE /api/tenants/{id}': 'system:tenant:delete',
      'POST /api/tenants/{id}/disable': 'system:tenant:disable',
      'POST /api/tenants/{id}/enable': 'system:tenant:enable',
      'POST /api/tenants/{id}/renew': 'system:tenant:renew',
      'GET /api/tenant-packages': 'system:tenant-package:list',
      'POST /api/tenant-packages': 'system:tenant-package:create',
      'GET /api/tenant-packages/export': 'system:tenant-package:export',
      'GET /api/tenant-packages/import-template': 'system:tenant-package:import',
      'POST /api/tenant-packages/import-jobs': 'system:tenant-package:import',
      'GET /api/tenant-packages/import-jobs/latest': 'system:tenant-package:import',
      'GET /api/tenant-packages/import-jobs/{id}': 'system:tenant-package:import',
      'POST /api/tenant-packages/import-jobs/{id}/cancel': 'system:tenant-package:import',
      'GET /api/tenant-packages/import-jobs/{id}/failures': 'system:tenant-package:import',
      'POST /api/tenant-packages/import': 'system:tenant-package:import',
      'POST /api/tenant-packages/batch-delete': 'system:tenant-package:delete',
      'GET /api/tenant-packages/{id}': 'system:tenant-package:list',
      'PUT /api/tenant-packages/{id}': 'system:tenant-package:update',
      'DELETE /api/tenant-packages/{id}': 'system:tenant-package:delete',
      'GET /api/permissions/tree': 'system:permission:list',
      'GET /api/permissions': 'system:permission:list',
      'POST /api/permissions': 'system:permission:create',
      'GET /api/permissions/export': 'system:permission:export',
      'GET /api/permissions/import-template': 'system:permission:import',
      'POST /api/permissions/import-jobs': 'system:permission:import',
      'GET /api/permissions/import-jobs/latest': 'system:permission:import',
      'GET /api/permissions/import-jobs/{id}': 'system:permission:import',
      'POST /api/permissions/import-jobs/{id}/cancel': 'system:permission:import',
      'GET /api/permissions/import-jobs/{id}/failures': 'system:permission:import',
      'POST /api/permissions/import': 'system:permission:import',
      'POST /api/permissions/batch-delete': 'system:permission:delete',
      'GET /api/permissions/{id}': 'system:permission:list',
      'PUT /api/permissions/{id}': 'system:permission:update',
      'DELETE /api/permissions/{id}': 'system:permission:delete',
      'GET /api/roles/options': ['system:role:list', 'system:admin:list'],
      'GET /api/roles': 'system:role:list',
      'POST /api/roles': 'system:role:create',
      'GET /api/roles/export': 'system:role:export',
      'GET /api/roles/import-template': 'system:role:import',
      'POST /api/roles/import-jobs': 'system:role:import',
      'GET /api/roles/import-jobs/latest': 'system:role:import',
      'GET /api/roles/import-jobs/{id}': 'system:role:import',
      'POST /api/roles/import-jobs/{id}/cancel': 'system:role:import',
      'GET /api/roles/import-jobs/{id}/failures': 'system:role:import',
      'POST /api/roles/import': 'system:role:import',
      'POST /api/roles/batch-delete': 'system:role:delete',
      'GET /api/roles/{id}': 'system:role:list',
      'PUT /api/roles/{id}': 'system:role:update',
      'DELETE /api/roles/{id}': 'system:role:delete',
      'GET /api/roles/{id}/permissions': 'system:role:list',
      'PUT /api/roles/{id}/permissions': 'system:role:assign-permission',
      'PUT /api/roles/{id}/data-scope': 'system:role:assign-data-scope',
      'GET /api/roles/{id}/members': 'system:role:list',
      'POST /api/roles/{id}/members': 'system:role:assign-user',
      'DELETE /api/roles/{id}/members/{userId}': 'system:role:assign-user',
      'GET /api/clients': 'system:client:list',
      'POST /api/clients': 'system:client:create',
      'GET /api/clients/export': 'system:client:export',
      'GET /api/clients/import-template': 'system:client:import',
      'POST /api/clients/batch-delete': 'system:client:delete',
      'GET /api/clients/{id}': 'system:client:list',
      'PUT /api/clients/{id}': 'system:client:update',
      'DELETE /api/clients/{id}': 'system:client:delete',
      'POST /api/clients/{id}/rotate-secret': 'system:client:rotate-secret',
      'POST /api/clients/{id}/revoke-tokens': 'system:client:revoke-tokens',
      'GET /api/settings': 'system:setting:list',
      'PUT /api/settings/{key}': 'system:setting:update',
      'DELETE /api/settings/{key}/override': 'system:setting:update',
      'GET /api/dict-types': 'dict:code:list',
      'POST /api/dict-types': 'dict:code:create',
      'GET /api/dict-types/export': 'dict:code:export',
      'GET /api/dict-types/import-template': 'dict:code:import',
      'POST /api/dict-types/import-jobs': 'dict:code:import',
      'GET /api/dict-types/import-jobs/latest': 'dict:code:import',
      'GET /api/dict-types/import-jobs/{id}': 'dict:code:import',
      'POST /api/dict-types/import-jobs/{id}/cancel': 'dict:code:import',
      'GET /api/dict-types/import-jobs/{id}/failures': 'dict:code:import',
      'POST /api/dict-types/import': 'dict:code:import',
      'POST /api/dict-types/batch-delete': 'dict:code:delete',
      'GET /api/dict-types/{id}': 'dict:code:list',
      'PUT /api/dict-types/{id}': 'dict:code:update',
      'DELETE /api/dict-types/{id}': 'dict:code:delete',
      'GET /api/dict-items': 'dict:code:list',
      'POST /api/dict-items': 'dict:code:item-create',
      'GET /api/dict-items/export': 'dict:code:export',
      'GET /api/dict-items/import-template': 'dict:code:import',
      'POST /api/dict-items/import-jobs': 'dict:code:import',
      'GET /api/dict-items/import-jobs/latest': 'dict:code:import',
      'GET /api/dict-items/import-jobs/{id}': 'dict:code:import',
      'POST /api/dict-items/import-jobs/{id}/cancel': 'dict:code:import',
      'GET /api/dict-items/import-jobs/{id}/failures': 'dict:code:import',
      'POST /api/dict-items/import': 'dict:code:import',
      'POST /api/dict-items/batch-delete': 'dict:code:delete',
      'GET /api/dict-items/{id}': 'dict:code:list',
      'PUT /api/dict-items/{id}': 'dict:code:item-update',
      'DELETE /api/dict-items/{id}': 'dict:code:delete',
      'GET /api/error-codes': 'dict:errcode:list',
      'POST /api/error-codes': 'dict:errcode:create',
      'GET /api/error-codes/export': 'dict:errcode:export',
      'GET /api/error-codes/import-template': 'dict:errcode:import',
      'POST /api/error-codes/import-jobs': 'dict:errcode:import',
      'GET /api/error-codes/import-jobs/latest': 'dict:errcode:import',
      'GET /api/error-codes/import-jobs/{id}': 'dict:errcode:import',
      'POST /api/error-codes/import-jobs/{id}/cancel': 'dict:errcode:import',
      'GET /api/error-codes/import-jobs/{id}/failures': 'dict:errcode:import',
      'POST /api/error-codes/import': 'dict:errcode:import',
      'POST /api/error-codes/batch-delete': 'dict:errcode:delete',
      'GET /api/error-codes/{id}': 'dict:errcode:list',
      'PUT /api/error-codes/{id}': 'dict:errcode:update',
      'DELETE /api/error-codes/{id}': 'dict:errcode:delete',
      'GET /api/districts/tree': 'system:district:list',
      'POST /api/districts/import': 'system:district:import',
      'GET /api/districts': 'system:district:list',
      'POST /api/districts': 'system:district:create',
      'GET /api/districts/export': 'system:district:export',
      'GET /api/districts/import-template': 'system:district:import',
      'POST /api/districts/batch-delete': 'system:district:delete',
      'GET /api/districts/{id}': 'system:district:list',
      'PUT /api/districts/{id}': 'system:district:update',
      'DELETE /api/districts/{id}': 'system:district:delete',
      'GET /api/industries/tree': 'dict:industry:list',
      'GET /api/industries': 'dict:industry:list',
      'POST /api/industries': 'dict:industry:create',
      'GET /api/industries/export': 'dict:industry:export',
      'GET /api/industries/import-template': 'dict:industry:import',
      'POST /api/industries/import-jobs': 'dict:industry:import',
      'GET /api/industries/import-jobs/latest': 'dict:industry:import',
      'GET /api/industries/import-jobs/{id}': 'dict:industry:import',
      'POST /api/industries/import-jobs/{id}/cancel': 'dict:industry:import',
      'GET /api/industries/import-jobs/{id}/failures': 'dict:industry:import',
      'POST /api/industries/import': 'dict:industry:import',
      'POST /api/industries/batch-delete': 'dict:industry:delete',
      'GET /api/industries/{id}': 'dict:industry:list',
      'PUT /api/industries/{id}': 'dict:industry:update',
      'DELETE /api/industries/{id}': 'dict:industry:delete',
      'GET /api/business-items': 'dict:busiitem:list',
      'POST /api/business-items': 'dict:busiitem:create',
      'GET /api/business-items/export': 'dict:busiitem:export',
      'GET /api/business-items/import-template': 'dict:busiitem:import',
      'POST /api/business-items/import-jobs': 'dict:busiitem:import',
      'GET /api/business-items/import-jobs/latest': 'dict:busiitem:import',
      'GET /api/business-items/import-jobs/{id}': 'dict:busiitem:import',
      'POST /api/business-items/import-jobs/{id}/cancel': 'dict:busiitem:import',
      'GET /api/business-items/import-jobs/{id}/failures': 'dict:busiitem:import',
      'POST /api/business-items/import': 'dict:busiitem:import',
      'POST /api/business-items/batch-delete': 'dict:busiitem:delete',
      'GET /api/business-items/{id}': 'dict:busiitem:list',
      'PUT /api/business-items/{id}': 'dict:busiitem:update',
      'DELETE /api/business-items/{id}': 'dict:busiitem:delete',
    });
    const list = res.body.paths['/api/admin-users'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['current', 'pageSize', 'sort', 'keyword', 'status', 'roleId', 'createdAt']),
    );
    expect(Object.keys(res.body.paths['/api/admin-users/import'].post.requestBody.content)).toEqual([
      'multipart/form-data',
    ]);
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
    const client = await api.db
      .selectFrom('oauth_client')
      .selectAll()
      .where('client_id', '=', 'console')
      .executeTakeFirstOrThrow();
    expect(client).toMatchObject({
      client_type: 'public',
      access_token_ttl_sec: 1800,
      refresh_token_ttl_sec: 2_592_000,
    });
    expect(client.grant_types.sort()).toEqual(['password', 'refresh_token']);
    const codes = await api.db.selectFrom('permission').select('code').where('code', 'is not', null).execute();
    expect(codes.map((c) => c.code)).toEqual(
      expect.arrayContaining(['dashboard:workspace:view', 'account:profile:view', 'system:admin:list']),
    );
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
    for (const key of [
      'common.validation',
      'common.unauthorized',
      'common.forbidden',
      'common.notFound',
      'common.versionConflict',
      'common.internal',
      'auth.invalidGrant',
      'auth.badCredentials',
      'auth.accountLocked',
      'auth.userDisabled',
      'auth.tooManyRequests',
      'tenant.disabled',
      'tenant.expired',
      'common.importFailed',
      'tenant.accountQuotaExceeded',
      'admin.selfOperation',
    ]) {
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
      const names = Object.keys(migrations);
      expect(names.slice(0, 4)).toEqual([
        '0001_core_schema',
        '0002_tenancy_rls',
        '0003_audit_log',
        '0004_system_indexes',
      ]);
      expect(await migrateToLatest(db)).toEqual(names.map((n) => `applied ${n}`));
      expect(await migrateToLatest(db)).toEqual([]);
      for (const name of [...names].reverse()) expect(await migrateDown(db)).toEqual([`reverted ${name}`]);
      const tables = await db.introspection.getTables();
      expect(tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_'))).toEqual([]);
      expect(await migrateToLatest(db)).toHaveLength(names.length);
    } finally {
      await close();
      await database.drop();
    }
  });
});
