/**
 * Trainee search at scale (issue 9): TRAINEES generated trainees of one tenant (their people too: names with their
 * pinyin, mobiles, ID numbers; types, bases, statuses, cohorts and a filterable custom field spread over them), then
 * the p95 of the list's pages as the console asks for them (filtered by type, status and cohort; by a custom value;
 * by pinyin initials; by a whole ID number), each through HTTP with the administrator's token, beside the budget;
 * then an import of 10,000 trainees of one type into that table, as a job.
 */

import { sql } from 'kysely';
import { createIdNumberCipher } from '../../server/src/core/id-number';
import type { createServer } from '../../server/src/server';
import { traineeSheet } from '../support/trainee-sheet';
import { withBenchApi } from './bench-api';
import { p95 } from './measure';

const TRAINEES = Number(process.env.BENCH_TRAINEES ?? 200_000);
const CALLS = 100;
const BUDGET_MS = 50;
const KEY = Buffer.alloc(32, 7);
const IMPORTED = Number(process.env.BENCH_TRAINEE_IMPORT ?? 10_000);
/** The budget is PostgreSQL's; the embedded database's figure is printed beside the same number. */
const IMPORT_BUDGET_S = { postgres: 15, pglite: 15 };

type Database = Parameters<typeof createServer>[0]['database'];

const SURNAMES: [string, string][] = [
  ['张', 'zhang'],
  ['王', 'wang'],
  ['李', 'li'],
  ['赵', 'zhao'],
  ['刘', 'liu'],
  ['陈', 'chen'],
  ['杨', 'yang'],
  ['黄', 'huang'],
  ['周', 'zhou'],
  ['吴', 'wu'],
];
const GIVEN: [string, string][] = [
  ['伟', 'wei'],
  ['芳', 'fang'],
  ['娜', 'na'],
  ['敏', 'min'],
  ['静', 'jing'],
  ['强', 'qiang'],
  ['磊', 'lei'],
  ['洋', 'yang'],
  ['艳', 'yan'],
  ['军', 'jun'],
  ['杰', 'jie'],
  ['涛', 'tao'],
  ['明', 'ming'],
  ['超', 'chao'],
  ['秀', 'xiu'],
  ['霞', 'xia'],
  ['平', 'ping'],
  ['刚', 'gang'],
  ['桂', 'gui'],
  ['英', 'ying'],
];

export async function benchPeople(label: string, database: Database) {
  return withBenchApi(database, async ({ server, base, token, call }) => {
    const hospital = await call('POST', '/people/organization', { code: 'BH', name: '基准医院', orgType: 'hospital' });
    const bases: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await call('POST', '/people/organization', {
        code: `BB${i}`,
        name: `基准基地${i}`,
        orgType: 'training_base',
        parentId: hospital.id,
      });
      bases.push(made.id);
    }
    const types: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await call('POST', '/people/trainee-type', {
        code: `bt${i}`,
        name: `基准类型${i}`,
        category: 'other',
        traineeNoPattern: `T${i}{yyyy}{seq:6}`,
      });
      types.push(made.id);
      await call('POST', '/people/trainee-field', {
        traineeTypeId: made.id,
        key: 'track',
        label: '方向',
        fieldType: 'select',
        options: ['a', 'b', 'c', 'd', 'e'].map((v) => ({ value: v, label: v })),
        filterable: true,
      });
    }
    const tenant = String(
      (await server.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id,
    );

    // People and trainees in SQL, a batch at a time: names and their pinyin from the tables above, ID numbers hashed
    // with the server's key (the look-up by whole number is one of the timed searches).
    const cipher = createIdNumberCipher(KEY);
    const idNo = (i: number) => `1101051990${String(i).padStart(8, '0')}`;
    const started = performance.now();
    const BATCH = 10_000;
    for (let from = 0; from < TRAINEES; from += BATCH) {
      const count = Math.min(BATCH, TRAINEES - from);
      const rows = Array.from({ length: count }, (_, k) => {
        const i = from + k;
        const [s, sp] = SURNAMES[i % SURNAMES.length] as [string, string];
        const [g1, g1p] = GIVEN[Math.floor(i / 10) % GIVEN.length] as [string, string];
        const [g2, g2p] = GIVEN[Math.floor(i / 200) % GIVEN.length] as [string, string];
        const name = `${s}${g1}${g2}`;
        return {
          name,
          pinyin: `${sp}${g1p}${g2p}`,
          initials: `${sp[0]}${g1p[0]}${g2p[0]}`,
          mobile: `139${String(i).padStart(8, '0')}`,
          hash: cipher.hash(idNo(i)).toString('hex'),
          no: `BN${String(i).padStart(8, '0')}`,
          type: types[i % types.length],
          base: bases[i % bases.length],
          status: ['in_training', 'in_training', 'applied', 'graduated', 'suspended'][i % 5],
          cohort: 2020 + (i % 7),
          track: ['a', 'b', 'c', 'd', 'e'][Math.floor(i / 3) % 5],
        };
      });
      await sql`WITH input AS (
          SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(name text, pinyin text, initials text, mobile text,
            hash text, no text, type bigint, base bigint, status text, cohort int, track text)),
        people AS (
          INSERT INTO person (tenant_id, name, name_pinyin, name_initials, mobile, id_no_enc, id_no_hash, id_no_masked)
          SELECT ${tenant}, name, pinyin, initials, mobile, decode(hash, 'hex'), decode(hash, 'hex'), '1101**********0000'
          FROM input RETURNING id, mobile)
        INSERT INTO trainee (tenant_id, person_id, trainee_no, trainee_type_id, training_base_id, status,
          registration_status, cohort_year, custom_fields)
        SELECT ${tenant}, p.id, i.no, i.type, i.base, i.status, 'approved', i.cohort, json_build_object('track', i.track)
        FROM input i JOIN people p ON p.mobile = i.mobile`.execute(server.db);
    }
    // as autovacuum leaves a table that grew (the visibility map lets a count read an index alone)
    await sql`VACUUM ANALYZE person`.execute(server.db);
    await sql`VACUUM ANALYZE trainee`.execute(server.db);
    await sql`VACUUM ANALYZE trainee_custom_value`.execute(server.db);
    console.log(
      `  ${TRAINEES.toLocaleString('en')} trainees generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

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
