/**
 * Document search at scale (issue 11): DOCUMENTS generated published documents of one tenant in four libraries
 * (titles and texts from the words below, each document about one of 30 topics, one in a thousand holding a rare
 * phrase), then the p95 of a search for a topic (about 3 % of them match) and for the rare phrase, as the document list
 * asks for it (keyword, marked) and as a reader's search does (within the libraries they may read), each through HTTP
 * with the administrator's token, beside the budget.
 */

import { sql } from 'kysely';
import type { DatabaseOptions } from '../../server/src/db/database';
import { withBenchApi } from './bench-api';
import { p95 } from './measure';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 100_000);
const CALLS = 60;
const BUDGET_MS = 50;

const TOPICS = [
  '急性心肌梗死',
  '主动脉夹层',
  '肺栓塞',
  '社区获得性肺炎',
  '支气管哮喘',
  '消化性溃疡',
  '急性胰腺炎',
  '肝硬化',
  '急性阑尾炎',
  '缺铁性贫血',
  '急性白血病',
  '甲状腺功能亢进症',
  '糖尿病酮症酸中毒',
  '系统性红斑狼疮',
  '肾病综合征',
  '脑梗死',
  '蛛网膜下腔出血',
  '癫痫持续状态',
  '重症肌无力',
  '细菌性痢疾',
  '妊娠期高血压疾病',
  '前置胎盘',
  '小儿肺炎',
  '法洛四联症',
  '院内感染防控',
  '手卫生',
  '危急值报告',
  '输血安全',
  '抗菌药物分级管理',
  '病历书写规范',
];
const KINDS = ['诊疗规范', '管理制度', '操作流程', '应急预案', '培训讲义'];
const FILLER =
  '为规范临床诊疗行为，保障医疗质量与患者安全，结合本院实际制定本规定。各科室应组织学习并严格执行，' +
  '住院医师在上级医师指导下完成病史采集、体格检查与辅助检查的判读，及时记录病程并向上级医师汇报。';
const RARE = '夜间值班交接核查清单';

export function benchDocuments(label: string, database: DatabaseOptions) {
  return withBenchApi(database, async ({ server, call }) => {
    const libraries: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await call('POST', '/content/document-base', {
        code: `bench${i}`,
        name: `基准文档库${i}`,
        visibility: i < 3 ? 'tenant' : 'restricted',
      });
      libraries.push(made.id);
    }
    const tenant = String(
      (await server.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id,
    );
    const started = performance.now();
    await server.services.tenancy.asSystem(async (tx) => {
      // one statement: the words picked by the row's number, so every run makes the same documents
      await sql`INSERT INTO document (tenant_id, base_id, title, doc_type, summary, content_html, content_text, status,
        published_at, chain_id, created_at)
      SELECT ${tenant}::bigint, (${libraries}::bigint[])[1 + g % 4],
        (${TOPICS}::text[])[1 + g % ${TOPICS.length}] || (${KINDS}::text[])[1 + (g / 7) % ${KINDS.length}] || '（第' || g || '号）',
        'regulation', NULL,
        '<p>' || t.body || '</p>', t.body, 'published', now() - make_interval(mins => g), NULL,
        now() - make_interval(mins => g)
      FROM generate_series(1, ${DOCUMENTS}) g
      CROSS JOIN LATERAL (SELECT (${TOPICS}::text[])[1 + g % ${TOPICS.length}] || '的' ||
        (${KINDS}::text[])[1 + (g / 7) % ${KINDS.length}] || '。' || ${FILLER} ||
        (${TOPICS}::text[])[1 + (g / 3) % ${TOPICS.length}] || '相关内容见附件。' ||
        CASE WHEN g % 1000 = 0 THEN ${RARE} ELSE '' END || ${FILLER} AS body) t`.execute(tx);
      await sql`UPDATE document SET chain_id = id WHERE chain_id IS NULL`.execute(tx);
    });
    await sql`ANALYZE document`.execute(server.db);
    console.log(
      `${label}: ${DOCUMENTS.toLocaleString('en')} documents generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const measure = async (what: string, path: string) => {
      const samples: number[] = [];
      let answer: { total: number } = { total: 0 };
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        answer = await call('GET', path);
        samples.push(performance.now() - t0);
      }
      const figure = p95(samples);
      console.log(
        `${label}: ${what} (${answer.total} found) p95 ${figure.toFixed(1)} ms (budget ≤ ${BUDGET_MS} ms: ${figure <= BUDGET_MS ? 'within' : 'OVER'})`,
      );
    };
    const topic = encodeURIComponent('蛛网膜下腔出血');
    const rare = encodeURIComponent(RARE);
    await measure('document list, a topic', `/content/document?keyword=${topic}&current=1&pageSize=20`);
    await measure('document list, a rare phrase', `/content/document?keyword=${rare}&current=1&pageSize=20`);
    await measure("a reader's search, a topic", `/content/document/search?q=${topic}&current=1&pageSize=20`);
    await measure("a reader's search, a rare phrase", `/content/document/search?q=${rare}&current=1&pageSize=20`);
  });
}
