/**
 * Trainee search at scale (issue 9): TRAINEES generated trainees of one tenant (their people too: names with their
 * pinyin, mobiles, ID numbers; types, bases, statuses, cohorts and a filterable custom field spread over them), then
 * the p95 of the list's pages as the console asks for them (filtered by type, status and cohort; by a custom value;
 * by pinyin initials; by a whole ID number), each through HTTP with the administrator's token, beside the budget;
 * then an import of 10,000 trainees of one type into that table, as a job.
 */

import type { createServer } from '../../server/src/server';
import { traineeSheet } from '../support/trainee-sheet';
import { withBenchApi } from './bench-api';
import { p95 } from './measure';
import { generateTrainees } from './trainees';

const TRAINEES = Number(process.env.BENCH_TRAINEES ?? 200_000);
const CALLS = 100;
const BUDGET_MS = 50;
const IMPORTED = Number(process.env.BENCH_TRAINEE_IMPORT ?? 10_000);
/** The budget is PostgreSQL's; the embedded database's figure is printed beside the same number. */
const IMPORT_BUDGET_S = { postgres: 15, pglite: 15 };

type Database = Parameters<typeof createServer>[0]['database'];

export async function benchPeople(label: string, database: Database) {
  return withBenchApi(database, async ({ server, base, token, call }) => {
    const { types, bases, idNo } = await generateTrainees({ server, call }, TRAINEES);

    const searches: [string, string][] = [
      ['type + status + cohort', `traineeTypeId=${types[1]}&status=in_training&cohortYear=2024`],
      ['type + custom value', `traineeTypeId=${types[0]}&custom=${encodeURIComponent('{"track":"c"}')}`],
      ['pinyin initials', 'keyword=zwm'],
      ['name', `keyword=${encodeURIComponent('王芳静')}`],
      ['part of a name', `keyword=${encodeURIComponent('芳静')}`],
      ['whole ID number', `keyword=${idNo(123_456 % TRAINEES)}`],
      ['training base, newest first', `trainingBaseId=${bases[2]}`],
    ];
    for (const [name, query] of searches) {
      const samples: number[] = [];
      let total = 0;
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        const page = await call('GET', `/people/trainee?pageSize=20&current=${1 + (i % 5)}&${query}`);
        samples.push(performance.now() - t0);
        total = page.total;
      }
      const figure = p95(samples);
      console.log(
        `  ${label}: trainee list, ${name} (${total.toLocaleString('en')} match): p95 ${figure.toFixed(1)} ms ` +
          `(≤ ${BUDGET_MS} ms): ${figure <= BUDGET_MS ? 'within' : 'OVER'}`,
      );
    }

    // An import of IMPORTED trainees of one type into that table, as a job, until it is done.
    const file = await traineeSheet(IMPORTED, '导入', 'BB0', [], { track: 'b' });
    const form = new FormData();
    form.set('file', new File([new Uint8Array(file)], 'trainees.xlsx'));
    form.set('mode', 'insert');
    form.set('traineeTypeId', types[0] as string);
    const auth = { authorization: `Bearer ${token}` };
    const importStarted = performance.now();
    const accepted = await fetch(`${base}/api/people/trainee/import-jobs`, {
      method: 'POST',
      headers: auth,
      body: form,
    });
    if (accepted.status !== 202) throw new Error(`import refused: ${accepted.status} ${await accepted.text()}`);
    const job = (await accepted.json()) as { id: string };
    for (;;) {
      const answer = (await (
        await fetch(`${base}/api/people/trainee/import-jobs/${job.id}`, { headers: auth })
      ).json()) as {
        status: string;
        report: unknown;
      };
      if (answer.status === 'done') break;
      if (['failed', 'cancelled'].includes(answer.status))
        throw new Error(`import ${answer.status}: ${JSON.stringify(answer.report)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - importStarted) / 1000;
    const budget = IMPORT_BUDGET_S[database.kind === 'postgres' ? 'postgres' : 'pglite'];
    console.log(
      `  ${label}: import of ${IMPORTED.toLocaleString('en')} trainees (custom values, numbers, people): ` +
        `${seconds.toFixed(1)} s (≤ ${budget} s): ${seconds <= budget ? 'within' : 'OVER'}`,
    );
  });
}
