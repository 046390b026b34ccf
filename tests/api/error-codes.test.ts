import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBase } from '../../server/src/db/seed/base';
import { engines, importForm, jsonOf, readXlsx, startApi, type TestApi, xlsxFile } from './helpers';

const en = { 'accept-language': 'en-US' };

describe.each(engines())('error codes on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let demo: string;

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  const byKey = async (key: string) =>
    (await api.call('GET', `/api/dictionary/errcode?keyword=${key}`, { token: platform })).body.data.find(
      (c: { key: string }) => c.key === key,
    );

  it('is platform-only: a tenant administrator is refused', async () => {
    for (const [method, path] of [
      ['GET', '/api/dictionary/errcode'],
      ['POST', '/api/dictionary/errcode'],
      ['GET', '/api/dictionary/errcode/export'],
    ] as const) {
      expect(
        (await api.call(method, path, { token: demo, body: method === 'POST' ? {} : undefined })).status,
        path,
      ).toBe(403);
    }
  });

  it('lists the built-in codes registered at start, filtered and exported exactly', async () => {
    const list = await api.call('GET', '/api/dictionary/errcode?module=auth&sort=code&pageSize=50', {
      token: platform,
    });
    expect(list.body.data.map((c: { key: string }) => c.key)).toEqual(
      expect.arrayContaining(['auth.badCredentials', 'auth.accountLocked']),
    );
    expect(
      list.body.data.every((c: { source: string; module: string }) => c.source === 'built_in' && c.module === 'auth'),
    ).toBe(true);
    const file = await api.fetch('GET', '/api/dictionary/errcode/export?module=auth&sort=code', { token: platform });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows.slice(1).map((r) => r[1])).toEqual(list.body.data.map((c: { key: string }) => c.key));
  });

  it('editing a message changes what the API answers, without a restart, and a restart keeps the edit', async () => {
    const notFound = await byKey('common.notFound');
    const missing = () => api.call('GET', '/api/system/admin/999999', { token: demo, headers: en });
    expect((await missing()).body.message).toBe('The requested resource does not exist');

    const put = await api.call('PUT', `/api/dictionary/errcode/${notFound.id}`, {
      token: platform,
      body: { messageEn: 'Nothing here, sorry', showType: 1, version: notFound.version },
    });
    expect(put.body).toMatchObject({ messageEn: 'Nothing here, sorry', messageCustomized: true, showType: 1 });
    expect(await missing()).toMatchObject({
      status: 404,
      body: { code: 'common.notFound', message: 'Nothing here, sorry' },
    });
    expect((await api.call('GET', '/api/system/admin/999999', { token: demo })).body.message).toBe('请求的资源不存在');

    await api.tenancy.asSystem(seedBase);
    await api.server.services.dict.reloadErrorCatalog();
    expect((await byKey('common.notFound')).messageEn).toBe('Nothing here, sorry');
    expect((await missing()).body.message).toBe('Nothing here, sorry');
    const dictionary = await api.call('GET', '/api/dictionary/catalog/errcodes');
    expect(dictionary.body.find((c: { code: string }) => c.code === 'common.notFound').messageEn).toBe(
      'Nothing here, sorry',
    );
  });

  it('keeps what a built-in code declares: status, module, existence; refuses a stale version', async () => {
    const code = await byKey('common.forbidden');
    const status = await api.call('PUT', `/api/dictionary/errcode/${code.id}`, {
      token: platform,
      body: { httpStatus: 400, version: code.version },
      headers: en,
    });
    expect(status).toMatchObject({
      status: 400,
      body: { fields: [{ field: 'httpStatus', message: 'cannot be changed on a built-in code' }] },
    });
    expect((await api.call('DELETE', `/api/dictionary/errcode/${code.id}`, { token: platform })).body.code).toBe(
      'errcode.builtIn',
    );
    await api.call('PUT', `/api/dictionary/errcode/${code.id}`, {
      token: platform,
      body: { messageZh: '无权操作', version: code.version },
    });
    const stale = await api.call('PUT', `/api/dictionary/errcode/${code.id}`, {
      token: platform,
      body: { messageZh: '旧的', version: code.version },
    });
    expect(stale.status).toBe(409);
    expect((await byKey('common.forbidden')).messageZh).toBe('无权操作');
  });

  it('manual codes: created, listed in the public dictionary, deleted; a bad import writes nothing', async () => {
    const created = await api.call('POST', '/api/dictionary/errcode', {
      token: platform,
      body: {
        code: 2_004_001,
        key: 'trainee.idNo.duplicate',
        module: 'trainee',
        httpStatus: 409,
        messageZh: '身份证号已存在',
        messageEn: 'The ID number is already registered',
      },
    });
    expect(created).toMatchObject({ status: 201, body: { source: 'manual', showType: 2 } });
    expect(
      (
        await api.call('POST', '/api/dictionary/errcode', {
          token: platform,
          body: { ...created.body, id: undefined, source: undefined },
        })
      ).status,
    ).toBe(400);
    expect(
      (await api.call('GET', '/api/dictionary/catalog/errcodes')).body.some(
        (c: { code: string }) => c.code === 'trainee.idNo.duplicate',
      ),
    ).toBe(true);
    const builtInRange = await api.call('POST', '/api/dictionary/errcode', {
      token: platform,
      body: { code: 1_000_999, key: 'x.y', module: 'x', httpStatus: 400, messageZh: 'x', messageEn: 'x' },
    });
    expect(builtInRange.body.fields[0].field).toBe('code');
    expect((await api.call('DELETE', `/api/dictionary/errcode/${created.body.id}`, { token: platform })).status).toBe(
      204,
    );

    const bad = await xlsxFile([
      ['Code', 'Key', 'Module', 'HTTP status', 'Chinese message', 'English message'],
      [2_005_001, 'paper.closed', 'assess', 409, '试卷已关闭', 'The paper is closed'],
      [2_005_002, 'paper.full', 'assess', 700, '名额已满', 'No seats left'],
    ]);
    const res = await api.fetch('POST', '/api/dictionary/errcode/import', {
      token: platform,
      form: importForm(bad),
      headers: en,
    });
    expect(res.status).toBe(422);
    expect((await jsonOf(res)).failed).toEqual([{ row: 3, column: 'HTTP status', message: 'must be at most 599' }]);
    expect(await byKey('paper.closed')).toBeUndefined();
  });
});
