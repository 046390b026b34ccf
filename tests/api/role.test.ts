import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

interface MenuNode {
  code: string | null;
  path: string | null;
  localeKey: string | null;
  children: MenuNode[];
}

describe.each(engines())('roles, their permissions, members and the menu on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let viewer: string;
  let otherAdmin: string;

  const ids = async (codes: string[]) =>
    (await api.db.selectFrom('permission').select('id').where('code', 'in', codes).execute()).map((r) => r.id);
  const createRole = (code: string, token = admin) =>
    api.call('POST', '/api/system/role', { token, body: { code, name: code.toUpperCase() } });
  const createUser = async (userName: string, roleIds: string[]) => {
    const res = await api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName, displayName: userName, password: 'Quiet-Otter-42', roleIds, mustChangePassword: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const flatten = (nodes: MenuNode[]): string[] =>
    nodes.flatMap((n) => [n.code ?? n.localeKey ?? '', ...flatten(n.children)]);

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
    otherAdmin = (await api.tokens('demo2', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('a role limited to a subset gives its user exactly that subset in /auth/me and /auth/menus', async () => {
    const role = await createRole('registrar');
    expect(role).toMatchObject({
      status: 201,
      body: { type: 'custom', dataScope: 'all', status: 'enabled', version: 0 },
    });
    const subset = await ids(['dashboard:workspace:view', 'system:admin:list', 'system:admin:export']);
    const assigned = await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: subset },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect([...assigned.body.permissionIds].sort()).toEqual([...subset].sort());
    expect(flatten(assigned.body.tree)).not.toContain('system:tenant:list');

    await createUser('rita', [role.body.id]);
    const rita = (await api.tokens('demo', 'rita', 'Quiet-Otter-42')).access;
    const me = await api.call('GET', '/api/auth/me', { token: rita });
    expect(me.body.permissions).toEqual(['dashboard:workspace:view', 'system:admin:export', 'system:admin:list']);
    const menus = await api.call('GET', '/api/auth/menus', { token: rita });
    expect(menus.status).toBe(200);
    expect(menus.body.map((d: MenuNode) => d.localeKey)).toEqual(['menu.dashboard', 'menu.system']);
    expect(menus.body[1]).toMatchObject({ type: 'directory', icon: 'SettingOutlined' });
    expect(menus.body[1].children).toEqual([
      expect.objectContaining({
        type: 'menu',
        code: 'system:admin:list',
        path: '/system/admin',
        localeKey: 'menu.system.admin',
        children: [],
      }),
    ]);
    expect((await api.call('GET', '/api/system/role', { token: rita })).status).toBe(403);
    expect((await api.call('GET', '/api/system/admin', { token: rita })).status).toBe(200);

    // A disabled role grants nothing; a disabled menu disappears from the menu.
    const r = (await api.call('GET', `/api/system/role/${role.body.id}`, { token: admin })).body;
    await api.call('PUT', `/api/system/role/${r.id}`, {
      token: admin,
      body: { name: r.name, status: 'disabled', version: r.version },
    });
    expect((await api.call('GET', '/api/auth/me', { token: rita })).body.permissions).toEqual([]);
    expect((await api.call('GET', '/api/auth/menus', { token: rita })).body).toEqual([]);
    expect((await api.call('GET', '/api/system/admin', { token: rita })).status).toBe(403);
  });

  it('the union over several roles; the tenant admin menu holds every non-platform menu', async () => {
    const a = await createRole('role-a');
    const b = await createRole('role-b');
    await api.call('PUT', `/api/system/role/${a.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: await ids(['system:role:list']) },
    });
    await api.call('PUT', `/api/system/role/${b.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: await ids(['dictionary:syscode:list']) },
    });
    await createUser('uma', [a.body.id, b.body.id]);
    const uma = (await api.tokens('demo', 'uma', 'Quiet-Otter-42')).access;
    expect((await api.call('GET', '/api/auth/me', { token: uma })).body.permissions).toEqual([
      'dictionary:syscode:list',
      'system:role:list',
    ]);

    const menus = flatten((await api.call('GET', '/api/auth/menus', { token: admin })).body);
    expect(menus).toContain('system:role:list');
    expect(menus).not.toContain('system:tenant:list');
    expect(menus.some((c) => c.split(':').length === 3 && c.endsWith(':create'))).toBe(false);
  });

  it('refuses permissions outside the package (400 naming them), system roles and unknown ids', async () => {
    const role = await createRole('greedy');
    const res = await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: await ids(['system:role:list', 'system:tenant:list', 'system:client:list']) },
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'role.permissionNotInPackage' } });
    expect(res.body.message).toMatch(/system:tenant:list.*system:client:list|system:client:list.*system:tenant:list/);
    expect(
      (await api.call('GET', `/api/system/role/${role.body.id}/permissions`, { token: admin })).body.permissionIds,
    ).toEqual([]);
    const unknown = await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: ['999999'] },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { fields: [expect.objectContaining({ field: 'permissionIds.0' })] },
    });

    const system = (await api.call('GET', '/api/system/role?type=system', { token: admin })).body.data[0];
    expect(system.code).toBe('tenant_admin');
    expect((await api.call('DELETE', `/api/system/role/${system.id}`, { token: admin })).body.code).toBe(
      'role.systemRole',
    );
    const rename = await api.call('PUT', `/api/system/role/${system.id}`, {
      token: admin,
      body: { code: 'boss', name: 'x', version: system.version },
    });
    expect(rename.body.code).toBe('role.systemRole');
    const grant = await api.call('PUT', `/api/system/role/${system.id}/permissions`, {
      token: admin,
      body: { permissionIds: [] },
    });
    expect(grant.body.code).toBe('role.systemRole');
    const renamed = await api.call('PUT', `/api/system/role/${system.id}`, {
      token: admin,
      body: { name: '管理员角色', version: system.version },
    });
    expect(renamed).toMatchObject({ status: 200, body: { code: 'tenant_admin', name: '管理员角色' } });
  });

  it('data scope: org ids required for org_custom, cleared otherwise; audited', async () => {
    const role = await createRole('scoped');
    const org = async (code: string) =>
      (
        await api.call('POST', '/api/people/organization', {
          token: admin,
          body: { code, name: code, orgType: 'hospital' },
        })
      ).body.id as string;
    const [a, b] = [await org('H7'), await org('H9')];
    const missing = await api.call('PUT', `/api/system/role/${role.body.id}/data-scope`, {
      token: admin,
      body: { dataScope: 'org_custom' },
    });
    expect(missing.status).toBe(400);
    const custom = await api.call('PUT', `/api/system/role/${role.body.id}/data-scope`, {
      token: admin,
      body: { dataScope: 'org_custom', dataScopeOrgIds: [a, b, a] },
    });
    expect(custom.body).toMatchObject({ dataScope: 'org_custom', dataScopeOrgIds: [a, b], version: 1 });
    const self = await api.call('PUT', `/api/system/role/${role.body.id}/data-scope`, {
      token: admin,
      body: { dataScope: 'self', dataScopeOrgIds: [a] },
    });
    expect(self.body).toMatchObject({ dataScope: 'self', dataScopeOrgIds: [] });
    const audit = await api.call('GET', `/api/system/audit-log?resourceType=role&resourceId=${role.body.id}`, {
      token: admin,
    });
    expect(audit.body.data.map((a: { action: string }) => a.action)).toEqual([
      'system:role:assign-data-scope',
      'system:role:assign-data-scope',
      'system:role:create',
    ]);
    expect(
      (
        await api.call('PUT', `/api/system/role/${role.body.id}/data-scope`, {
          token: viewer,
          body: { dataScope: 'all' },
        })
      ).status,
    ).toBe(403);
  });

  it('members: add users of the same tenant only, list, remove; the permissions follow at once', async () => {
    const role = await createRole('auditor');
    await api.call('PUT', `/api/system/role/${role.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: await ids(['system:role:list']) },
    });
    const victor = await createUser('victor', []);
    const foreign = await api.userId('demo2', 'nurse');
    const refused = await api.call('POST', `/api/system/role/${role.body.id}/members`, {
      token: admin,
      body: { userIds: [victor, foreign] },
    });
    expect(refused).toMatchObject({ status: 400, body: { fields: [expect.objectContaining({ field: 'userIds.1' })] } });
    const victorToken = (await api.tokens('demo', 'victor', 'Quiet-Otter-42')).access;
    expect((await api.call('GET', '/api/system/role', { token: victorToken })).status).toBe(403);

    const added = await api.call('POST', `/api/system/role/${role.body.id}/members`, {
      token: admin,
      body: { userIds: [victor, victor] },
    });
    expect(added).toMatchObject({
      status: 200,
      body: [{ id: victor, userName: 'victor', displayName: 'victor', status: 'enabled' }],
    });
    expect((await api.call('GET', '/api/system/role', { token: victorToken })).status).toBe(200);
    expect((await api.call('GET', `/api/system/role/${role.body.id}/members`, { token: admin })).body).toHaveLength(1);
    expect(
      (await api.call('DELETE', `/api/system/role/${role.body.id}/members/${victor}`, { token: admin })).status,
    ).toBe(204);
    expect((await api.call('GET', `/api/system/role/${role.body.id}/members`, { token: admin })).body).toEqual([]);
    expect((await api.call('GET', '/api/system/role', { token: victorToken })).status).toBe(403);
    expect(
      (
        await api.call('POST', `/api/system/role/${role.body.id}/members`, {
          token: viewer,
          body: { userIds: [victor] },
        })
      ).status,
    ).toBe(403);
  });

  it('options for selects need system:role:list or system:admin:list', async () => {
    const options = await api.call('GET', '/api/system/role/options', { token: admin });
    expect(options.status).toBe(200);
    expect(options.body[0]).toEqual({ id: expect.any(String), code: 'tenant_admin', name: expect.any(String) });
    expect(options.body.every((o: object) => Object.keys(o).length === 3)).toBe(true);
    expect((await api.call('GET', '/api/system/role/options', { token: viewer })).status).toBe(403);
    const adminLister = await createRole('lister');
    await api.call('PUT', `/api/system/role/${adminLister.body.id}/permissions`, {
      token: admin,
      body: { permissionIds: await ids(['system:admin:list']) },
    });
    await createUser('wendy', [adminLister.body.id]);
    const wendy = (await api.tokens('demo', 'wendy', 'Quiet-Otter-42')).access;
    expect((await api.call('GET', '/api/system/role/options', { token: wendy })).status).toBe(200);
  });

  it('another tenant’s roles are invisible and unwritable; stale updates refused unchanged; duplicates 409', async () => {
    const mine = await createRole('nurses');
    expect((await createRole('nurses')).body.code).toBe('common.duplicate');
    const theirs = await createRole('nurses', otherAdmin);
    expect(theirs.status).toBe(201);
    expect((await api.call('GET', `/api/system/role/${theirs.body.id}`, { token: admin })).status).toBe(404);
    expect(
      (await api.call('PUT', `/api/system/role/${theirs.body.id}`, { token: admin, body: { name: 'x', version: 0 } }))
        .status,
    ).toBe(404);
    expect((await api.call('DELETE', `/api/system/role/${theirs.body.id}`, { token: admin })).status).toBe(404);
    expect((await api.call('GET', `/api/system/role/${theirs.body.id}/members`, { token: admin })).status).toBe(404);
    expect(
      (
        await api.call('POST', '/api/system/role/batch-delete', {
          token: admin,
          body: { ids: [mine.body.id, theirs.body.id] },
        })
      ).status,
    ).toBe(404);
    expect((await api.call('GET', `/api/system/role/${mine.body.id}`, { token: admin })).status).toBe(200);
    const list = await api.call('GET', '/api/system/role?keyword=nurses', { token: admin });
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([mine.body.id]);

    const updated = await api.call('PUT', `/api/system/role/${mine.body.id}`, {
      token: admin,
      body: { name: 'Nursing', version: 0 },
    });
    expect(updated.body).toMatchObject({ name: 'Nursing', version: 1 });
    const stale = await api.call('PUT', `/api/system/role/${mine.body.id}`, {
      token: admin,
      body: { name: 'Stale', version: 0 },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'common.versionConflict' } });
    expect((await api.call('GET', `/api/system/role/${mine.body.id}`, { token: admin })).body.name).toBe('Nursing');
    expect(
      (await api.call('POST', '/api/system/role', { token: viewer, body: { code: 'x1', name: 'x1' } })).status,
    ).toBe(403);
    expect((await api.call('DELETE', `/api/system/role/${mine.body.id}`, { token: admin })).status).toBe(204);
  });

  it('exports exactly the filtered rows; a bad import changes nothing and names row and column', async () => {
    const file = await api.fetch('GET', '/api/system/role/export?keyword=role-&sort=-code', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]).toEqual(['Code', 'Name', 'Type', 'Data scope', 'Order', 'Status', 'Remark', 'Created at']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['role-b', 'role-a']);

    const before = (await api.call('GET', '/api/system/role?pageSize=200', { token: admin })).body.total;
    const bad = importForm(
      await xlsxFile([
        ['Code', 'Name', 'Order'],
        ['pharmacists', 'Pharmacists', 1],
        ['Bad Code', 'Bad', 'x'],
      ]),
    );
    const refused = await api.fetch('POST', '/api/system/role/import', {
      token: admin,
      form: bad,
      headers: { 'accept-language': 'en-US' },
    });
    expect(refused.status).toBe(422);
    expect((await jsonOf(refused)).failed).toEqual([
      expect.objectContaining({ row: 3, column: 'Code' }),
      expect.objectContaining({ row: 3, column: 'Order' }),
    ]);
    expect((await api.call('GET', '/api/system/role?pageSize=200', { token: admin })).body.total).toBe(before);

    const good = importForm(
      await xlsxFile([
        ['Code', 'Name'],
        ['pharmacists', 'Pharmacists'],
        ['role-a', 'Role A renamed'],
      ]),
      { mode: 'upsert' },
    );
    expect(await jsonOf(await api.fetch('POST', '/api/system/role/import', { token: admin, form: good }))).toEqual({
      dryRun: false,
      created: 1,
      updated: 1,
      failed: [],
    });
  });
});
