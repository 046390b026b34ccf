import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

describe.each(engines())('writes, tenancy and permissions of /api/system/admin on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let viewer: string;
  let otherAdmin: string;
  let adminId: string;
  let foreignId: string;

  const create = (userName: string, extra: Record<string, unknown> = {}) =>
    api.call('POST', '/api/system/admin', {
      token: admin,
      body: { userName, displayName: userName, password: 'Quiet-Otter-42', ...extra },
    });
  const auditRows = (resourceId: string) =>
    api.db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource_type', '=', 'admin_user')
      .where('resource_id', '=', resourceId)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
    otherAdmin = (await api.tokens('demo2', 'admin', 'admin123')).access;
    adminId = await api.userId('demo', 'admin');
    foreignId = await api.userId('demo2', 'nurse');
  });
  afterAll(() => api?.close());

  it('creates (201, strict body, password policy, unique user name) and audits without the password', async () => {
    const res = await create('Erin', { mobile: '13700000001', tenantId: '1' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([expect.objectContaining({ field: 'tenantId' })]);
    const ok = await create(' Erin ', { mobile: '13700000001' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      userName: 'erin',
      status: 'enabled',
      version: 0,
      mustChangePassword: true,
      roles: [],
    });
    expect((await create('erin')).body.code).toBe('common.duplicate');
    const weak = await create('frank', { password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      code: 'auth.passwordPolicy',
      fields: [expect.objectContaining({ field: 'password' })],
    });
    expect((await api.signIn('demo', 'erin', 'Quiet-Otter-42')).status).toBe(200);

    const [row] = await auditRows(ok.body.id);
    expect(row).toMatchObject({
      action: 'system:admin:create',
      actor_id: adminId,
      actor_name: 'admin',
      summary: 'erin',
      before: null,
    });
    expect(row?.after).toMatchObject({ userName: 'erin', mobile: '13700000001' });
    expect(JSON.stringify(row)).not.toMatch(/Passw0rd|argon2|passwordHash/);
  });

  it('updates with the current version, and refuses a stale one with 409 changing nothing', async () => {
    const { body: user } = await create('grace', { email: 'grace@example.com' });
    const res = await api.call('PUT', `/api/system/admin/${user.id}`, {
      token: admin,
      body: { displayName: 'Grace Hopper', mobile: '13700000002', version: user.version },
      headers: { 'user-agent': 'vitest-agent' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      displayName: 'Grace Hopper',
      mobile: '13700000002',
      email: 'grace@example.com',
      version: user.version + 1,
    });

    const stale = await api.call('PUT', `/api/system/admin/${user.id}`, {
      token: admin,
      body: { displayName: 'Stale', version: user.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('common.versionConflict');
    expect((await api.call('GET', `/api/system/admin/${user.id}`, { token: admin })).body).toMatchObject({
      displayName: 'Grace Hopper',
      version: 1,
    });
    expect(
      (await api.call('PUT', `/api/system/admin/${user.id}`, { token: admin, body: { displayName: 'No version' } }))
        .status,
    ).toBe(400);

    const rows = await auditRows(user.id);
    expect(rows.map((r) => r.action)).toEqual(['system:admin:create', 'system:admin:update']);
    expect(rows[1]).toMatchObject({ user_agent: 'vitest-agent', summary: 'grace · displayName, mobile' });
    expect(rows[1]?.before).toMatchObject({ displayName: 'grace', mobile: null, version: 0 });
    expect(rows[1]?.after).toMatchObject({ displayName: 'Grace Hopper', mobile: '13700000002', version: 1 });
  });

  it('assigns roles of the own tenant only', async () => {
    const demoRoles = await api.db
      .selectFrom('role as r')
      .innerJoin('tenant as t', 't.id', 'r.tenant_id')
      .select(['r.id', 't.code'])
      .execute();
    const own = demoRoles.find((r) => r.code === 'demo')!.id;
    const foreign = demoRoles.find((r) => r.code === 'demo2')!.id;
    const { body: user } = await create('heidi', { roleIds: [own] });
    expect(user.roleIds).toEqual([own]);
    const refused = await api.call('PUT', `/api/system/admin/${user.id}/roles`, {
      token: admin,
      body: { roleIds: [foreign] },
    });
    expect(refused.status).toBe(400);
    // the reference check names the item refused (core/references.ts)
    expect(refused.body.fields).toEqual([expect.objectContaining({ field: 'roleIds.0' })]);
    expect((await create('ivan', { roleIds: [foreign] })).status).toBe(400);
    const cleared = await api.call('PUT', `/api/system/admin/${user.id}/roles`, {
      token: admin,
      body: { roleIds: [] },
    });
    expect(cleared.body).toMatchObject({ roleIds: [], version: 1 });
    expect((await auditRows(user.id)).at(-1)?.action).toBe('system:admin:assign-role');
  });

  it('deletes softly (204, then 404), never oneself, and batch-deletes all or nothing', async () => {
    const a = (await create('judy')).body;
    const b = (await create('ken')).body;
    const c = (await create('leo')).body;
    expect((await api.call('DELETE', `/api/system/admin/${a.id}`, { token: admin })).status).toBe(204);
    expect((await api.call('GET', `/api/system/admin/${a.id}`, { token: admin })).status).toBe(404);
    const kept = await api.db
      .selectFrom('admin_user')
      .select('deleted_at')
      .where('id', '=', a.id)
      .executeTakeFirstOrThrow();
    expect(kept.deleted_at).toBeInstanceOf(Date);

    const self = await api.call('POST', '/api/system/admin/batch-delete', {
      token: admin,
      body: { ids: [b.id, adminId] },
    });
    expect(self.status).toBe(409);
    expect(self.body.code).toBe('admin.selfOperation');
    const missing = await api.call('POST', '/api/system/admin/batch-delete', {
      token: admin,
      body: { ids: [b.id, '999999'] },
    });
    expect(missing.status).toBe(404);
    expect((await api.call('GET', `/api/system/admin/${b.id}`, { token: admin })).status).toBe(200);

    const both = await api.call('POST', '/api/system/admin/batch-delete', {
      token: admin,
      body: { ids: [b.id, c.id] },
    });
    expect(both).toMatchObject({ status: 200, body: { deleted: 2 } });
    const rows = await auditRows(b.id);
    expect(rows.at(-1)).toMatchObject({ action: 'system:admin:delete', after: null });
    expect(rows.at(-1)?.before).toMatchObject({ userName: 'ken' });
  });

  it('keeps another tenant’s rows invisible and unwritable', async () => {
    expect((await api.call('GET', `/api/system/admin/${foreignId}`, { token: admin })).status).toBe(404);
    expect(
      (
        await api.call('PUT', `/api/system/admin/${foreignId}`, {
          token: admin,
          body: { displayName: 'Hijacked', version: 0 },
        })
      ).status,
    ).toBe(404);
    expect((await api.call('DELETE', `/api/system/admin/${foreignId}`, { token: admin })).status).toBe(404);
    expect(
      (await api.call('POST', '/api/system/admin/batch-delete', { token: admin, body: { ids: [foreignId] } })).status,
    ).toBe(404);
    for (const verb of ['disable', 'reset-password', 'force-logout']) {
      expect((await api.call('POST', `/api/system/admin/${foreignId}/${verb}`, { token: admin })).status, verb).toBe(
        404,
      );
    }
    const exported = await api.fetch('GET', '/api/system/admin/export?keyword=nurse', { token: admin });
    expect(exported.status).toBe(200);
    const upsert = await api.fetch('POST', '/api/system/admin/import', {
      token: admin,
      form: importForm(
        await xlsxFile([
          ['用户名', '姓名', '初始密码'],
          ['nurse', 'Not yours', 'Quiet-Otter-42'],
        ]),
        { mode: 'upsert' },
      ),
    });
    expect(upsert.status).toBe(200);
    const foreign = await api.db
      .selectFrom('admin_user')
      .select(['display_name', 'deleted_at', 'status'])
      .where('id', '=', foreignId)
      .executeTakeFirstOrThrow();
    expect(foreign).toEqual({ display_name: '护士', deleted_at: null, status: 'enabled' });
    const own = await api.call('GET', `/api/system/admin?keyword=nurse`, { token: otherAdmin });
    expect(own.body.total).toBe(1);
    const auditForeign = await api.call(
      'GET',
      `/api/system/audit-log?resourceType=admin_user&resourceId=${foreignId}`,
      {
        token: admin,
      },
    );
    expect(auditForeign.body.total).toBe(0);
  });

  it('refuses a user without the code (403) for every kind of route', async () => {
    const id = await api.userId('demo', 'viewer');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/system/admin'],
      ['GET', `/api/system/admin/${id}`],
      ['POST', '/api/system/admin', { userName: 'x', displayName: 'x', password: 'Quiet-Otter-42' }],
      ['PUT', `/api/system/admin/${id}`, { displayName: 'x', version: 0 }],
      ['DELETE', `/api/system/admin/${id}`],
      ['POST', '/api/system/admin/batch-delete', { ids: [id] }],
      ['GET', '/api/system/admin/export'],
      ['GET', '/api/system/admin/import-template'],
      ['POST', `/api/system/admin/${id}/enable`],
      ['POST', `/api/system/admin/${id}/disable`],
      ['POST', `/api/system/admin/${id}/unlock`],
      ['POST', `/api/system/admin/${id}/reset-password`],
      ['POST', `/api/system/admin/${id}/force-logout`],
      ['PUT', `/api/system/admin/${id}/roles`, { roleIds: [] }],
      ['GET', '/api/system/login-log'],
      ['GET', '/api/system/audit-log?resourceType=admin_user'],
    ];
    for (const [method, path, body] of routes) {
      const res = await api.call(method, path, { token: viewer, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('common.forbidden');
    }
    const form = importForm(await xlsxFile([['用户名'], ['x']]));
    expect((await api.fetch('POST', '/api/system/admin/import', { token: viewer, form })).status).toBe(403);
    expect((await api.call('GET', '/api/system/admin')).status).toBe(401);
  });

  it('serves a record’s audit timeline newest first to holders of the resource’s list code', async () => {
    const { body: user } = await create('mallory');
    await api.call('PUT', `/api/system/admin/${user.id}`, {
      token: admin,
      body: { displayName: 'Mallory', version: 0 },
    });
    const res = await api.call('GET', `/api/system/audit-log?resourceType=admin_user&resourceId=${user.id}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, total: 2 });
    expect(res.body.data.map((r: { action: string }) => r.action)).toEqual([
      'system:admin:update',
      'system:admin:create',
    ]);
    expect(res.body.data[0]).toMatchObject({
      actorName: 'admin',
      resourceId: user.id,
      before: { displayName: 'mallory' },
    });
    expect((await api.call('GET', '/api/system/audit-log', { token: admin })).status).toBe(403);
    expect(
      (await api.call('GET', '/api/system/audit-log?resourceType=admin_user&foo=1', { token: admin })).status,
    ).toBe(400);
  });

  it('keeps the audit trail append-only for the application role', async () => {
    const demo = await api.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow();
    await expect(api.tenancy.inTenant(demo.id, (tx) => tx.deleteFrom('audit_log').execute())).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      api.tenancy.inTenant(demo.id, (tx) => tx.updateTable('audit_log').set({ summary: 'x' }).execute()),
    ).rejects.toThrow(/permission denied/);
  });
});
