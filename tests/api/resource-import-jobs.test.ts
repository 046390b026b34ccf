import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleSheet } from '../support/role-sheet';
import { engines, importForm, jsonOf, readXlsx, secondTenant, startApi, type TestApi, xlsxFile } from './helpers';

const ROWS = 1200;

describe.each(engines())('imports at scale and as jobs, on /api/system/role, on $name', (engine) => {
  let api: TestApi;
  let admin: string;
  let otherAdmin: string;

  const liveRoles = () =>
    api.db
      .selectFrom('role')
      .select(['id', 'code', 'name', 'version'])
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
  const sheet = async (rows: number, prefix: string, bad: number[] = []) =>
    new File([new Uint8Array(await roleSheet(rows, prefix, bad))], `${prefix}.xlsx`);
  const upload = (file: File, fields: { dryRun?: boolean; mode?: 'insert' | 'upsert' } = {}) =>
    api.fetch('POST', '/api/system/role/import', {
      token: admin,
      form: importForm(file, fields),
      headers: { 'accept-language': 'en-US' },
    });
  const job = async (id: string, token = admin) => api.call('GET', `/api/system/role/import-jobs/${id}`, { token });
  const finished = async (id: string) => {
    for (;;) {
      const { body } = await job(id);
      if (['done', 'failed', 'cancelled'].includes(body.status)) return body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const setting = async (key: string, value: number) => {
    const current = (await api.call('GET', `/api/system/settings/${key}`, { token: admin })).body;
    const put = await api.call('PUT', `/api/system/settings/${key}`, {
      token: admin,
      body: { value, version: current.version },
    });
    expect(put.status).toBe(200);
  };

  beforeAll(async () => {
    api = await startApi(engine);
    await api.addTenant(secondTenant);
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    otherAdmin = (await api.tokens('demo2', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('a dry run of a multi-batch file counts every row and writes nothing', async () => {
    const before = await liveRoles();
    const res = await upload(await sheet(ROWS, 'dry'), { dryRun: true });
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ dryRun: true, created: ROWS, updated: 0, failed: [] });
    expect(await liveRoles()).toEqual(before);
  });

  it('imports every row of a multi-batch file, each audited under its job', async () => {
    const res = await upload(await sheet(ROWS, 'bulk'));
    expect(res.status).toBe(200);
    expect(await jsonOf(res)).toEqual({ dryRun: false, created: ROWS, updated: 0, failed: [] });
    const imported = await api.db
      .selectFrom('role')
      .select(['code', 'name', 'status', 'type'])
      .where('code', 'like', 'bulk_%')
      .execute();
    expect(imported).toHaveLength(ROWS);
    expect(imported.find((r) => r.code === `bulk_${ROWS}`)).toEqual({
      code: `bulk_${ROWS}`,
      name: `bulk ${ROWS}`,
      status: 'enabled',
      type: 'custom',
    });
    const latest = (await api.call('GET', '/api/system/role/import-jobs/latest', { token: admin })).body;
    expect(latest).toMatchObject({ status: 'done', done: ROWS, total: ROWS, report: { created: ROWS } });
    const audit = await api.db
      .selectFrom('audit_log')
      .select('id')
      .where('trace_id', '=', `import:${latest.id}`)
      .execute();
    expect(audit).toHaveLength(ROWS);
  });

  it('a bad row anywhere (even the last) leaves the table unchanged', async () => {
    const before = await liveRoles();
    const res = await upload(await sheet(ROWS, 'late', [ROWS]));
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body).toMatchObject({ code: 'common.importFailed', created: 0, failedTotal: 1, failedRows: 1 });
    expect(body.failed).toEqual([{ row: ROWS + 1, column: 'Status', message: expect.any(String) }]);
    expect(await liveRoles()).toEqual(before);
  });

  it('a row that fails only when written, after batches were applied, undoes them all', async () => {
    await api.call('POST', '/api/system/role', { token: admin, body: { code: 'taken_name', name: 'clash 1100' } });
    const before = await liveRoles();
    // Row 1100 passes validation (its code is new) but repeats an existing role name: the unique index refuses it.
    const res = await upload(await sheet(ROWS, 'clash'));
    expect(res.status).toBe(422);
    expect((await jsonOf(res)).failed).toEqual([
      { row: 1101, column: '', message: 'A record with the same value already exists' },
    ]);
    expect(await liveRoles()).toEqual(before);
    const latest = (await api.call('GET', '/api/system/role/import-jobs/latest', { token: admin })).body;
    expect(latest).toMatchObject({ status: 'failed', report: { created: 0, updated: 0 } });
  });

  it('a cancelled job leaves the table unchanged', async () => {
    const before = await liveRoles();
    const started = await api.fetch('POST', '/api/system/role/import-jobs', {
      token: admin,
      form: importForm(await sheet(5000, 'cancel')),
    });
    expect(started.status).toBe(202);
    const { id } = await jsonOf(started);
    const cancel = await api.call('POST', `/api/system/role/import-jobs/${id}/cancel`, { token: admin });
    expect(cancel.status).toBe(200);
    expect(await finished(id)).toMatchObject({ status: 'cancelled', report: { created: 0, updated: 0 } });
    expect(await liveRoles()).toEqual(before);
    const again = await api.call('POST', `/api/system/role/import-jobs/${id}/cancel`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('import.jobFinished');
  });

  it('refuses files past the limits in settings with clear codes, changing nothing', async () => {
    const before = await liveRoles();
    await setting('import.maxFileSizeMb', 1);
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'big.xlsx');
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    expect(await jsonOf(tooBig)).toMatchObject({
      code: 'import.fileTooLarge',
      message: 'The import file is larger than the limit of 1 MB',
    });

    await setting('import.maxUnpackedMb', 1);
    const bomb = await xlsxFile([
      ['角色编码', '角色名称', '备注'],
      ['bomb', 'Bomb', 'x'.repeat(2 * 1024 * 1024)],
    ]);
    expect(bomb.size).toBeLessThan(100 * 1024);
    const unpacked = await upload(bomb);
    expect(unpacked.status).toBe(413);
    expect((await jsonOf(unpacked)).code).toBe('import.unpackedTooLarge');

    await setting('import.maxRows', 10);
    const rows = await upload(await sheet(11, 'many'));
    expect(rows.status).toBe(413);
    expect(await jsonOf(rows)).toMatchObject({
      code: 'import.tooManyRows',
      message: 'The import file has more than the limit of 10 rows',
    });
    expect((await upload(await sheet(10, 'few'), { dryRun: true })).status).toBe(200);
    expect(await liveRoles()).toEqual(before);

    await setting('import.maxFileSizeMb', 20);
    await setting('import.maxUnpackedMb', 300);
    await setting('import.maxRows', 100000);
  });

  it('answers the first 1,000 failures with the totals; the full report is the sheet with an error column', async () => {
    const bad = Array.from({ length: 1500 }, (_, i) => i + 1);
    const res = await upload(await sheet(1600, 'report', bad));
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body.failed).toHaveLength(1000);
    expect(body).toMatchObject({ failedTotal: 1500, failedRows: 1500 });
    expect(body.failed[999]).toMatchObject({ row: 1001, column: 'Status' });

    const latest = (await api.call('GET', '/api/system/role/import-jobs/latest', { token: admin })).body;
    const sheetRes = await api.fetch('GET', `/api/system/role/import-jobs/${latest.id}/failures`, {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    expect(sheetRes.status).toBe(200);
    const rows = await readXlsx(await sheetRes.arrayBuffer());
    expect(rows[0]).toEqual(['角色编码', '角色名称', '排序', '状态', '备注', 'Errors']);
    expect(rows).toHaveLength(1 + 1600);
    expect(rows.slice(1).filter((r) => r[5])).toHaveLength(1500);
    expect(rows[1500]?.[5]).toMatch(/^Status: /);
    expect(rows[1501]?.[0]).toBe('report_1501');
    expect(rows[1501]?.[5] ?? '').toBe('');
  });

  it('exports the filtered set exactly, across batches, with formula-leading cells escaped', async () => {
    for (const [code, name, remark] of [
      ['formula_a', '=1+2', '@SUM(A1)'],
      ['formula_b', '+cmd', '-2+3'],
    ]) {
      expect((await api.call('POST', '/api/system/role', { token: admin, body: { code, name, remark } })).status).toBe(
        201,
      );
    }
    const res = await api.fetch('GET', '/api/system/role/export?keyword=formula_&sort=code', {
      token: admin,
      headers: { 'accept-language': 'en-US' },
    });
    const rows = await readXlsx(await res.arrayBuffer());
    expect(rows.slice(1).map((r) => [r[0], r[1], r[6]])).toEqual([
      ['formula_a', "'=1+2", "'@SUM(A1)"],
      ['formula_b', "'+cmd", "'-2+3"],
    ]);

    const all = await readXlsx(
      await (
        await api.fetch('GET', '/api/system/role/export?keyword=bulk_&sort=-code', { token: admin })
      ).arrayBuffer(),
    );
    const listed = await api.db
      .selectFrom('role')
      .select('code')
      .where('code', 'like', 'bulk\\_%')
      .where('deleted_at', 'is', null)
      .orderBy('code', 'desc')
      .execute();
    expect(all.slice(1).map((r) => r[0])).toEqual(listed.map((r) => r.code));
    expect(listed).toHaveLength(ROWS);
  });

  it('another tenant cannot see, cancel or download a job (404)', async () => {
    const latest = (await api.call('GET', '/api/system/role/import-jobs/latest', { token: admin })).body;
    expect((await job(latest.id, otherAdmin)).status).toBe(404);
    expect(
      (await api.call('POST', `/api/system/role/import-jobs/${latest.id}/cancel`, { token: otherAdmin })).status,
    ).toBe(404);
    expect(
      (await api.fetch('GET', `/api/system/role/import-jobs/${latest.id}/failures`, { token: otherAdmin })).status,
    ).toBe(404);
    expect((await api.call('GET', '/api/system/role/import-jobs/latest', { token: otherAdmin })).body).toBeNull();
    expect((await api.call('GET', `/api/system/admin/import-jobs/${latest.id}`, { token: admin })).status).toBe(404);
  });
});
