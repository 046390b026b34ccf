import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, startApi, type TestApi, testClock, xlsxFile } from './helpers';

describe.each(engines())('tenants and tenant packages on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let tenantAdmin: string;
  const clock = testClock();

  const provision = (code: string, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/api/system/tenant', {
      token: platform,
      body: {
        code,
        name: `${code} hospital`,
        packageId: standardPackage,
        maxAccounts: 5,
        adminUserName: 'boss',
        adminPassword: 'Quiet-Otter-42',
        adminDisplayName: 'Boss',
        ...extra,
      },
    });
  let standardPackage: string;
  const counts = async () => ({
    tenants: (await api.db.selectFrom('tenant').select('id').execute()).length,
    roles: (await api.db.selectFrom('role').select('id').execute()).length,
    users: (await api.db.selectFrom('admin_user').select('id').execute()).length,
    grants: (await api.db.selectFrom('role_permission').select('role_id').execute()).length,
  });
  const permissionIds = async (codes: string[]) =>
    (await api.db.selectFrom('permission').select('id').where('code', 'in', codes).execute()).map((r) => r.id);

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    tenantAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
    standardPackage = (
      await api.db.selectFrom('tenant_package').select('id').where('name', '=', '标准套餐').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => api?.close());

  it('provisions tenant, tenant_admin role and first administrator in one transaction; the admin holds exactly the package', async () => {
    const small = await api.call('POST', '/api/system/tenant-package', {
      token: platform,
      body: {
        name: 'Small',
        permissionIds: await permissionIds(['dashboard:workspace:view', 'system:role:list', 'system:role:create']),
      },
    });
    expect(small.status, JSON.stringify(small.body)).toBe(201);
    // Another tenant's stricter password policy does not apply to the new tenant's administrator.
    const demo = await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    await api.db
      .insertInto('system_setting')
      .values({
        tenant_id: demo.id,
        key: 'security.password.minLength',
        category: 'security',
        name: 'min',
        value: '20',
        value_type: 'number',
      })
      .execute();
    const res = await provision('alpha', { packageId: small.body.id, contactMobile: '13800000009' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      code: 'alpha',
      packageName: 'Small',
      status: 'enabled',
      contactName: 'Boss',
      accountCount: 1,
      version: 0,
    });
    expect(res.body.adminUserId).toBe(await api.userId('alpha', 'boss'));
    const role = await api.db.selectFrom('role').selectAll().where('tenant_id', '=', res.body.id).execute();
    expect(role).toEqual([expect.objectContaining({ code: 'tenant_admin', type: 'system' })]);

    const boss = await api.tokens('alpha', 'boss', 'Quiet-Otter-42');
    const me = await api.call('GET', '/api/auth/me', { token: boss.access });
    expect(me.body.permissions).toEqual(['dashboard:workspace:view', 'system:role:create', 'system:role:list']);
    expect(me.body.roles).toEqual([{ code: 'tenant_admin', name: '租户管理员' }]);
    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource_type', '=', 'tenant')
      .where('resource_id', '=', res.body.id)
      .execute();
    expect(audit).toEqual([expect.objectContaining({ action: 'system:tenant:create', tenant_id: '1' })]);
    expect(JSON.stringify(audit)).not.toContain('Passw0rd');
  });

  it('leaves nothing behind when a step fails: duplicate code, a duplicate admin user name, a weak password', async () => {
    const before = await counts();
    const dupCode = await provision('alpha');
    expect(dupCode).toMatchObject({ status: 409, body: { code: 'common.duplicate' } });
    const weak = await provision('beta', { adminPassword: 'short' });
    expect(weak).toMatchObject({ status: 400, body: { code: 'auth.passwordPolicy' } });
    // A user-name clash at the very last insert (simulated by a unique index) undoes tenant, role and grants.
    await sql`CREATE UNIQUE INDEX test_boss_uq ON admin_user (username) WHERE username = 'boss'`.execute(api.db);
    try {
      const dupUser = await provision('gamma');
      expect(dupUser).toMatchObject({ status: 409, body: { code: 'common.duplicate' } });
    } finally {
      await sql`DROP INDEX test_boss_uq`.execute(api.db);
    }
    expect(await counts()).toEqual(before);
    expect((await api.call('GET', '/api/system/tenant/resolve?code=gamma')).status).toBe(404);
  });

  it('re-syncs roles when the package of a tenant or the permissions of a package change', async () => {
    const res = await provision('delta');
    const boss = (await api.tokens('delta', 'boss', 'Quiet-Otter-42')).access;
    const ownPassword = { currentPassword: 'Quiet-Otter-42', newPassword: 'Brisk-Heron-Lantern-77' };
    expect((await api.call('POST', '/api/auth/password', { token: boss, body: ownPassword })).status).toBe(204);
    const role = await api.call('POST', '/api/system/role', { token: boss, body: { code: 'clerk', name: 'Clerk' } });
    const keep = await permissionIds(['dashboard:workspace:view', 'system:role:list', 'system:admin:list']);
    expect(
      (
        await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
          token: boss,
          body: { permissionIds: keep },
        })
      ).status,
    ).toBe(200);

    const pkg = await api.call('POST', '/api/system/tenant-package', {
      token: platform,
      body: { name: 'Roles only', permissionIds: await permissionIds(['system:role:list', 'system:role:update']) },
    });
    const moved = await api.call('PUT', `/api/system/tenant/${res.body.id}`, {
      token: platform,
      body: { name: res.body.name, packageId: pkg.body.id, maxAccounts: 5, version: res.body.version },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const codesOf = async (code: string) =>
      (
        await api.db
          .selectFrom('role_permission as rp')
          .innerJoin('role as r', 'r.id', 'rp.role_id')
          .innerJoin('permission as p', 'p.id', 'rp.permission_id')
          .select('p.code')
          .where('r.tenant_id', '=', res.body.id)
          .where('r.code', '=', code)
          .orderBy('p.code')
          .execute()
      ).map((r) => r.code);
    expect(await codesOf('tenant_admin')).toEqual(['system:role:list', 'system:role:update']);
    expect(await codesOf('clerk')).toEqual(['system:role:list']);

    const edited = await api.call('PUT', `/api/system/tenant-package/${pkg.body.id}`, {
      token: platform,
      body: {
        name: 'Roles only',
        permissionIds: await permissionIds(['system:role:update', 'system:admin:list']),
        version: pkg.body.version,
      },
    });
    expect(edited.status).toBe(200);
    expect(await codesOf('tenant_admin')).toEqual(['system:admin:list', 'system:role:update']);
    expect(await codesOf('clerk')).toEqual([]);
    expect((await api.call('GET', '/api/auth/me', { token: boss })).body.permissions).toEqual([
      'system:admin:list',
      'system:role:update',
    ]);
  });

  it('packages refuse platform-only permissions and cannot be deleted while tenants use them', async () => {
    const bad = await api.call('POST', '/api/system/tenant-package', {
      token: platform,
      body: { name: 'Greedy', permissionIds: await permissionIds(['system:tenant:list', 'system:role:list']) },
    });
    expect(bad).toMatchObject({ status: 400, body: { code: 'permission.platformOnly' } });
    expect(bad.body.message).toContain('system:tenant:list');
    expect(
      (await api.call('DELETE', `/api/system/tenant-package/${standardPackage}`, { token: platform })).body.code,
    ).toBe('tenant.packageInUse');
    const unused = await api.call('POST', '/api/system/tenant-package', { token: platform, body: { name: 'Unused' } });
    expect((await api.call('DELETE', `/api/system/tenant-package/${unused.body.id}`, { token: platform })).status).toBe(
      204,
    );
  });

  it('disable stops sign-in, refresh and live tokens at once; enable restores; expiry refuses too; renew lifts it', async () => {
    const res = await provision('epsilon');
    const boss = await api.tokens('epsilon', 'boss', 'Quiet-Otter-42');
    const me = () => api.call('GET', '/api/auth/me', { token: boss.access });
    const refresh = (token: string) =>
      api.call('POST', '/api/auth/token', {
        body: { grant_type: 'refresh_token', refresh_token: token, client_id: 'console' },
      });

    const disabled = await api.call('POST', `/api/system/tenant/${res.body.id}/disable`, { token: platform });
    expect(disabled.body).toMatchObject({ status: 'disabled', version: 1 });
    expect((await me()).status).toBe(401);
    expect((await refresh(boss.refresh)).body.code).toBe('tenant.disabled');
    expect((await api.signIn('epsilon', 'boss', 'Quiet-Otter-42')).body.code).toBe('tenant.disabled');
    expect((await api.call('GET', '/api/system/tenant/resolve?code=epsilon')).body).toEqual({
      code: 'epsilon',
      name: 'epsilon hospital',
      status: 'disabled',
    });

    await api.call('POST', `/api/system/tenant/${res.body.id}/enable`, { token: platform });
    expect((await me()).status).toBe(200);

    const soon = new Date(clock.now().getTime() + 10 * 60_000).toISOString();
    const renewed = await api.call('POST', `/api/system/tenant/${res.body.id}/renew`, {
      token: platform,
      body: { expiresAt: soon },
    });
    expect(renewed.body).toMatchObject({ expired: false });
    const past = await api.call('POST', `/api/system/tenant/${res.body.id}/renew`, {
      token: platform,
      body: { expiresAt: '2000-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    clock.advance(20 * 60_000);
    expect((await me()).status).toBe(401);
    expect((await api.signIn('epsilon', 'boss', 'Quiet-Otter-42')).body.code).toBe('tenant.expired');
    expect((await api.call('GET', '/api/system/tenant/resolve?code=epsilon')).body.status).toBe('expired');
    expect(
      (
        await api.call('POST', `/api/system/tenant/${res.body.id}/renew`, {
          token: platform,
          body: { expiresAt: null },
        })
      ).body.expired,
    ).toBe(false);
    expect((await api.signIn('epsilon', 'boss', 'Quiet-Otter-42')).status).toBe(200);
    expect((await me()).status).toBe(200);
    const actions = await api.db
      .selectFrom('audit_log')
      .select('action')
      .where('resource_id', '=', res.body.id)
      .where('resource_type', '=', 'tenant')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'system:tenant:create',
      'system:tenant:disable',
      'system:tenant:enable',
      'system:tenant:renew',
      'system:tenant:renew',
    ]);
  });

  it('protects the platform tenant; resolve is public and says little', async () => {
    const platformId = (
      await api.db.selectFrom('tenant').select('id').where('code', '=', 'platform').executeTakeFirstOrThrow()
    ).id;
    expect((await api.call('POST', `/api/system/tenant/${platformId}/disable`, { token: platform })).body.code).toBe(
      'tenant.platformProtected',
    );
    expect((await api.call('DELETE', `/api/system/tenant/${platformId}`, { token: platform })).status).toBe(409);
    const row = (await api.call('GET', `/api/system/tenant/${platformId}`, { token: platform })).body;
    const body = { name: '平台运营', packageId: null, maxAccounts: row.maxAccounts, version: row.version };
    expect(
      (
        await api.call('PUT', `/api/system/tenant/${platformId}`, {
          token: platform,
          body: { ...body, packageId: standardPackage },
        })
      ).status,
    ).toBe(409);
    expect((await api.call('PUT', `/api/system/tenant/${platformId}`, { token: platform, body })).body).toMatchObject({
      name: '平台运营',
      packageId: null,
    });
    const demo = await api.call('GET', '/api/system/tenant/resolve?code=DEMO');
    expect(demo).toMatchObject({ status: 200, body: { code: 'demo', name: '演示医院', status: 'enabled' } });
    expect(Object.keys(demo.body).sort()).toEqual(['code', 'name', 'status']);
    expect((await api.call('GET', '/api/system/tenant/resolve?code=nope')).status).toBe(404);
  });

  it('a tenant administrator gets 403 on tenants, packages, permissions and clients', async () => {
    for (const path of [
      '/api/system/tenant',
      '/api/system/tenant-package',
      '/api/system/permission',
      '/api/system/permission/tree',
      '/api/system/client',
    ]) {
      const res = await api.call('GET', path, { token: tenantAdmin });
      expect(res.status, path).toBe(403);
    }
    expect((await api.call('POST', '/api/system/tenant/1/disable', { token: tenantAdmin })).status).toBe(403);
    // Even a platform-only grant slipped into a tenant role gives nothing outside the platform tenant.
    const demoAdminRole = await api.db
      .selectFrom('role as r')
      .innerJoin('tenant as t', 't.id', 'r.tenant_id')
      .select(['r.id', 'r.tenant_id'])
      .where('t.code', '=', 'demo')
      .where('r.code', '=', 'tenant_admin')
      .executeTakeFirstOrThrow();
    const [tenantList] = await permissionIds(['system:tenant:list']);
    await api.db
      .insertInto('role_permission')
      .values({ tenant_id: demoAdminRole.tenant_id, role_id: demoAdminRole.id, permission_id: tenantList! })
      .execute();
    expect((await api.call('GET', '/api/system/tenant', { token: tenantAdmin })).status).toBe(403);
    expect((await api.call('GET', '/api/auth/me', { token: tenantAdmin })).body.permissions).not.toContain(
      'system:tenant:list',
    );
  });

  it('lists with filters, refuses a stale update unchanged, exports exactly the filtered rows', async () => {
    const list = await api.call('GET', '/api/system/tenant?status=enabled&keyword=hospital&sort=code', {
      token: platform,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { code: string }) => t.code)).toEqual(['alpha', 'delta', 'epsilon']);
    const alpha = list.body.data[0];
    const ok = await api.call('PUT', `/api/system/tenant/${alpha.id}`, {
      token: platform,
      body: { name: 'Alpha Hospital', packageId: alpha.packageId, maxAccounts: 9, version: alpha.version },
    });
    expect(ok.body).toMatchObject({ name: 'Alpha Hospital', maxAccounts: 9, version: alpha.version + 1 });
    const stale = await api.call('PUT', `/api/system/tenant/${alpha.id}`, {
      token: platform,
      body: { name: 'Stale', packageId: alpha.packageId, maxAccounts: 1, version: alpha.version },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'common.versionConflict' } });
    expect((await api.call('GET', `/api/system/tenant/${alpha.id}`, { token: platform })).body).toMatchObject({
      name: 'Alpha Hospital',
      maxAccounts: 9,
    });
    expect((await api.call('GET', '/api/system/tenant?unknown=1', { token: platform })).status).toBe(400);

    const file = await api.fetch('GET', '/api/system/tenant/export?keyword=hospital&sort=-code', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
    });
    expect(file.headers.get('content-disposition')).toMatch(/attachment; filename="system-tenant-\d{8}\.xlsx"/);
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]?.slice(0, 3)).toEqual(['Code', 'Name', 'Package']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['epsilon', 'delta', 'alpha']);
  });

  it('imports tenants (provisioning each) all or nothing, reporting row and column', async () => {
    const before = await counts();
    const bad = importForm(
      await xlsxFile([
        [
          'Code',
          'Name',
          'Package',
          'Account quota',
          'Administrator username',
          'Administrator name',
          'Administrator initial password',
        ],
        ['zeta', 'Zeta', '标准套餐', 10, 'admin', 'Admin', 'Amber-Falcon-81'],
        ['eta', 'Eta', 'No such package', 10, 'admin', 'Admin', 'Amber-Falcon-81'],
        ['Bad Code', 'Theta', '标准套餐', 0, 'admin', 'Admin', 'Amber-Falcon-81'],
      ]),
    );
    const refused = await api.fetch('POST', '/api/system/tenant/import', {
      token: platform,
      form: bad,
      headers: { 'accept-language': 'en-US' },
    });
    expect(refused.status).toBe(422);
    const report = await jsonOf(refused);
    expect(report.failed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ row: 3, column: 'Package' }),
        expect.objectContaining({ row: 4, column: 'Code' }),
        expect.objectContaining({ row: 4, column: 'Account quota' }),
      ]),
    );
    expect(await counts()).toEqual(before);

    const good = importForm(
      await xlsxFile([
        [
          'Code',
          'Name',
          'Package',
          'Account quota',
          'Expires on',
          'Administrator username',
          'Administrator name',
          'Administrator initial password',
        ],
        ['zeta', 'Zeta', '标准套餐', 10, '2099-12-31', 'admin', 'Admin', 'Amber-Falcon-81'],
      ]),
    );
    expect(await jsonOf(await api.fetch('POST', '/api/system/tenant/import', { token: platform, form: good }))).toEqual(
      {
        dryRun: false,
        created: 1,
        updated: 0,
        failed: [],
      },
    );
    const signIn = await api.signIn('zeta', 'admin', 'Amber-Falcon-81');
    expect(signIn.status).toBe(200);
    expect((await api.call('GET', '/api/auth/me', { token: signIn.body.access_token })).body.mustChangePassword).toBe(
      true,
    );
  });
});
