import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, startApi, type TestApi, xlsxFile } from './helpers';

const en = { 'accept-language': 'en-US' };

describe.each(engines())('industries and business items on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let demo: string;
  let viewer: string;

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
  });
  afterAll(() => api?.close());

  describe('industries', () => {
    it('ships the 20 sections and 97 divisions of GB/T 4754-2017 as a lazy tree', async () => {
      const sections = await api.call('GET', '/api/dictionary/industry/tree', { token: platform });
      expect(sections.body.map((s: { code: string }) => s.code)).toEqual('ABCDEFGHIJKLMNOPQRST'.split(''));
      expect(sections.body.find((s: { code: string }) => s.code === 'Q')).toMatchObject({
        name: '卫生和社会工作',
        nameEn: 'Health and Social Work',
        level: 1,
        standardVersion: 'GB/T 4754-2017',
        hasChildren: true,
      });
      const q = await api.call('GET', '/api/dictionary/industry/tree?parentCode=Q', { token: platform });
      expect(
        q.body.map((d: { code: string; name: string; hasChildren: boolean }) => [d.code, d.name, d.hasChildren]),
      ).toEqual([
        ['84', '卫生', false],
        ['85', '社会工作', false],
      ]);
      expect((await api.call('GET', '/api/dictionary/industry?level=2', { token: platform })).body.total).toBe(97);
    });

    it('is platform-only: a tenant administrator is refused', async () => {
      expect((await api.call('GET', '/api/dictionary/industry', { token: demo })).status).toBe(403);
      expect((await api.call('GET', '/api/dictionary/industry/tree', { token: demo })).status).toBe(403);
      expect(
        (
          await api.call('POST', '/api/dictionary/industry', {
            token: demo,
            body: { code: '841', name: '医院', parentCode: '84' },
          })
        ).status,
      ).toBe(403);
    });

    it('creates below a parent at the next level, locks versions, keeps parents with children', async () => {
      const created = await api.call('POST', '/api/dictionary/industry', {
        token: platform,
        body: { code: '841', name: '医院', parentCode: '84' },
      });
      expect(created).toMatchObject({ status: 201, body: { level: 3, parentCode: '84' } });
      expect(
        (
          await api.call('POST', '/api/dictionary/industry', {
            token: platform,
            body: { code: '999', name: 'x', parentCode: '98' },
          })
        ).body.fields[0].field,
      ).toBe('parentCode');
      const id = created.body.id;
      expect(
        (
          await api.call('PUT', `/api/dictionary/industry/${id}`, {
            token: platform,
            body: { name: '医院服务', version: 0 },
          })
        ).body.version,
      ).toBe(1);
      expect(
        (await api.call('PUT', `/api/dictionary/industry/${id}`, { token: platform, body: { name: 'x', version: 0 } }))
          .status,
      ).toBe(409);
      const health = (await api.call('GET', '/api/dictionary/industry?keyword=卫生&level=2', { token: platform })).body
        .data[0];
      expect((await api.call('DELETE', `/api/dictionary/industry/${health.id}`, { token: platform })).body.code).toBe(
        'industry.hasChildren',
      );
      expect((await api.call('DELETE', `/api/dictionary/industry/${id}`, { token: platform })).status).toBe(204);
    });

    it('exports exactly the filtered rows; a bad import writes nothing', async () => {
      const file = await api.fetch('GET', '/api/dictionary/industry/export?parentCode=Q', { token: platform });
      expect((await readXlsx(await file.arrayBuffer())).slice(1).map((r) => r[0])).toEqual(['84', '85']);
      const bad = await xlsxFile([
        ['Code', 'Parent code', 'Name'],
        ['851', '85', '社会看护与帮助服务'],
        ['86x', '86', '坏'],
      ]);
      const res = await api.fetch('POST', '/api/dictionary/industry/import', {
        token: platform,
        form: importForm(bad),
        headers: en,
      });
      expect(res.status).toBe(422);
      expect((await jsonOf(res)).failed).toEqual([{ row: 3, column: 'Code', message: expect.any(String) }]);
      expect((await api.call('GET', '/api/dictionary/industry?parentCode=85', { token: platform })).body.total).toBe(0);
    });
  });

  describe('business items', () => {
    it('are listed to a template writer without the catalogue screen, who still may not open or change one', async () => {
      const role = (await api.call('POST', '/api/system/role', { token: demo, body: { code: 'tpl', name: '模板' } }))
        .body;
      const permissionIds = (
        await api.db.selectFrom('permission').select('id').where('code', '=', 'message:template:list').execute()
      ).map((p) => String(p.id));
      const granted = await api.call('PUT', `/api/system/role/${role.id}/permissions`, {
        token: demo,
        body: { permissionIds },
      });
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      const made = await api.call('POST', '/api/system/admin', {
        token: demo,
        body: {
          userName: 'tpl_writer',
          displayName: '模板员',
          password: 'Quiet-Otter-42',
          roleIds: [role.id],
          mustChangePassword: false,
        },
      });
      expect(made.status).toBe(201);
      const writer = (await api.tokens('demo', 'tpl_writer', 'Quiet-Otter-42')).access;
      const list = await api.call('GET', '/api/dictionary/busiitem?notifiable=true', { token: writer });
      expect(list.status).toBe(200);
      expect(list.body.total).toBeGreaterThan(0);
      const [first] = list.body.data;
      expect((await api.call('GET', `/api/dictionary/busiitem/${first.id}`, { token: writer })).status).toBe(403);
      expect((await api.call('GET', '/api/dictionary/busiitem/export', { token: writer })).status).toBe(403);
    });

    it('every tenant reads the global catalogue; only the platform writes it', async () => {
      const list = await api.call('GET', '/api/dictionary/busiitem?module=assess', { token: demo });
      expect(list.body.data.map((b: { code: string }) => b.code)).toEqual(['paper.published']);
      expect(list.body.data[0]).toMatchObject({ notifiable: true, defaultChannels: ['in_app'], auditLevel: 'normal' });
      expect((await api.call('GET', '/api/dictionary/busiitem', { token: viewer })).status).toBe(403);
      const body = {
        code: 'course.published',
        name: '课程发布',
        module: 'teaching',
        notifiable: true,
        variables: [{ name: 'courseName', label: '课程名称', example: '心电图判读' }],
        defaultChannels: ['in_app', 'wechat_mp'],
      };
      expect((await api.call('POST', '/api/dictionary/busiitem', { token: demo, body })).body.code).toBe(
        'config.platformOnly',
      );
      const created = await api.call('POST', '/api/dictionary/busiitem', { token: platform, body });
      expect(created).toMatchObject({
        status: 201,
        body: { ...body, auditLevel: 'normal', status: 'enabled', version: 0 },
      });
      const id = created.body.id;
      expect(
        (await api.call('PUT', `/api/dictionary/busiitem/${id}`, { token: demo, body: { name: 'x', version: 0 } }))
          .status,
      ).toBe(403);
      const updated = await api.call('PUT', `/api/dictionary/busiitem/${id}`, {
        token: platform,
        body: { variables: [], auditLevel: 'sensitive', version: 0 },
      });
      expect(updated.body).toMatchObject({ variables: [], auditLevel: 'sensitive', version: 1 });
      expect(
        (await api.call('PUT', `/api/dictionary/busiitem/${id}`, { token: platform, body: { name: 'x', version: 0 } }))
          .status,
      ).toBe(409);
      expect((await api.call('DELETE', `/api/dictionary/busiitem/${id}`, { token: demo })).status).toBe(403);
      expect((await api.call('DELETE', `/api/dictionary/busiitem/${id}`, { token: platform })).status).toBe(204);
    });

    it('exports exactly the filtered rows; a bad import writes nothing', async () => {
      const file = await api.fetch('GET', '/api/dictionary/busiitem/export?module=expert,community&sort=code', {
        token: demo,
      });
      expect((await readXlsx(await file.arrayBuffer())).slice(1).map((r) => r[0])).toEqual([
        'post.report.resolved',
        'qualification.approved',
        'qualification.expiring',
        'qualification.rejected',
      ]);
      const bad = await xlsxFile([
        ['编码', '名称', '模块', '默认渠道'],
        ['exam.started', '考试开始', 'assess', 'in_app'],
        ['exam.ended', '考试结束', 'assess', 'fax'],
      ]);
      const res = await api.fetch('POST', '/api/dictionary/busiitem/import', {
        token: platform,
        form: importForm(bad),
      });
      expect(res.status).toBe(422);
      expect((await jsonOf(res)).failed).toEqual([{ row: 3, column: '默认渠道', message: expect.any(String) }]);
      expect((await api.call('GET', '/api/dictionary/busiitem?keyword=exam.', { token: platform })).body.total).toBe(0);
    });
  });
});
