import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, type Json, jsonOf, readXlsx, statementsOf, twoTenants, xlsxFile } from './helpers';

const categories = '/api/assess/category';
const points = '/api/assess/knowledge-point';
const questions = '/api/assess/question';

const HEADER = [
  '组号',
  '题型',
  '医学题型',
  '分类',
  '题干',
  '选项A',
  '选项B',
  '选项C',
  '选项D',
  '选项E',
  '答案',
  '得分点',
  '解析',
  '难度',
  '知识点',
  '标签',
  '允许重复',
];
type Cells = Partial<Record<(typeof HEADER)[number], string | number>>;
const row = (cells: Cells) => HEADER.map((h) => cells[h] ?? null);
const five = (texts: string[]): Cells => Object.fromEntries(texts.map((t, i) => [`选项${'ABCDE'[i]}`, t]));

/** An A3 group (rows 2–4), a B1 group (rows 5–7) and two questions alone (rows 8–9). */
const goodSheet = (tag: string): Cells[] => [
  {
    组号: 'g1',
    题型: 'case_group',
    医学题型: 'A3',
    分类: 'imp-cardio',
    题干: `${tag} 男，56岁，胸痛3小时。`,
    标签: tag,
  },
  { 组号: 'g1', 题干: '最可能的诊断是', ...five(['心梗', '心绞痛', '夹层', '肺栓塞', '心包炎']), 答案: 'A' },
  { 组号: 'g1', 题干: '首选检查是', ...five(['心电图', '胸片', 'B超', 'CT', '血常规']), 答案: 'A', 解析: '心电图最快' },
  {
    组号: 'g2',
    题型: '共用选项题（B1）',
    医学题型: 'B1',
    分类: '内科学/心血管',
    题干: `${tag} 下列药物各用于`,
    标签: tag,
    ...five(['阿司匹林', '肝素', '华法林', '尿激酶', '硝酸甘油']),
  },
  { 组号: 'g2', 题干: '抗血小板', 答案: 'A' },
  { 组号: 'g2', 题干: '溶栓', 答案: 'D' },
  {
    题型: 'multiple_choice',
    医学题型: 'X',
    分类: 'imp-cardio',
    题干: `${tag} 再灌注治疗包括`,
    选项A: '溶栓',
    选项B: 'PCI',
    选项C: 'CABG',
    选项D: '硝酸甘油',
    答案: 'A, B,C',
    知识点: 'imp-stemi, imp-ami',
    难度: 4,
    标签: tag,
  },
  {
    题型: 'short_answer',
    分类: 'imp-cardio',
    题干: `${tag} 简述心梗的诊断标准`,
    答案: '症状、心电图、标志物',
    得分点: '症状:2; 心电图:4；标志物：4',
    标签: tag,
  },
];

