/**
 * The question bank at scale (issue 10): QUESTIONS generated questions of one tenant (1,000,000 on PostgreSQL,
 * 100,000 on the embedded database, as the issue names), spread over a two-level category tree, knowledge points,
 * tags, types, formats and difficulties, with stems written from a medical vocabulary; then the p95 of the list's
 * pages as the console asks for them (a category with its sub-categories, type, difficulty and tag; a keyword in the
 * stems; the unfiltered first page) through HTTP with the administrator's token, beside the budgets, and the likely
 * duplicates of a stem being written; the dry run of a sheet whose stems resemble the bank's, which compares its first
 * SIMILAR_CHECKED questions with the bank (the likely duplicates it warns of); then the xlsx import of IMPORT questions
 * (a tenth of them groups: A3 cases and B1 shared options, two items each) as the console's import job runs it, beside
 * its budget on PostgreSQL.
 */

import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { SIMILAR_CHECKED } from '../../server/src/modules/assess/question/question.import';
import type { createServer } from '../../server/src/server';
import { withBenchApi } from './bench-api';
import { signInDemoAdmin } from './demo-sign-in';
import { p95 } from './measure';

const COUNT = {
  postgres: Number(process.env.BENCH_QUESTIONS ?? 1_000_000),
  pglite: Number(process.env.BENCH_QUESTIONS_EMBEDDED ?? 100_000),
};
const CALLS = 100;
const BUDGET_MS = { filtered: 30, keyword: 50, availability: 100 };
/** Questions in the imported sheet (`BENCH_QUESTION_IMPORT` for a smaller run), and the import's budget on PostgreSQL. */
const IMPORT = Number(process.env.BENCH_QUESTION_IMPORT ?? 100_000);
const IMPORT_BUDGET_S = 30;
const BATCH = 50_000;

type Database = Parameters<typeof createServer>[0]['database'];

const DISEASES = [
  '急性心肌梗死',
  '稳定型心绞痛',
  '主动脉夹层',
  '肺栓塞',
  '社区获得性肺炎',
  '支气管哮喘',
  '慢性阻塞性肺疾病',
  '消化性溃疡',
  '急性胰腺炎',
  '肝硬化',
  '急性阑尾炎',
  '胆囊结石',
  '缺铁性贫血',
  '再生障碍性贫血',
  '急性白血病',
  '甲状腺功能亢进症',
  '糖尿病酮症酸中毒',
  '库欣综合征',
  '系统性红斑狼疮',
  '类风湿关节炎',
  '急性肾小球肾炎',
  '肾病综合征',
  '脑梗死',
  '蛛网膜下腔出血',
  '癫痫持续状态',
  '重症肌无力',
  '细菌性痢疾',
  '流行性乙型脑炎',
  '妊娠期高血压疾病',
  '前置胎盘',
  '小儿肺炎',
  '法洛四联症',
];
const SIGNS = [
  '突发胸痛',
  '发热伴咳嗽',
  '腹痛伴呕吐',
  '头痛伴意识障碍',
  '乏力伴面色苍白',
  '多饮多尿',
  '关节肿痛',
  '水肿伴少尿',
  '呼吸困难',
  '黄疸',
];
const ASKS = ['最可能的诊断是', '首选的检查是', '首选的治疗是', '最常见的并发症是', '下列哪项不符合'];
const TAGS = Array.from({ length: 20 }, (_, i) => `标签${i}`);

