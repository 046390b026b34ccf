import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

describe.each(engines())('export and import of /api/system/admin on $name', (engine) => {
  let api: TestApi;
  let admin: string;

  const usernames = async () =>
    (await api.call('GET', '/api/system/admin?pageSize=200&sort=userName', { token: admin })).body.data.map(
      (u: { userName: string }) => u.userName,
    );
  const upload = (
    rows: (string | number | null)[][],
    fields: { dryRun?: boolean; mode?: 'insert' | 'upsert' } = {},
    lang = 'zh-CN',
  ) =>
    xlsxFile(rows).then((file) =>
      api.fetch('POST', '/api/system/admin/import', {
        token: admin,
        form: importForm(file, fields),
        headers: { 'accept-language': lang },
      }),
    );

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    for (const [userName, displayName] of [
      ['nina', 'Nina'],
      ['oscar', 'Oscar'],
      ['olga', 'Olga'],
    ]) {
      await api.call('POST', '/api/system/admin', {
        token: admin,
        body: { userName, displayName, password: 'Quiet-Otter-42' },
      });
    }
  });
  afterAll(() => api?.close());

  it('exports exactly the filtered, sorted rows with headers in the request language', async () => {
    const res = await api.fetch('GET', '/api/system/admin/export?keyword=o&sort=-userName', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="system-admin-\d{8}\.xlsx"$/);
    const rows = await readXlsx(await res.arrayBuffer());
    expect(rows[0]).toEqual([
      'Username',
      'Name',
      'Mobile',
      'Email',
      'Role codes',
      'Status',
      'Last sign-in',
      'Created at',
      'Remark',
    ]);
    const listed = await api.call('GET', '/api/system/admin?keyword=o&sort=-userName', { token: admin });
    expect(rows.slice(1).map((r) => r[0])).toEqual(listed.body.data.map((u: { userName: string }) => u.userName));
    expect(rows.slice(1).map((r) => r[0])).toEqual(['oscar', 'olga']);

    const zh = await readXlsx(
      await (await api.fetch('GET', '/api/system/admin/export?status=enabled', { token: admin })).arrayBuffer(),
    );
    expect(zh[0]?.[0]).toBe('用户名');
    expect(zh).toHaveLength(1 + 5);
    expect(zh.find((r) => r[0] === 'admin')?.[4]).toBe('tenant_admin');
    expect(JSON.stringify(zh)).not.toContain('nurse');
    expect((await api.fetch('GET', '/api/system/admin/export?bogus=1', { token: admin })).status).toBe(400);
  });

  it('offers a template with the header row and one example row', async () => {
    const res = await api.fetch('GET', '/api/system/admin/import-template', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(200);
    const rows = await readXlsx(await res.arrayBuffer());
    expect(rows[0]).toEqual(['Username', 'Name', 'Mobile', 'Email', 'Role codes', 'Remark', 'Initial password']);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.[0]).toBe('zhangsan');
  });

  it('a dry run reports what would happen and writes nothing', async () => {
    const before = await usernames();
    const res = await upload(
      [
        ['用户名', '姓名', '角色编码', '初始密码'],
        ['paul', 'Paul', 'viewer', 'Amber-Falcon-81'],
        ['nina', 'Nina Updated', '', ''],
      ],
      { dryRun: true, mode: 'upsert' },
    );
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ dryRun: true, created: 1, updated: 1, failed: [] });
    expect(await usernames()).toEqual(before);
    const audit = await api.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'system:admin:import')
      .execute();
    expect(audit).toEqual([]);
  });

  it('a bad row leaves the table unchanged and reports its row and column; 422 when committing', async () => {
    const before = await api.db.selectFrom('admin_user').selectAll().orderBy('id').execute();
    const rows = [
      ['Username', 'Name', 'Email', 'Role codes', 'Initial password'],
      ['quinn', 'Quinn', 'quinn@example.com', 'viewer', 'Amber-Falcon-81'],
      ['rita', 'Rita', 'not-an-email', '', 'Amber-Falcon-81'],
      ['sam', 'Sam', '', 'no_such_role', 'Amber-Falcon-81'],
      ['tom', 'Tom', '', '', ''],
    ];
    const res = await upload(rows, { mode: 'insert' }, 'en-US');
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ code: 'common.importFailed', dryRun: false, failed: expect.any(Array) });
    expect(body.message).toBe('Import failed: 3 rows have errors; nothing was written');
    expect(body.failed).toEqual([
      { row: 3, column: 'Email', message: 'has an invalid format' },
      { row: 4, column: 'Role codes', message: 'contains a role that does not exist' },
      { row: 5, column: 'Initial password', message: 'is required for a new account' },
    ]);
    expect(await api.db.selectFrom('admin_user').selectAll().orderBy('id').execute()).toEqual(before);

    const dry = await upload(rows, { mode: 'insert', dryRun: true }, 'en-US');
    expect(dry.status).toBe(200);
    expect((await jsonOf(dry)).failed).toHaveLength(3);

    const unknownColumn = await upload([
      ['用户名', '密码哈希'],
      ['x', 'y'],
    ]);
    expect(unknownColumn.status).toBe(422);
    expect((await jsonOf(unknownColumn)).failed).toEqual([{ row: 1, column: '密码哈希', message: '无法识别的列' }]);
    const notXlsx = await api.fetch('POST', '/api/system/admin/import', {
      token: admin,
      form: importForm(new File(['a,b'], 'x.csv', { type: 'text/csv' })),
    });
    expect(notXlsx.status).toBe(400);
    expect((await jsonOf(notXlsx)).fields).toEqual([expect.objectContaining({ field: 'file' })]);
  });

  it('insert mode refuses existing user names; a good file inserts, upsert updates, all audited', async () => {
    const dup = await upload(
      [
        ['用户名', '姓名', '初始密码'],
        ['nina', 'Nina', 'Amber-Falcon-81'],
      ],
      { mode: 'insert' },
    );
    expect(dup.status).toBe(422);
    expect((await jsonOf(dup)).failed).toEqual([{ row: 2, column: '用户名', message: '已存在相同的数据' }]);

    const inserted = await upload(
      [
        ['用户名', '姓名', '手机号', '角色编码', '初始密码'],
        ['uma', 'Uma', '13600000001', 'viewer', 'Amber-Falcon-81'],
        ['victor', 'Victor', null, 'viewer,tenant_admin', 'Amber-Falcon-81'],
      ],
      { mode: 'insert' },
    );
    expect(inserted.status).toBe(200);
    expect(await jsonOf(inserted)).toEqual({ dryRun: false, created: 2, updated: 0, failed: [] });
    const uma = (await api.call('GET', '/api/system/admin?keyword=uma', { token: admin })).body.data[0];
    expect(uma).toMatchObject({
      displayName: 'Uma',
      mobile: '13600000001',
      mustChangePassword: true,
      roles: [expect.objectContaining({ code: 'viewer' })],
    });
    expect((await api.signIn('demo', 'uma', 'Amber-Falcon-81')).status).toBe(200);

    const upserted = await upload(
      [
        ['用户名', '姓名', '备注', '初始密码'],
        ['uma', 'Uma Thurman', 'imported twice', 'Ignored2026'],
        ['wendy', 'Wendy', '', 'Amber-Falcon-81'],
      ],
      { mode: 'upsert' },
    );
    expect(await jsonOf(upserted)).toEqual({ dryRun: false, created: 1, updated: 1, failed: [] });
    const after = (await api.call('GET', `/api/system/admin/${uma.id}`, { token: admin })).body;
    expect(after).toMatchObject({
      displayName: 'Uma Thurman',
      remark: 'imported twice',
      mobile: '13600000001',
      version: uma.version + 1,
    });
    expect((await api.signIn('demo', 'uma', 'Ignored2026')).status).toBe(400);

    const audit = await api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'system:admin:import')
      .orderBy('id')
      .execute();
    expect(audit).toHaveLength(4);
    expect(audit[2]?.before).toMatchObject({ displayName: 'Uma' });
    expect(audit[2]?.after).toMatchObject({ displayName: 'Uma Thurman' });
    expect(JSON.stringify(audit)).not.toMatch(/Amber-Falcon-81|Ignored2026|argon2/);
  });

  it('refuses to import past the tenant’s account quota, row by row', async () => {
    const demo = await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    const count = (await api.call('GET', '/api/system/admin', { token: admin })).body.total;
    await api.db
      .updateTable('tenant')
      .set({ max_accounts: count + 1 })
      .where('id', '=', demo.id)
      .execute();
    const res = await upload([
      ['用户名', '姓名', '初始密码'],
      ['xena', 'Xena', 'Amber-Falcon-81'],
      ['yuri', 'Yuri', 'Amber-Falcon-81'],
    ]);
    expect(res.status).toBe(422);
    expect((await jsonOf(res)).failed).toEqual([
      { row: 3, column: '', message: `账号数量已达租户上限（${count + 1} 个）` },
    ]);
    expect((await api.call('GET', '/api/system/admin', { token: admin })).body.total).toBe(count);
    await api.db.updateTable('tenant').set({ max_accounts: 100 }).where('id', '=', demo.id).execute();
  });
});