describe.each(engines())('the question import on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;

  const upload = async (rows: Cells[], fields: { dryRun?: boolean } = {}, token = s.demo) =>
    s.api.fetch('POST', `${questions}/import`, {
      token,
      form: importForm(await xlsxFile([HEADER, ...rows.map(row)]), fields),
      headers: { 'accept-language': 'zh-CN' },
    });
  const count = async (token = s.demo) =>
    (await s.api.call('GET', `${questions}?pageSize=1`, { token })).body.total as number;
  const tagged = async (tag: string) =>
    (await call('GET', `${questions}?tag=${encodeURIComponent(tag)}&pageSize=50&sort=code`)).body.data as Json[];

  beforeAll(async () => {
    const internal = await create(categories, { code: 'imp-internal', name: '内科学' });
    await create(categories, { code: 'imp-cardio', name: '心血管', parentId: internal.id });
    await create(categories, { code: 'internal', name: '示例' });
    const ami = await create(points, { code: 'imp-ami', name: '急性心肌梗死' });
    await create(points, { code: 'imp-stemi', name: 'ST段抬高型', parentId: ami.id });
    const foreign = await call('POST', categories, { code: 'foreign', name: '外院' }, s.other);
    expect(foreign.status).toBe(201);
  });

  it('offers one template for every type: Chinese headers, an example of each, and instructions', async () => {
    const res = await s.api.fetch('GET', `${questions}/import-template`, { token: s.demo });
    expect(res.status).toBe(200);
    const data = await res.arrayBuffer();
    const rows = await readXlsx(data);
    expect(rows[0]).toEqual([
      ...HEADER.slice(0, 10),
      '选项F',
      '选项G',
      '选项H',
      ...HEADER.slice(10, 16),
      '来源',
      '建议分值',
      '允许重复',
      '专业',
      '大纲条目',
      '来源年份',
      '预计用时（秒）',
    ]);
    const types = rows
      .slice(1)
      .map((r) => r[1])
      .filter(Boolean);
    expect(types).toEqual([
      'single_choice',
      'multiple_choice',
      'true_false',
      'fill_blank',
      'short_answer',
      'case_group',
      'option_group',
      'case_analysis',
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(data);
    expect(book.worksheets.map((w) => w.name)).toEqual(['assess-question', '填写说明']);
    expect(book.worksheets[1]?.getRow(2).getCell(1).text).toBe('组号');

    // the template as it comes is a valid sheet (its examples name the bank's first category)
    const dry = await s.api.fetch('POST', `${questions}/import`, {
      token: s.demo,
      form: importForm(new File([data], 'template.xlsx'), { dryRun: true }),
    });
    const report = await jsonOf(dry);
    expect(report.failed).toEqual([]);
    expect(report.created).toBe(8);
  });

  it("names the tenant's own first category in the template's examples: another tenant's imports as it comes", async () => {
    const data = await (await s.api.fetch('GET', `${questions}/import-template`, { token: s.other })).arrayBuffer();
    const named = (await readXlsx(data))
      .slice(1)
      .map((r) => r[3])
      .filter(Boolean);
    expect(named).toEqual(Array(8).fill('foreign'));
    const dry = await s.api.fetch('POST', `${questions}/import`, {
      token: s.other,
      form: importForm(new File([data], 'template.xlsx'), { dryRun: true }),
    });
    expect(await jsonOf(dry)).toMatchObject({ created: 8, failed: [] });
  });

  it('imports groups with their items and questions alone, as the form makes them', async () => {
    const before = await count();
    const res = await upload(goodSheet('imp-ok'));
    const report = await jsonOf(res);
    expect(res.status, JSON.stringify(report)).toBe(200);
    expect(report).toMatchObject({ created: 4, updated: 0, failed: [] });
    expect(await count()).toBe(before + 4);

    const made = await tagged('imp-ok');
    expect(made.map((q) => q.questionType)).toEqual(['case_group', 'option_group', 'multiple_choice', 'short_answer']);
    expect(made.every((q) => q.status === 'draft' && q.currentVersion === 1 && /^Q\d{8}$/.test(q.code))).toBe(true);
    const [a3, b1, x, short] = made;
    const group = (await call('GET', `${questions}/${a3.id}`)).body;
    expect(group.categoryName).toBe('心血管');
    expect(group.children.map((c: Json) => [c.subOrder, c.stem, c.answer])).toEqual([
      [1, '最可能的诊断是', ['A']],
      [2, '首选检查是', ['A']],
    ]);
    expect(group.children[1].analysis).toBe('心电图最快');
    const shared = (await call('GET', `${questions}/${b1.id}`)).body;
    expect(shared.options.map((o: Json) => o.key)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(shared.children.map((c: Json) => [c.stem, c.options, c.answer])).toEqual([
      ['抗血小板', null, ['A']],
      ['溶栓', null, ['D']],
    ]);
    // its knowledge points in the order of the tree, whatever the order of the cell
    expect(x).toMatchObject({
      answer: ['A', 'B', 'C'],
      difficulty: 4,
      knowledgePointNames: ['急性心肌梗死', 'ST段抬高型'],
    });
    expect(short.answer).toEqual({
      reference: '症状、心电图、标志物',
      points: [
        { text: '症状', score: 2 },
        { text: '心电图', score: 4 },
        { text: '标志物', score: 4 },
      ],
    });
    const versions = (await call('GET', `${questions}/${a3.id}/versions`)).body;
    expect(versions).toHaveLength(1);
    expect(versions[0].snapshot.children).toHaveLength(2);
    // each first version holds the question as the bank reads it: names, items, review
    for (const q of made) {
      const { version: _, ...found } = (await call('GET', `${questions}/${q.id}`)).body;
      const [first] = (await call('GET', `${questions}/${q.id}/versions`)).body;
      expect(first.snapshot).toEqual(found);
    }

    // the same sheet again: each question is an exact duplicate, unless its row allows it
    const again = await upload(goodSheet('imp-ok'), { dryRun: true });
    const failed = (await jsonOf(again)).failed as Json[];
    expect(failed.map((f) => [f.row, f.column])).toEqual([
      [2, '题干'],
      [5, '题干'],
      [8, '题干'],
      [9, '题干'],
    ]);
    expect(failed[0].message).toMatch(/^与已有题目 \S+ 内容相同/);
    const allowed = goodSheet('imp-ok').map((cells) => (cells.题型 ? { ...cells, 允许重复: '是' } : cells));
    expect((await jsonOf(await upload(allowed, { dryRun: true }))).failed).toEqual([]);
  });

  it('two imports of the same sheet at once make each question once: the second is refused as a duplicate', async () => {
    const [a, b] = await Promise.all([upload(goodSheet('imp-twice')), upload(goodSheet('imp-twice'))]);
    const reports = [await jsonOf(a), await jsonOf(b)];
    expect(await tagged('imp-twice')).toHaveLength(4);
    const created = reports.filter((r) => r.created === 4 && r.failed.length === 0);
    expect(created, JSON.stringify(reports)).toHaveLength(1);
    const refused = reports.find((r) => r !== created[0]) as Json;
    expect(refused.created).toBe(0);
    expect(refused.failed[0]).toMatchObject({
      column: '题干',
      message: expect.stringMatching(/^与已有题目 \S+ 内容相同/),
    });
  });

  it('names the row and column of each bad row, and writes nothing while one is bad', async () => {
    const before = await count();
    const sheet: Cells[] = [
      ...goodSheet('imp-bad'),
      // row 10: a B1 item answering outside the shared options (its group: rows 10–12)
      {
        组号: 'g3',
        题型: 'option_group',
        医学题型: 'B1',
        分类: 'imp-cardio',
        题干: 'imp-bad 共用',
        ...five(['甲', '乙', '丙', '丁', '戊']),
      },
      { 组号: 'g3', 题干: '第一', 答案: 'A' },
      { 组号: 'g3', 题干: '第二', 答案: 'F' },
      // row 13: an A3 group without items
      { 组号: 'g4', 题型: 'case_group', 医学题型: 'A3', 分类: 'imp-cardio', 题干: 'imp-bad 病例' },
      // row 14: an X item with one answer
      {
        题型: 'multiple_choice',
        医学题型: 'X',
        分类: 'imp-cardio',
        题干: 'imp-bad X',
        选项A: '1',
        选项B: '2',
        选项C: '3',
        选项D: '4',
        答案: 'A',
      },
      // row 15: an unknown category; row 16: another tenant's
      { 题型: 'true_false', 分类: 'nowhere', 题干: 'imp-bad 判断', 答案: '对' },
      { 题型: 'true_false', 分类: 'foreign', 题干: 'imp-bad 判断二', 答案: '对' },
      // row 17: the same as row 8, earlier in the sheet
      { ...goodSheet('imp-bad')[6] },
      // row 18: a group number used above (rows 2–4)
      { 组号: 'g1', 题型: 'true_false', 分类: 'imp-cardio', 题干: 'imp-bad 拆开的组', 答案: '错' },
      // row 19: an item's row giving another category than its group's
      { 组号: 'g5', 题型: 'case_group', 医学题型: 'A4', 分类: 'imp-cardio', 题干: 'imp-bad A4' },
      ...['一', '二', '三'].map((n) => ({
        组号: 'g5',
        题干: `问${n}`,
        ...five(['a', 'b', 'c', 'd', 'e']),
        答案: 'B',
        ...(n === '二' && { 分类: 'imp-internal' }),
      })),
      // row 23: a difficulty out of range
      { 题型: 'true_false', 分类: 'imp-cardio', 题干: 'imp-bad 难度', 答案: '对', 难度: 9 },
    ];
    const dry = await upload(sheet, { dryRun: true });
    expect(dry.status).toBe(200);
    const report = await jsonOf(dry);
    expect(report.created, JSON.stringify(report.failed)).toBe(4);
    expect(report.failed.map((f: Json) => [f.row, f.column])).toEqual([
      [12, '答案'],
      [13, '组号'],
      [14, '答案'],
      [15, '分类'],
      [16, '分类'],
      [17, '题干'],
      [18, '组号'],
      [21, '分类'],
      [23, '难度'],
    ]);
    expect(report.failed[0].message).toContain('选项中的字母');
    expect(report.failed[1].message).toContain('A3');
    expect(report.failed[3].message).toContain('nowhere');

    const commit = await upload(sheet);
    expect(commit.status).toBe(422);
    expect((await jsonOf(commit)).failedRows).toBe(9);
    expect(await count()).toBe(before);
    expect(await tagged('imp-bad')).toEqual([]);
  });

  it('lists the likely duplicates of a dry run as warnings that stop no row; an exact duplicate is still refused', async () => {
    const stem = '类似题：男性，62岁，反复上腹部烧灼样疼痛三年，进食后缓解，夜间常痛醒，最可能的诊断是';
    const single = (text: string, tag = 'imp-sim'): Cells => ({
      题型: 'single_choice',
      医学题型: 'A1',
      分类: 'imp-cardio',
      题干: text,
      ...five(['十二指肠溃疡', '胃溃疡', '胃癌', '慢性胃炎', '胆囊炎']),
      答案: 'A',
      标签: tag,
    });
    expect(await jsonOf(await upload([single(stem, 'imp-sim-bank')]))).toMatchObject({ created: 1, failed: [] });
    const [bank] = await tagged('imp-sim-bank');

    const similar = '类似题：男性，63岁，反复上腹部烧灼样疼痛两年，进食后缓解，夜间常痛醒，最可能的诊断是';
    const sheet = [
      // row 2 resembles the bank's question; row 3 is the same; row 4 is like nothing; row 5 resembles row 2
      single(similar),
      single(stem),
      { 题型: 'true_false', 分类: 'imp-cardio', 题干: '维生素C缺乏可导致坏血病', 答案: '对', 标签: 'imp-sim' },
      single('类似题：男性，63岁，反复上腹部烧灼样疼痛两年，进食后缓解，夜间常痛醒，首选的检查是'),
    ];
    const dry = await jsonOf(await upload(sheet, { dryRun: true }));
    expect(dry).toMatchObject({ dryRun: true, created: 3 });
    expect(dry.failed.map((f: Json) => [f.row, f.column])).toEqual([[3, '题干']]);
    // the refusal names the bank's question and says how to import it anyway
    expect(dry.failed[0].message).toBe(`与已有题目 ${bank.code} 内容相同（确认仍要导入请在“允许重复”列填“是”）`);
    const rows = dry.warnings.map((w: Json) => [w.row, w.column]);
    expect(rows).toContainEqual([2, '题干']);
    expect(rows.filter(([row]: number[]) => row === 4)).toEqual([]);
    const [bankWarning] = dry.warnings.filter((w: Json) => w.row === 2);
    expect(bankWarning.message).toContain(bank.code);
    expect(bankWarning.message).toMatch(/相似度 \d+%/);
    const sheetWarning = dry.warnings.find((w: Json) => w.row === 5 && w.message.includes('第 2 行'));
    expect(sheetWarning, JSON.stringify(dry.warnings)).toBeDefined();
    // every question of the sheet was compared
    expect(dry.warningsChecked).toBeUndefined();

    // without the exact duplicate, the rows that only resemble others import
    const kept = [sheet[0], sheet[2], sheet[3]] as Cells[];
    const clean = await jsonOf(await upload(kept, { dryRun: true }));
    expect(clean).toMatchObject({ created: 3, failed: [] });
    expect(clean.warnings.map((w: Json) => w.row)).toContain(2);
    const done = await upload(kept);
    expect(done.status).toBe(200);
    expect(await jsonOf(done)).toMatchObject({ created: 3, failed: [] });
    expect((await tagged('imp-sim')).map((q) => q.stem)).toEqual(expect.arrayContaining([similar, sheet[3]?.题干]));
  });

  it('compares a fixed number of questions of a large sheet, and says how many', async () => {
    const many = Array.from({ length: 52 }, (_, i) => ({
      题型: 'true_false',
      分类: 'imp-cardio',
      题干: `imp-many ${i} ${'甲乙丙丁戊己庚辛壬癸'.slice(i % 10)}${i * 7919}`,
      答案: '对',
    }));
    const dry = await jsonOf(await upload(many, { dryRun: true }));
    expect(dry).toMatchObject({ created: 52, failed: [] });
    expect(dry.warningsChecked).toMatchObject({ checked: 50, total: 52 });
    expect(dry.warningsChecked.message).toContain('50');
    // the job's sheet of a dry run has its warnings beside its errors
    const judge = (text: string): Cells => ({ 题型: 'true_false', 分类: 'imp-cardio', 题干: text, 答案: '对' });
    const sheetRows = [
      judge('imp-job-sim 一氧化碳中毒的特效治疗是高压氧治疗'),
      judge('imp-job-sim 缺乏维生素C可以导致坏血病'),
      judge('imp-job-sim 一氧化碳中毒的特效治疗是高压氧舱治疗'),
    ];
    const start = await s.api.fetch('POST', `${questions}/import-jobs`, {
      token: s.demo,
      form: importForm(await xlsxFile([HEADER, ...sheetRows.map(row)]), { dryRun: true }),
      headers: { 'accept-language': 'zh-CN' },
    });
    const id = (await jsonOf(start)).id as string;
    let job: Json = {};
    while (!['done', 'failed'].includes(job.status)) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await call('GET', `${questions}/import-jobs/${id}`)).body;
    }
    expect(job.report.warnings.map((w: Json) => w.row)).toEqual([4]);
    const res = await s.api.fetch('GET', `${questions}/import-jobs/${id}/failures`, {
      token: s.demo,
      headers: { 'accept-language': 'zh-CN' },
    });
    const book = await readXlsx(await res.arrayBuffer());
    expect(book[0]?.slice(-2)).toEqual(['错误', '提示（不影响导入）']);
    expect(book[3]?.[HEADER.length + 1]).toMatch(/^题干: 与本表第 2 行/);
    expect(book[2]?.[HEADER.length + 1] ?? '').toBe('');
  });

  it("never reaches another tenant's categories, and the other tenant imports into its own", async () => {
    const mine = await upload([
      { 题型: 'true_false', 分类: 'foreign', 题干: 'imp-foreign 判断', 答案: '对', 标签: 'imp-foreign' },
    ]);
    expect(mine.status).toBe(422);
    const theirs = await upload(
      [{ 题型: 'true_false', 分类: 'foreign', 题干: 'imp-foreign 判断', 答案: '对', 标签: 'imp-foreign' }],
      {},
      s.other,
    );
    expect(theirs.status, JSON.stringify(await theirs.clone().json())).toBe(200);
    expect(await tagged('imp-foreign')).toEqual([]);
    expect((await call('GET', `${questions}?tag=imp-foreign`, undefined, s.other)).body.total).toBe(1);
  });

  /** `count` B1 groups of three rows each (a first row and two items), tagged `tag`. */
  const b1Groups = (count: number, tag: string): Cells[] =>
    Array.from({ length: count }, (_, g): Cells[] => [
      {
        组号: `${tag}-${g}`,
        题型: 'option_group',
        医学题型: 'B1',
        分类: 'imp-cardio',
        题干: `${tag} ${g}`,
        标签: tag,
        ...five(['甲', '乙', '丙', '丁', '戊']),
      },
      { 组号: `${tag}-${g}`, 题干: '一', 答案: 'A' },
      { 组号: `${tag}-${g}`, 题干: '二', 答案: 'B' },
    ]).flat();
  const startJob = async (rows: Cells[]) => {
    const start = await s.api.fetch('POST', `${questions}/import-jobs`, {
      token: s.demo,
      form: importForm(await xlsxFile([HEADER, ...rows.map(row)])),
    });
    expect(start.status).toBe(202);
    return (await jsonOf(start)).id as string;
  };
  const finished = async (id: string) => {
    for (;;) {
      const job = (await call('GET', `${questions}/import-jobs/${id}`)).body;
      if (['done', 'failed', 'cancelled'].includes(job.status)) return job as Json;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** The audit rows of a job's writes and of their undoing. */
  const traced = async (id: string) => {
    const rows = await s.api.db
      .selectFrom('audit_log')
      .select('trace_id')
      .where('trace_id', 'in', [`import:${id}`, `import:${id}:undo`])
      .execute();
    return {
      written: rows.filter((r) => r.trace_id === `import:${id}`).length,
      undone: rows.filter((r) => r.trace_id === `import:${id}:undo`).length,
    };
  };

  it('runs as a job (the dialog commits so), with its groups whole across batches, reading the trees once', async () => {
    let job: Json = {};
    const statements = await statementsOf(async () => {
      job = await finished(await startJob(b1Groups(80, 'imp-job')));
    });
    expect(job.status, JSON.stringify(job.report)).toBe('done');
    // 240 rows are several batches on either engine; the category tree is read for all of them at once
    expect(
      statements.filter((q) => /^select "id", "parent_id", "code", "name", "status" from "question_category"/.test(q)),
    ).toHaveLength(1);
    expect(job.report.created).toBe(80);
    // its progress counts the sheet's rows
    expect(job).toMatchObject({ done: 240, total: 240 });
    const made = (await call('GET', `${questions}?tag=imp-job&pageSize=100`)).body.data as Json[];
    expect(made).toHaveLength(80);
    expect(made.every((q) => q.childCount === 2)).toBe(true);
  });

  it('writes each batch once it is checked; a bad row after written batches undoes them and is named', async () => {
    // 699 rows of groups (batches of 100 rows on the embedded database, 500 on PostgreSQL), then a bad category
    const rows = [
      ...b1Groups(233, 'imp-late'),
      { 题型: 'true_false', 分类: 'nowhere', 题干: 'imp-late bad', 答案: '对' },
    ];
    const id = await startJob(rows);
    const job = await finished(id);
    expect(job).toMatchObject({ status: 'failed', report: { created: 0, updated: 0, failedTotal: 1 } });
    expect(job.report.failed).toEqual([{ row: 701, column: '分类', message: '没有编码或路径为“nowhere”的分类' }]);
    expect(await tagged('imp-late')).toEqual([]);
    // the batches before it were written, then undone
    const { written, undone } = await traced(id);
    expect(written).toBeGreaterThan(0);
    expect(undone).toBe(written);
  });

  it('a cancelled job leaves no question of its sheet', async () => {
    const id = await startJob(b1Groups(700, 'imp-cancel'));
    const cancel = await call('POST', `${questions}/import-jobs/${id}/cancel`);
    expect(cancel.status).toBe(200);
    expect(await finished(id)).toMatchObject({ status: 'cancelled', report: { created: 0, updated: 0 } });
    expect(await tagged('imp-cancel')).toEqual([]);
    const { written, undone } = await traced(id);
    expect(undone).toBe(written);
  });

  it("exports in the template's layout: another tenant imports the file and has the same questions", async () => {
    const internal = await call('POST', categories, { code: 'imp-internal', name: '内科学' }, s.other);
    await call('POST', categories, { code: 'imp-cardio', name: '心血管', parentId: internal.body.id }, s.other);
    const ami = await call('POST', points, { code: 'imp-ami', name: '急性心肌梗死' }, s.other);
    await call('POST', points, { code: 'imp-stemi', name: 'ST段抬高型', parentId: ami.body.id }, s.other);
    expect((await jsonOf(await upload(goodSheet('imp-rt')))).created).toBe(4);

    const res = await s.api.fetch('GET', `${questions}/export?tag=imp-rt`, {
      token: s.demo,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(res.status).toBe(200);
    const data = await res.arrayBuffer();
    const rows = await readXlsx(data);
    const template = await readXlsx(
      await (await s.api.fetch('GET', `${questions}/import-template`, { token: s.demo })).arrayBuffer(),
    );
    expect(rows[0]).toEqual(template[0]);
    // a group is its row and its items', sharing a group number; a question alone has none
    const numbers = rows.slice(1).map((r) => r[0]);
    expect(numbers.filter(Boolean)).toHaveLength(6);
    expect(new Set(numbers.filter(Boolean)).size).toBe(2);

    const again = await s.api.fetch('POST', `${questions}/import`, {
      token: s.other,
      form: importForm(new File([data], 'export.xlsx')),
    });
    const report = await jsonOf(again);
    expect(report, JSON.stringify(report)).toMatchObject({ created: 4, failed: [] });

    const content = async (token: string) => {
      const list = await call('GET', `${questions}?tag=imp-rt&pageSize=50&sort=code`, undefined, token);
      const found = await Promise.all(
        (list.body.data as Json[]).map(async (q) => (await call('GET', `${questions}/${q.id}`, undefined, token)).body),
      );
      return found
        .map(
          (q): Json => ({
            ...Object.fromEntries(
              [
                'questionType',
                'medicalFormat',
                'categoryName',
                'stem',
                'options',
                'answer',
                'analysis',
                'difficulty',
                'knowledgePointNames',
                'tags',
                'source',
                'suggestedScore',
              ].map((k) => [k, q[k]]),
            ),
            children: (q.children as Json[]).map(({ id: _, ...item }) => item),
          }),
        )
        .sort((a, b) => String(a.stem).localeCompare(String(b.stem)));
    };
    const theirs = await content(s.other);
    expect(theirs).toEqual(await content(s.demo));
    expect(theirs.map((q) => (q.children as Json[]).length).sort()).toEqual([0, 0, 2, 2]);
  });

  it('exports the chosen questions only, and never those of another tenant', async () => {
    const made = await tagged('imp-rt');
    const [a3, , x] = made;
    const theirs = (await call('GET', `${questions}?tag=imp-rt&pageSize=50`, undefined, s.other)).body.data as Json[];
    const stems = async (ids: string[], token = s.demo) => {
      const res = await s.api.fetch('GET', `${questions}/export?ids=${ids.join(',')}`, { token });
      expect(res.status).toBe(200);
      return (await readXlsx(await res.arrayBuffer())).slice(1).map((r) => r[4]);
    };
    // the A3 group with its two items, and the X question; the other tenant's id is not there
    expect(await stems([a3.id, x.id, theirs[0].id])).toEqual(
      expect.arrayContaining([a3.stem, '最可能的诊断是', '首选检查是', x.stem]),
    );
    expect(await stems([a3.id, x.id, theirs[0].id])).toHaveLength(4);
    expect(await stems([theirs[0].id])).toEqual([]);
    expect(await stems([a3.id], s.other)).toEqual([]);
    const bad = await s.api.fetch('GET', `${questions}/export?ids=1,abc`, { token: s.demo });
    expect(bad.status).toBe(400);
  });

  it('a header it cannot read fails the import, naming the column, and writes nothing', async () => {
    const before = await count();
    const res = await s.api.fetch('POST', `${questions}/import`, {
      token: s.demo,
      form: importForm(
        await xlsxFile([[...HEADER, '密码'], ...goodSheet('imp-header').map((cells) => [...row(cells), null])]),
      ),
      headers: { 'accept-language': 'zh-CN' },
    });
    expect((await jsonOf(res)).failed).toEqual([{ row: 1, column: '密码', message: '无法识别的列' }]);
    expect(await count()).toBe(before);
  });

  it('answers 4xx to what is not a sheet, and asks for the import permission', async () => {
    const junk = await s.api.fetch('POST', `${questions}/import`, {
      token: s.demo,
      form: importForm(new File([new Uint8Array([1, 2, 3])], 'x.xlsx')),
    });
    expect(junk.status).toBe(400);
    const viewer = await upload(goodSheet('imp-viewer'), { dryRun: true }, s.viewer);
    expect(viewer.status).toBe(403);
  });
  it("imports a case analysis' weights from the answer cell (A:2,B:1,D:-1) and the filing columns, and exports them so that the file imports again", async () => {
    const WIDE = [...HEADER, '专业', '大纲条目', '来源年份', '预计用时（秒）'];
    const put = async (rows: Record<string, string | number | undefined>[], token = s.demo, dryRun = false) =>
      jsonOf(
        await s.api.fetch('POST', `${questions}/import`, {
          token,
          form: importForm(await xlsxFile([WIDE, ...rows.map((cells) => WIDE.map((h) => cells[h] ?? null))]), {
            dryRun,
          }),
          headers: { 'accept-language': 'zh-CN' },
        }),
      );
    const four = (texts: string[]) => Object.fromEntries(texts.map((t, i) => [`选项${'ABCD'[i]}`, t]));
    const sheet = (tag: string, stage1 = 'A:2, B:1，D:-1', specialty = '内科') => [
      {
        组号: 'c1',
        题型: 'case_analysis',
        医学题型: 'CASE',
        分类: 'imp-cardio',
        题干: `${tag} 男，62岁，突发胸痛2小时。`,
        标签: tag,
        专业: specialty,
        大纲条目: '心血管-急性冠脉综合征',
        来源年份: 2023,
        '预计用时（秒）': 300,
      },
      { 组号: 'c1', 题干: '首先应进行的检查是', ...four(['心电图', '心肌标志物', '冠脉造影', '腹部CT']), 答案: stage1 },
      { 组号: 'c1', 题干: '应给予', ...four(['阿司匹林', '急诊PCI', '口服抗生素']), 答案: 'A,B' },
    ];
    expect(await put(sheet('imp-case'))).toMatchObject({ created: 1, failed: [] });
    const [made] = await tagged('imp-case');
    const read = (await call('GET', `${questions}/${made.id}`)).body;
    expect(read).toMatchObject({
      specialtyCode: 'internal_medicine',
      syllabusRef: '心血管-急性冠脉综合征',
      sourceYear: 2023,
      estimatedSeconds: 300,
    });
    // an option the cell leaves out weighs 0; a stage of letters alone weighs each correct option 1
    expect(read.children.map((c: Json) => [c.answer, c.options.map((o: Json) => o.weight)])).toEqual([
      [
        ['A', 'B'],
        [2, 1, 0, -1],
      ],
      [
        ['A', 'B'],
        [1, 1, 0],
      ],
    ]);

    // refused by row and column: a stage with no option that adds, weights on a question alone, an unknown specialty
    const bad = await put(
      [
        ...sheet('imp-case-bad', undefined, '牙科'),
        { 题型: 'single_choice', 分类: 'imp-cardio', 题干: 'imp-case-bad 单选', 选项A: '甲', 选项B: '乙', 答案: 'A:1' },
      ],
      s.demo,
      true,
    );
    expect(bad.failed.map((f: Json) => [f.row, f.column])).toEqual([
      [2, '专业'],
      [5, '答案'],
    ]);
    const noPositive = await put(sheet('imp-case-bad', 'A:0,D:-1'), s.demo, true);
    expect(noPositive.failed.map((f: Json) => [f.row, f.column])).toEqual([[3, '答案']]);

    // the export writes the weights and the filing columns; another tenant imports the file and has the same question
    const res = await s.api.fetch('GET', `${questions}/export?tag=imp-case`, {
      token: s.demo,
      headers: { 'accept-language': 'zh-CN' },
    });
    const data = await res.arrayBuffer();
    const rows = await readXlsx(data);
    const column = (name: string) => rows[0]?.indexOf(name) as number;
    expect(rows.slice(1).map((r) => r[column('答案')])).toEqual(['', 'A:2,B:1,D:-1', 'A:1,B:1']);
    expect(rows[1]?.[column('专业')]).toBe('internal_medicine');
    expect(rows[1]?.[column('来源年份')]).toBe('2023');
    const internal = await call('POST', categories, { code: 'imp-internal', name: '内科学' }, s.other);
    if (internal.status === 201)
      await call('POST', categories, { code: 'imp-cardio', name: '心血管', parentId: internal.body.id }, s.other);
    const again = await jsonOf(
      await s.api.fetch('POST', `${questions}/import`, {
        token: s.other,
        form: importForm(new File([data], 'x.xlsx')),
      }),
    );
    expect(again, JSON.stringify(again)).toMatchObject({ created: 1, failed: [] });
    const theirs = (await call('GET', `${questions}?tag=imp-case`, undefined, s.other)).body.data[0];
    const copy = (await call('GET', `${questions}/${theirs.id}`, undefined, s.other)).body;
    const content = (q: Json) => ({
      ...Object.fromEntries(
        ['stem', 'specialtyCode', 'syllabusRef', 'sourceYear', 'estimatedSeconds'].map((k) => [k, q[k]]),
      ),
      children: q.children.map(({ stem, options, answer }: Json) => ({ stem, options, answer })),
    });
    expect(content(copy)).toEqual(content(read));
  });
});
