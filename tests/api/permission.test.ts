import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, startApi, type TestApi, xlsxFile } from './helpers';

interface Node {
  id: string;
  code: string | null;
  localeKey: string | null;
  children: Node[];
}

describe.each(engines())('the permission tree on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let tenantAdmin: string;

  const create = (body: Record<string, unknown>) =>
    api.call('POST', '/api/system/permission', { token: platform, body });
  const find = (nodes: Node[], key: string): Node | undefined =>
    nodes.reduce<Node | undefined>((hit, n) => hit ?? (n.localeKey === key ? n : find(n.children, key)), undefined);

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    tenantAdmin = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('GET /permissions/tree: directories → menus → buttons, in order', async () => {
    const tree = await api.call('GET', '/api/system/permission/tree', { token: platform });
    expect(tree.status).toBe(200);
    expect(tree.body[0]).toMatchObject({ type: 'directory', localeKey: 'menu.dashboard', parentId: null });
    const system = find(tree.body, 'menu.system')!;
    const tenants = system.children.find((c) => c.code === 'system:tenant:list')!;
    expect(tenants).toMatchObject({ type: 'menu', path: '/system/tenant', platformOnly: true });
    expect(tenants.children.map((c) => c.code)).toEqual(
      expect.arrayContaining(['system:tenant:create', 'system:tenant:renew']),
    );
    expect((await api.call('GET', '/api/system/permission/tree', { token: tenantAdmin })).status).toBe(403);
  });

  it('creates with the type rules, refuses cycles, deletes only leaves nobody holds', async () => {
    const noCode = await create({ type: 'menu', name: 'Audit', path: '/system/audit' });
    expect(noCode).toMatchObject({ status: 400, body: { fields: [expect.objectContaining({ field: 'code' })] } });
    const dir = await create({
      type: 'directory',
      name: 'Reports',
      localeKey: 'menu.reports',
      icon: 'BarChartOutlined',
      sort: 50,
    });
    expect(dir.status, JSON.stringify(dir.body)).toBe(201);
    const menu = await create({
      parentId: dir.body.id,
      type: 'menu',
      name: 'Monthly',
      localeKey: 'menu.reports.monthly',
      code: 'report:monthly:list',
      path: '/reports/monthly',
    });
    const button = await create({
      parentId: menu.body.id,
      type: 'button',
      name: 'Export',
      code: 'report:monthly:export',
    });
    expect(button).toMatchObject({
      status: 201,
      body: { parentId: menu.body.id, status: 'enabled', platformOnly: false },
    });
    expect((await create({ type: 'button', name: 'Dup', code: 'report:monthly:export' })).body.code).toBe(
      'common.duplicate',
    );

    const cycle = await api.call('PUT', `/api/system/permission/${dir.body.id}`, {
      token: platform,
      body: {
        parentId: button.body.id,
        type: 'directory',
        name: 'Reports',
        localeKey: 'menu.reports',
        version: dir.body.version,
      },
    });
    expect(cycle).toMatchObject({ status: 400, body: { code: 'permission.cycle' } });
    const self = await api.call('PUT', `/api/system/permission/${dir.body.id}`, {
      token: platform,
      body: { parentId: dir.body.id, type: 'directory', name: 'Reports', version: dir.body.version },
    });
    expect(self.body.code).toBe('permission.cycle');

    expect((await api.call('DELETE', `/api/system/permission/${menu.body.id}`, { token: platform })).body.code).toBe(
      'permission.hasChildren',
    );
    const held = (
      await api.db
        .selectFrom('permission')
        .select('id')
        .where('code', '=', 'system:role:create')
        .executeTakeFirstOrThrow()
    ).id;
    expect((await api.call('DELETE', `/api/system/permission/${held}`, { token: platform })).body.code).toBe(
      'permission.inUse',
    );
    expect((await api.call('DELETE', `/api/system/permission/${button.body.id}`, { token: platform })).status).toBe(
      204,
    );
    expect(
      (
        await api.call('POST', '/api/system/permission/batch-delete', {
          token: platform,
          body: { ids: [dir.body.id, menu.body.id] },
        })
      ).body,
    ).toEqual({
      deleted: 2,
    });
    const audit = await api.db
      .selectFrom('audit_log')
      .select(['action', 'tenant_id'])
      .where('resource_type', '=', 'permission')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'system:permission:create',
      'system:permission:create',
      'system:permission:create',
      'system:permission:delete',
      'system:permission:delete',
      'system:permission:delete',
    ]);
  });

  it('a stale update changes nothing; making a permission platform-only withdraws it from tenants', async () => {
    const row = (
      await api.call('GET', '/api/system/permission?keyword=dictionary:syscode:item-create', { token: platform })
    ).body.data[0];
    const ok = await api.call('PUT', `/api/system/permission/${row.id}`, {
      token: platform,
      body: { ...pick(row), name: 'Add item', platformOnly: true, version: row.version },
    });
    expect(ok.body).toMatchObject({ name: 'Add item', platformOnly: true, version: row.version + 1 });
    const stale = await api.call('PUT', `/api/system/permission/${row.id}`, {
      token: platform,
      body: { ...pick(row), name: 'Stale', version: row.version },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'common.versionConflict' } });
    expect((await api.call('GET', `/api/system/permission/${row.id}`, { token: platform })).body.name).toBe('Add item');
    expect((await api.call('GET', '/api/auth/me', { token: tenantAdmin })).body.permissions).not.toContain(
      'dictionary:syscode:item-create',
    );
    const platformMe = await api.call('GET', '/api/auth/me', { token: platform });
    expect(platformMe.body.permissions).toContain('dictionary:syscode:item-create');
  });

  it('exports the filtered set; imports a subtree by parent key all or nothing', async () => {
    const file = await api.fetch('GET', '/api/system/permission/export?type=menu&keyword=/system/&sort=code', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]).toEqual([
      'Type',
      'Name',
      'English name',
      'Locale key',
      'Code',
      'Route',
      'Icon',
      'Order',
      'Platform only',
      'Status',
    ]);
    expect(rows.slice(1).map((r) => r[2])).toContain('Admins');
    expect(rows.slice(1).map((r) => r[4])).toEqual([
      'system:admin:list',
      'system:client:list',
      'system:district:list',
      'system:permission:list',
      'system:role:list',
      'system:settings:list',
      'system:tenant:list',
    ]);

    const header = ['Parent key', 'Type', 'Name', 'Locale key', 'Code', 'Route', 'Order'];
    const before = (await api.call('GET', '/api/system/permission?pageSize=1', { token: platform })).body.total;
    const bad = importForm(
      await xlsxFile([
        header,
        ['menu.system', 'menu', 'Audit', 'menu.system.audit', 'system:audit:list', '/system/audit', 9],
        ['menu.nowhere', 'button', 'X', 'menu.x', 'x:y:z', '', 0],
        ['', 'menu', 'No code', 'menu.nocode', '', '/nocode', 0],
      ]),
    );
    const refused = await api.fetch('POST', '/api/system/permission/import', {
      token: platform,
      form: bad,
      headers: { 'accept-language': 'en-US' },
    });
    expect(refused.status).toBe(422);
    expect((await jsonOf(refused)).failed).toEqual([
      expect.objectContaining({ row: 3, column: 'Parent key' }),
      expect.objectContaining({ row: 4, column: 'Code' }),
    ]);
    expect((await api.call('GET', '/api/system/permission?pageSize=1', { token: platform })).body.total).toBe(before);

    const good = importForm(
      await xlsxFile([
        header,
        ['menu.system', 'menu', 'Audit', 'menu.system.audit', 'system:audit:list', '/system/audit', 9],
        ['menu.system.audit', 'button', 'Export', 'menu.system.audit.export', 'system:audit:export', '', 0],
      ]),
    );
    expect(
      await jsonOf(await api.fetch('POST', '/api/system/permission/import', { token: platform, form: good })),
    ).toEqual({
      dryRun: false,
      created: 2,
      updated: 0,
      failed: [],
    });
    const tree = (await api.call('GET', '/api/system/permission/tree', { token: platform })).body;
    expect(find(tree, 'menu.system.audit')?.children.map((c) => c.code)).toEqual(['system:audit:export']);
  });
});

function pick(row: Record<string, unknown>) {
  const { id: _id, createdAt: _c, updatedAt: _u, version: _v, ...rest } = row;
  return rest;
}