export async function benchQuestions(label: string, database: Database) {
  const count = COUNT[database.kind === 'postgres' ? 'postgres' : 'pglite'];
  return withBenchApi(database, async ({ server, base, call }) => {
    // ten subjects of ten chapters each; the questions sit in the chapters
    const roots: string[] = [];
    const leaves: string[] = [];
    for (let r = 0; r < 10; r++) {
      const root = await call('POST', '/assess/category', { code: `bs${r}`, name: `学科${r}` });
      roots.push(root.id);
      for (let c = 0; c < 10; c++)
        leaves.push(
          (await call('POST', '/assess/category', { code: `bs${r}-${c}`, name: `章节${c}`, parentId: root.id })).id,
        );
    }
    const points: string[] = [];
    for (let k = 0; k < 50; k++)
      points.push((await call('POST', '/assess/knowledge-point', { code: `bk${k}`, name: `知识点${k}` })).id);
    const tenant = String(
      (await server.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id,
    );

    const started = performance.now();
    const types = ['single_choice', 'single_choice', 'single_choice', 'multiple_choice', 'true_false', 'short_answer'];
    const formats = ['A1', 'A2', null, 'X', null, null];
    for (let from = 0; from < count; from += BATCH) {
      const n = Math.min(BATCH, count - from);
      await sql`INSERT INTO question (tenant_id, code, category_id, question_type, medical_format, stem, options, answer,
          difficulty, knowledge_point_ids, tags, status, content_hash, created_at)
        SELECT ${tenant}, 'B' || lpad(g::text, 9, '0'),
          (${leaves}::bigint[])[1 + g % ${leaves.length}],
          (${types}::text[])[1 + g % ${types.length}],
          (${formats}::text[])[1 + g % ${formats.length}],
          '患者，' || (18 + g % 70) || '岁，' || (${SIGNS}::text[])[1 + (g / 7) % ${SIGNS.length}] || (1 + g % 48) || '小时。'
            || (${DISEASES}::text[])[1 + (g / 3) % ${DISEASES.length}] || '相关：' || (${ASKS}::text[])[1 + g % ${ASKS.length}],
          '[{"key":"A","text":"甲"},{"key":"B","text":"乙"},{"key":"C","text":"丙"},{"key":"D","text":"丁"},{"key":"E","text":"戊"}]'::jsonb,
          '["A"]'::jsonb,
          1 + (g / 11) % 5,
          ARRAY[(${points}::bigint[])[1 + g % ${points.length}]],
          ARRAY[(${TAGS}::text[])[1 + (g / 13) % ${TAGS.length}]],
          'ready',
          md5(g::text) || md5(g::text),
          now() - g * interval '1 second'
        FROM generate_series(${from + 1}::int, ${from + n}::int) g`.execute(server.db);
    }
    await sql`VACUUM ANALYZE question`.execute(server.db);
    // the generator's rows reach the disk now, not while the figures below are taken (a checkpoint writing back a
    // million rows, and logging whole pages after it, is the generator's cost, not a list's or the import's)
    await sql`CHECKPOINT`.execute(server.db);
    console.log(
      `  ${label}: ${count.toLocaleString('en')} questions generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const searches: [string, string, number | undefined][] = [
      [
        'subject with its chapters + type + difficulty + tag',
        `categoryId=${roots[3]}&questionType=single_choice&difficulty=2&tag=${encodeURIComponent('标签7')}`,
        BUDGET_MS.filtered,
      ],
      ['chapter + format', `categoryId=${leaves[43]}&medicalFormat=A2`, BUDGET_MS.filtered],
      ['knowledge point + status', `knowledgePointId=${points[9]}&status=ready`, BUDGET_MS.filtered],
      ['keyword in the stems (a disease)', `keyword=${encodeURIComponent('主动脉夹层')}`, BUDGET_MS.keyword],
      ['keyword in the stems (a rare phrase)', `keyword=${encodeURIComponent('87岁，关节肿痛')}`, BUDGET_MS.keyword],
      ['the whole bank, newest first (no budget)', '', undefined],
    ];
    for (const [name, query, budget] of searches) {
      const samples: number[] = [];
      let total = 0;
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const page = await call('GET', `/assess/question?pageSize=20&current=${1 + (i % 5)}&${query}`);
        samples.push(performance.now() - t0);
        total = page.total;
      }
      const figure = p95(samples);
      const verdict = budget === undefined ? '' : ` (≤ ${budget} ms): ${figure <= budget ? 'within' : 'OVER'}`;
      console.log(
        `  ${label}: question list, ${name} (${total.toLocaleString('en')} match): p95 ${figure.toFixed(1)} ms${verdict}`,
      );
    }
    // the live check of a paper of five random rules, as the paper form asks for it
    const rules = [
      { categoryIds: [roots[0]], questionType: 'single_choice', count: 20, score: 1 },
      { categoryIds: [roots[1]], difficultyMin: 2, difficultyMax: 4, count: 10, score: 2 },
      { categoryIds: [leaves[55]], tags: ['标签3', '标签4'], count: 5, score: 2 },
      { knowledgePointIds: [points[7]], medicalFormat: 'A2', count: 5, score: 2 },
      { categoryIds: [roots[9]], tags: ['标签1', '标签2'], tagMatch: 'all', count: 1, score: 5 },
    ];
    const checks: number[] = [];
    let found: { available: number }[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      found = await call('POST', '/assess/paper/check-rules', { rules });
      checks.push(performance.now() - t0);
    }
    const check = p95(checks);
    console.log(
      `  ${label}: availability of a paper of 5 random rules (${found.map((r) => r.available).join(', ')} available): ` +
        `p95 ${check.toFixed(1)} ms (≤ ${BUDGET_MS.availability} ms): ${check <= BUDGET_MS.availability ? 'within' : 'OVER'}`,
    );

    const samples: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await call('POST', '/assess/question/duplicates', {
        stem: `患者，${30 + i}岁，突发胸痛3小时。急性心肌梗死相关：首选的治疗是`,
      });
      samples.push(performance.now() - t0);
    }
    console.log(`  ${label}: likely duplicates of a stem being written: p95 ${p95(samples).toFixed(1)} ms (no budget)`);

    await benchImport(label, database.kind === 'postgres', base, call, `bs3-4`);
  });
}

const FIVE = ['甲', '乙', '丙', '丁', '戊'];

/**
 * A question sheet of `count` questions in the category `category`: nine of ten alone (A1, X, true/false in turn), the
 * tenth a group of a first row and two items (A3 and B1 in turn); every stem its own. Written by exceljs' streaming
 * writer. Answers the file and its rows.
 */
export async function questionSheet(count: number, category: string): Promise<{ file: Uint8Array; rows: number }> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('questions');
  sheet
    .addRow([
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
      '难度',
      '标签',
    ])
    .commit();
  let rows = 0;
  const add = (cells: (string | number | null)[]) => {
    sheet.addRow(cells).commit();
    rows += 1;
  };
  for (let n = 1; n <= count; n++) {
    const disease = DISEASES[n % DISEASES.length];
    const stem = `导入${n}：患者，${18 + (n % 70)}岁，${SIGNS[n % SIGNS.length]}。${disease}相关：${ASKS[n % ASKS.length]}`;
    const tag = TAGS[n % TAGS.length] as string;
    const difficulty = 1 + (n % 5);
    if (n % 10 === 0 && (n / 10) % 2 === 0) {
      add([
        `g${n}`,
        'case_group',
        'A3',
        category,
        `导入${n}：病例，${disease}`,
        null,
        null,
        null,
        null,
        null,
        null,
        difficulty,
        tag,
      ]);
      for (const ask of ASKS.slice(0, 2)) add([`g${n}`, null, null, null, ask, ...FIVE, 'B', null, null]);
    } else if (n % 10 === 0) {
      add([`g${n}`, 'option_group', 'B1', category, `导入${n}：以下药物各用于`, ...FIVE, null, difficulty, tag]);
      add([`g${n}`, null, null, null, '抗血小板', null, null, null, null, null, 'A', null, null]);
      add([`g${n}`, null, null, null, '溶栓', null, null, null, null, null, 'D', null, null]);
    } else if (n % 3 === 0)
      add([null, 'multiple_choice', 'X', category, stem, '甲', '乙', '丙', '丁', null, 'A,C', difficulty, tag]);
    else if (n % 3 === 1) add([null, 'single_choice', 'A1', category, stem, ...FIVE, 'C', difficulty, tag]);
    else add([null, 'true_false', null, category, stem, null, null, null, null, null, '对', difficulty, tag]);
  }
  sheet.commit();
  await workbook.commit();
  return { file: new Uint8Array(Buffer.concat(chunks)), rows };
}

/** The import of IMPORT questions as a job through HTTP, timed from the upload to the job's end. */
async function benchImport(
  label: string,
  budgeted: boolean,
  base: string,
  call: (method: string, path: string, body?: unknown) => Promise<{ version: number } & Record<string, unknown>>,
  category: string,
) {
  // the tenant's limits let one sheet hold them (a group is several rows)
  const settings = (await call('GET', '/system/settings?category=upload')) as unknown as {
    data: { key: string; version: number }[];
  };
  for (const [key, value] of [
    ['import.maxRows', 1_000_000],
    ['import.maxFileSizeMb', 200],
    ['import.maxUnpackedMb', 2000],
  ] as const) {
    const version = settings.data.find((setting) => setting.key === key)?.version ?? 0;
    await call('PUT', `/system/settings/${key}`, { value, version });
  }
  const token = await signInDemoAdmin(base);
  /** A sheet imported as a job through HTTP, timed from the upload to the job's end. */
  const runJob = async (file: Uint8Array, dryRun: boolean) => {
    const form = new FormData();
    form.set('file', new File([new Uint8Array(file)], 'questions.xlsx'));
    form.set('dryRun', String(dryRun));
    const started = performance.now();
    const res = await fetch(`${base}/api/assess/question/import-jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 202) throw new Error(`question import refused: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    for (;;) {
      const job = (await call('GET', `/assess/question/import-jobs/${id}`)) as unknown as {
        status: string;
        report: {
          created: number;
          failed: unknown[];
          warnings?: unknown[];
          warningsChecked?: { checked: number; total: number };
        } | null;
      };
      if (['done', 'failed', 'cancelled'].includes(job.status)) {
        if (job.status !== 'done') throw new Error(`question import ${job.status}: ${JSON.stringify(job.report)}`);
        return { seconds: (performance.now() - started) / 1000, report: job.report };
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  // the likely duplicates a dry run warns of: its first SIMILAR_CHECKED questions compared with the bank (whose stems
  // they resemble, as the generated ones resemble each other) and with each other; the sheet is twice as long
  const similar = await questionSheet(2 * SIMILAR_CHECKED, category);
  const checked = await runJob(similar.file, true);
  const compared = checked.report?.warningsChecked;
  console.log(
    `  ${label}: dry run of ${2 * SIMILAR_CHECKED} questions resembling the bank's, ` +
      `${compared?.checked ?? '?'} of ${compared?.total ?? '?'} compared by similarity: ` +
      `${checked.report?.warnings?.length ?? 0} warnings of likely duplicates in ${checked.seconds.toFixed(1)} s (no budget)`,
  );

  const { file, rows } = await questionSheet(IMPORT, category);
  const { seconds, report } = await runJob(file, false);
  const verdict = budgeted
    ? ` (≤ ${IMPORT_BUDGET_S} s): ${seconds <= IMPORT_BUDGET_S ? 'within' : 'OVER'}`
    : ' (budget on PostgreSQL)';
  console.log(
    `  ${label}: import of ${IMPORT.toLocaleString('en')} questions (${(IMPORT / 10).toLocaleString('en')} groups, ` +
      `${rows.toLocaleString('en')} rows, ${(file.byteLength / 1024 / 1024).toFixed(1)} MB): ` +
      `${report?.created.toLocaleString('en')} created in ${seconds.toFixed(1)} s${verdict}`,
  );
}
