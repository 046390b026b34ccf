import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, jsonOf, startApi, statementsOf, type TestApi, xlsxFile } from './helpers';

const insertsInto = (statements: string[], table: string) =>
  statements.filter((s) => new RegExp(`^\\s*insert into "${table}"`, 'i').test(s));

const ROWS = 250;

/**
 * Plain table entities create imported rows many per statement (the table store's multi-row insert); an entity with
 * its own create rules keeps them, row by row.
 */
describe.each(engines())('multi-row creates through import on $name', (engine) => {
  let api: TestApi;
  let platform: string;
  let demo: string;

  const upload = (token: string, path: string, rows: (string | number | null)[][]) =>
    xlsxFile(rows).then((file) =>
      api.fetch('POST', `/api/${path}/import`, {
        token,
        form: importForm(file, { mode: 'insert' }),
        headers: { 'accept-language': 'en-US' },
      }),
    );
  const dictTypeRows = (prefix: string) => [
    ['Type code', 'Type name', 'Status', 'Remark'],
    // every other row leaves its remark (a column without a default) empty
    ...Array.from({ length: ROWS }, (_, i) => [`${prefix}_${i}`, `${prefix} ${i}`, 'enabled', i % 2 ? `row ${i}` : '']),
  ];
  const dictTypes = (prefix: string) =>
    api.db.selectFrom('dict_type').select(['code', 'name', 'remark']).where('code', 'like', `${prefix}_%`).execute();

  beforeAll(async () => {
    api = await startApi(engine);
    platform = (await api.tokens('platform', 'admin', 'admin123')).access;
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('a plain entity (dictionary types) inserts a batch of rows per statement, each row audited; a row without a value of a column that has no default is in the same statement', async () => {
    let res: Response | undefined;
    const statements = await statementsOf(async () => {
      res = await upload(platform, 'dictionary/syscode/types', dictTypeRows('bulk'));
    });
    expect(res?.status).toBe(200);
    expect(await jsonOf(res as Response)).toEqual({ dryRun: false, created: ROWS, updated: 0, failed: [] });
    const inserts = insertsInto(statements, 'dict_type');
    expect(inserts.length).toBeGreaterThan(0);
    expect(inserts.length).toBeLessThanOrEqual(Math.ceil(ROWS / 100));
    expect(inserts.every((s) => /jsonb_populate_recordset/i.test(s))).toBe(true);
    const rows = await dictTypes('bulk');
    expect(rows).toHaveLength(ROWS);
    expect(rows.find((r) => r.code === 'bulk_7')).toEqual({ code: 'bulk_7', name: 'bulk 7', remark: 'row 7' });
    expect(rows.find((r) => r.code === 'bulk_8')).toEqual({ code: 'bulk_8', name: 'bulk 8', remark: null });
    const audited = await api.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('resource_type', '=', 'dict_type')
      .where('trace_id', 'like', 'import:%')
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(ROWS);
  });

  it('the many-row insert keeps the store’s rules: only the platform writes dictionary types', async () => {
    const res = await upload(demo, 'dictionary/syscode/types', dictTypeRows('tenant'));
    expect(res.status).toBe(422);
    const body = await jsonOf(res);
    expect(body.created).toBe(0);
    // The first batch that fails stops the import; its rows are each refused.
    expect(body.failedRows).toBeGreaterThan(0);
    expect(body.failed[0]).toMatchObject({ row: 2, column: '' });
    expect(await dictTypes('tenant')).toEqual([]);
  });

  it('an entity with its own create rules creates row by row, in file order (industries: a parent, then its child)', async () => {
    let res: Response | undefined;
    const statements = await statementsOf(async () => {
      res = await upload(platform, 'dictionary/industry', [
        ['Code', 'Parent code', 'Name'],
        ['Z', '', 'Imported section'],
        ['98', 'Z', 'Imported division'],
        ['981', '98', 'Imported group'],
      ]);
    });
    expect(res?.status).toBe(200);
    expect(insertsInto(statements, 'industry')).toHaveLength(3);
    const levels = await api.db
      .selectFrom('industry')
      .select(['code', 'level'])
      .where('code', 'in', ['Z', '98', '981'])
      .orderBy('level')
      .execute();
    expect(levels).toEqual([
      { code: 'Z', level: 1 },
      { code: '98', level: 2 },
      { code: '981', level: 3 },
    ]);
  });
});
