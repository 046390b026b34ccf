/**
 * Trainees generated at scale for the bench (people.ts, backups.ts): an organisation tree of a hospital and four bases,
 * three trainee types with a filterable custom field, then `count` people and their trainees written in SQL, a batch at
 * a time (names and their pinyin from the tables below, ID numbers hashed with the bench server's key).
 */

import { sql } from 'kysely';
import { createIdNumberCipher } from '../../server/src/core/id-number';
import { BENCH_KEY, type BenchApi } from './bench-api';

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

/** The ID number of the `i`th generated trainee: the look-up by whole number finds it. */
const idNo = (i: number) => `1101051990${String(i).padStart(8, '0')}`;

export async function generateTrainees({ server, call }: Pick<BenchApi, 'server' | 'call'>, count: number) {
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
  const cipher = createIdNumberCipher(BENCH_KEY);
  const started = performance.now();
  const BATCH = 10_000;
  for (let from = 0; from < count; from += BATCH) {
    const batch = Math.min(BATCH, count - from);
    const rows = Array.from({ length: batch }, (_, k) => {
      const i = from + k;
      const [s, sp] = SURNAMES[i % SURNAMES.length] as [string, string];
      const [g1, g1p] = GIVEN[Math.floor(i / 10) % GIVEN.length] as [string, string];
      const [g2, g2p] = GIVEN[Math.floor(i / 200) % GIVEN.length] as [string, string];
      const name = `${s}${g1}${g2}`;
      return {
        name,
        pinyin: `${sp}${g1p}${g2p}`,
        initials: `${sp[0]}${g1p[0]}${g2p[0]}`,
        mobile: `166${String(i).padStart(8, '0')}`,
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
    `  ${count.toLocaleString('en')} trainees generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  return { types, bases, idNo };
}
