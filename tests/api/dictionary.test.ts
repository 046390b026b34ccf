import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, readXlsx, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

interface Item {
  id: string;
  typeCode: string;
  value: string;
  label: string;
  scope: string;
  version: number;
}

describe.each(engines())('system codes (dictionary types and items) on $name', (engine) => {
  let api: TestApi;
  let demo: string;
  let demo2: string;
  let platform: string;
  let viewer: string;

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    demo2 = (await api.tokens('demo2', 'admin', 'admin123')).access;
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    viewer = (await api.tokens('demo', 'viewer', 'viewer123')).access;
  });
  afterAll(() => api?.close());

  it('types are platform rows: tenants read them, only the platform writes them, with locking', async () => {
    const list = await api.call('GET', '/api/dictionary/syscode/types?keyword=gender', { token: demo });
    expect(list.body).toMatchObject({ total: 1, data: [{ code: 'gender', isSystem: true, tenantExtensible: false }] });
    expect((await api.call('GET', '/api/dictionary/syscode/types', { token: viewer })).status).toBe(403);

    const refused = await api.call('POST', '/api/dictionary/syscode/types', {
      token: demo,
      body: { code: 'clinic_grade', name: '诊所等级' },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'config.platformOnly' } });
    const created = await api.call('POST', '/api/dictionary/syscode/types', {
      token: platform,
      body: { code: 'clinic_grade', name: '诊所等级', tenantExtensible: true },
    });
    expect(created).toMatchObject({
      status: 201,
      body: { code: 'clinic_grade', isSystem: false, tenantExtensible: true, version: 0 },
    });
    const id = created.body.id;
    expect(
      (await api.call('PUT', `/api/dictionary/syscode/types/${id}`, { token: demo, body: { name: 'x', version: 0 } }))
        .status,
    ).toBe(403);
    expect(
      (
        await api.call('PUT', `/api/dictionary/syscode/types/${id}`, {
          token: platform,
          body: { name: '医院级别', version: 0 },
        })
      ).body.version,
    ).toBe(1);
    const stale = await api.call('PUT', `/api/dictionary/syscode/types/${id}`, {
      token: platform,
      body: { name: 'stale', version: 0 },
    });
    expect(stale).toMatchObject({ status: 409, body: { code: 'common.versionConflict' } });
    expect((await api.call('GET', `/api/dictionary/syscode/types/${id}`, { token: platform })).body.name).toBe(
      '医院级别',
    );

    const gender = list.body.data[0].id;
    expect((await api.call('DELETE', `/api/dictionary/syscode/types/${gender}`, { token: platform })).body.code).toBe(
      'dict.systemType',
    );
  });

  it('exports exactly the filtered types and refuses a bad import without writing', async () => {
    const file = await api.fetch('GET', '/api/dictionary/syscode/types/export?keyword=yes_no', {
      token: platform,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]).toEqual(['Type code', 'Type name', 'Tenant extensible', 'Status', 'System', 'Remark']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['yes_no']);

    const bad = await xlsxFile([
      ['Type code', 'Type name'],
      ['title_level', '职称级别'],
      ['Bad Code', '坏的'],
    ]);
    const res = await api.fetch('POST', '/api/dictionary/syscode/types/import', {
      token: platform,
      form: importForm(bad),
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body.failed).toEqual([{ row: 3, column: 'Type code', message: expect.any(String) }]);
    expect(
      (await api.call('GET', '/api/dictionary/syscode/types?keyword=title_level', { token: platform })).body.total,
    ).toBe(0);

    const good = await api.fetch('POST', '/api/dictionary/syscode/types/import', {
      token: platform,
      form: importForm(
        await xlsxFile([
          ['类型编码', '类型名称', '租户可扩展'],
          ['title_level', '职称级别', 'true'],
        ]),
      ),
    });
    expect(await jsonOf(good)).toEqual({ dryRun: false, created: 1, updated: 0, failed: [] });
  });

  it('items are hybrid: platform items for all, tenant items only in extensible types and only for their tenant', async () => {
    const platformItem = await api.call('POST', '/api/dictionary/syscode/items', {
      token: platform,
      body: {
        typeCode: 'clinic_grade',
        value: 'grade_3a',
        label: '三级甲等',
        labelEn: 'Grade 3A',
        color: 'gold',
        sort: 1,
      },
    });
    expect(platformItem).toMatchObject({ status: 201, body: { scope: 'platform', typeCode: 'clinic_grade' } });

    const own = await api.call('POST', '/api/dictionary/syscode/items', {
      token: demo,
      body: { typeCode: 'clinic_grade', value: 'community', label: '社区医院' },
    });
    expect(own).toMatchObject({ status: 201, body: { scope: 'tenant', value: 'community' } });
    const closed = await api.call('POST', '/api/dictionary/syscode/items', {
      token: demo,
      body: { typeCode: 'gender', value: 'x', label: 'x' },
    });
    expect(closed).toMatchObject({ status: 403, body: { code: 'dict.notExtensible' } });
    const shadow = await api.call('POST', '/api/dictionary/syscode/items', {
      token: demo,
      body: { typeCode: 'clinic_grade', value: 'grade_3a', label: '我的' },
    });
    expect(shadow).toMatchObject({ status: 409, body: { code: 'common.duplicate' } });
    const unknown = await api.call('POST', '/api/dictionary/syscode/items', {
      token: demo,
      body: { typeCode: 'nope', value: 'x', label: 'x' },
    });
    expect(unknown).toMatchObject({ status: 400, body: { fields: [{ field: 'typeCode' }] } });

    const demoList = await api.call('GET', '/api/dictionary/syscode/items?typeCode=clinic_grade&sort=value', {
      token: demo,
    });
    expect(demoList.body.data.map((i: Item) => [i.value, i.scope])).toEqual([
      ['community', 'tenant'],
      ['grade_3a', 'platform'],
    ]);
    const otherList = await api.call('GET', '/api/dictionary/syscode/items?typeCode=clinic_grade', { token: demo2 });
    expect(otherList.body.data.map((i: Item) => i.value)).toEqual(['grade_3a']);
    expect((await api.call('GET', `/api/dictionary/syscode/items/${own.body.id}`, { token: demo2 })).status).toBe(404);
    expect(
      (
        await api.call('PUT', `/api/dictionary/syscode/items/${own.body.id}`, {
          token: demo2,
          body: { label: 'x', version: 0 },
        })
      ).status,
    ).toBe(404);
    expect((await api.call('DELETE', `/api/dictionary/syscode/items/${own.body.id}`, { token: demo2 })).status).toBe(
      404,
    );

    const touchPlatform = await api.call('PUT', `/api/dictionary/syscode/items/${platformItem.body.id}`, {
      token: demo,
      body: { label: 'x', version: 0 },
    });
    expect(touchPlatform).toMatchObject({ status: 403, body: { code: 'config.platformOnly' } });
    const updated = await api.call('PUT', `/api/dictionary/syscode/items/${own.body.id}`, {
      token: demo,
      body: { label: '社区卫生服务中心', version: 0 },
    });
    expect(updated.body).toMatchObject({ label: '社区卫生服务中心', version: 1 });
    expect(
      (
        await api.call('PUT', `/api/dictionary/syscode/items/${own.body.id}`, {
          token: demo,
          body: { label: 'stale', version: 0 },
        })
      ).status,
    ).toBe(409);

    const audit = await api.call('GET', `/api/system/audit-log?resourceType=dict_item&resourceId=${own.body.id}`, {
      token: demo,
    });
    expect(audit.body.data.map((a: { action: string }) => a.action)).toEqual([
      'dictionary:syscode:item-update',
      'dictionary:syscode:item-create',
    ]);
    expect(
      (
        await api.call('POST', '/api/dictionary/syscode/items', {
          token: viewer,
          body: { typeCode: 'clinic_grade', value: 'v', label: 'v' },
        })
      ).status,
    ).toBe(403);

    // The type still has items (one of them another tenant's): it stays.
    const type = (await api.call('GET', '/api/dictionary/syscode/types?keyword=clinic_grade', { token: platform })).body
      .data[0];
    expect((await api.call('DELETE', `/api/dictionary/syscode/types/${type.id}`, { token: platform })).body.code).toBe(
      'dict.typeInUse',
    );
  });

  it('exports exactly the filtered items and refuses a bad item import without writing', async () => {
    const file = await api.fetch('GET', '/api/dictionary/syscode/items/export?typeCode=gender&keyword=male', {
      token: demo,
    });
    expect((await readXlsx(await file.arrayBuffer())).slice(1).map((r) => r[1])).toEqual(['male', 'female']);
    const bad = await xlsxFile([
      ['类型编码', '值', '中文名称', '排序'],
      ['clinic_grade', 'clinic', '诊所', '2'],
      ['clinic_grade', 'bad', '坏', 'many'],
    ]);
    const res = await api.fetch('POST', '/api/dictionary/syscode/items/import', { token: demo, form: importForm(bad) });
    expect(res.status).toBe(422);
    expect((await jsonOf(res)).failed).toEqual([{ row: 3, column: '排序', message: expect.any(String) }]);
    expect(
      (await api.call('GET', '/api/dictionary/syscode/items?typeCode=clinic_grade&keyword=clinic', { token: demo }))
        .body.total,
    ).toBe(0);
  });

  it('GET /api/dictionary/catalog/syscodes reflects an edit at once and answers 304 while nothing changed', async () => {
    const first = await api.call('GET', '/api/dictionary/catalog/syscodes', { token: demo });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(
      first.body.filter((c: { type: string }) => c.type === 'clinic_grade').map((c: { value: string }) => c.value),
    ).toEqual(['community', 'grade_3a']);
    const again = await api.call('GET', '/api/dictionary/catalog/syscodes', {
      token: demo,
      headers: { 'if-none-match': etag as string },
    });
    expect(again.status).toBe(304);

    const item = (
      await api.call('GET', '/api/dictionary/syscode/items?typeCode=clinic_grade&keyword=grade_3a', {
        token: platform,
      })
    ).body.data[0];
    await api.call('PUT', `/api/dictionary/syscode/items/${item.id}`, {
      token: platform,
      body: { label: '三甲', version: item.version },
    });
    const changed = await api.call('GET', '/api/dictionary/catalog/syscodes', {
      token: demo,
      headers: { 'if-none-match': etag as string },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.find((c: { value: string }) => c.value === 'grade_3a').label).toBe('三甲');
    const other = await api.call('GET', '/api/dictionary/catalog/syscodes', { token: demo2 });
    expect(other.body.some((c: { value: string }) => c.value === 'community')).toBe(false);
  });
});
