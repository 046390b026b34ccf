import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, resolveIdNumberKey } from '../../server/src/config';
import { createIdNumberCipher, maskIdNo } from '../../server/src/core/id-number';
import { pinyinOf } from '../../server/src/modules/people/person/person';
import { engines, importForm, type Json, readXlsx, twoTenants, xlsxFile } from './helpers';

const trainees = '/api/people/trainee';
const types = '/api/people/trainee-type';
const fields = '/api/people/trainee-field';
const orgs = '/api/people/organization';

describe('people, as their records show and find them', () => {
  it('masks ID numbers and finds names by pinyin and initials', () => {
    expect(maskIdNo('11010519491231002x')).toBe('1101**********002X');
    expect(pinyinOf('张三丰')).toEqual({ pinyin: 'zhangsanfeng', initials: 'zsf' });
  });

  it('keeps ID numbers under a key PostgreSQL must be given, sealed so that a changed byte is refused', () => {
    expect(() => resolveIdNumberKey(undefined, { kind: 'postgres', url: 'postgres://x' })).toThrow(/ID_NUMBER_KEY/);
    expect(() => loadConfig({ ID_NUMBER_KEY: 'short' })).toThrow(/ID_NUMBER_KEY/);
    const key = loadConfig({ ID_NUMBER_KEY: 'ab'.repeat(32) }).idNumberKey;
    expect(key?.length).toBe(32);
    const cipher = createIdNumberCipher(key as Buffer);
    const sealed = cipher.encrypt('11010519491231002x');
    expect(cipher.decrypt(sealed)).toBe('11010519491231002X');
    expect(cipher.hash('11010519491231002x')).toEqual(cipher.hash(' 11010519491231002X'));
    sealed.writeUInt8(sealed.readUInt8(sealed.length - 1) ^ 1, sealed.length - 1);
    expect(() => cipher.decrypt(sealed)).toThrow();
  });
});

describe.each(engines())('trainees on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let base: Json;
  let residency: Json;
  let audited: Json;
  let officeRole: Json;

  const trainee = (body: Json = {}) => ({
    name: '张三丰',
    idNo: '11010519491231002X',
    mobile: '13800000001',
    traineeTypeId: residency.id,
    trainingBaseId: base.id,
    cohortYear: 2026,
    customFields: { school: '北京大学医学部' },
    ...body,
  });

  beforeAll(async () => {
    const hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    base = await create(orgs, { code: 'B1', name: '住培基地', orgType: 'training_base', parentId: hospital.id });
    residency = await create(types, {
      code: 'residency',
      name: '住院医师',
      category: 'residency',
      traineeNoPattern: 'R{yyyy}{seq:4}',
    });
    await create(fields, {
      traineeTypeId: residency.id,
      key: 'school',
      label: '毕业院校',
      fieldType: 'text',
      required: true,
    });
    await create(fields, {
      traineeTypeId: residency.id,
      key: 'gpa',
      label: '绩点',
      fieldType: 'number',
      validation: { min: 0, max: 4 },
      filterable: true,
    });
    officeRole = await create('/api/system/role', { code: 'base_office', name: '基地办' });
    audited = await create(types, {
      code: 'specialist',
      name: '专科医师',
      category: 'specialist',
      traineeNoPattern: 'S{yy}{seq:3}',
      requiresRegistrationAudit: true,
      auditLevels: ['tenant_admin', 'base_office'],
    });
  });

  it("creates a trainee numbered by the type's pattern, the ID number masked and its custom values kept", async () => {
    const made = await create(trainees, trainee());
    const year = new Date().getFullYear();
    expect(made).toMatchObject({
      traineeNo: `R${year}0001`,
      name: '张三丰',
      idNoMasked: '1101**********002X',
      status: 'applied',
      registrationStatus: 'approved',
      traineeTypeName: '住院医师',
      trainingBaseName: '住培基地',
      customFields: { school: '北京大学医学部' },
    });
    expect(JSON.stringify(made)).not.toContain('11010519491231002X');
    const next = await create(
      trainees,
      trainee({ name: '李四', idNo: null, mobile: null, customFields: { school: '协和' } }),
    );
    expect(next.traineeNo).toBe(`R${year}0002`);
  });

  it('refuses bad input on its field and writes nothing', async () => {
    const before = (await call('GET', trainees)).body.total;
    const cases: [Json, string][] = [
      [{ idNo: '110105194912310021' }, 'idNo'],
      [{ customFields: {} }, 'customFields.school'],
      [{ customFields: { school: 'x', gpa: 5 } }, 'customFields.gpa'],
      [{ customFields: { school: 'x', nickname: 'y' } }, 'customFields.nickname'],
      [{ trainingBaseId: residency.id }, 'trainingBaseId'],
      [{ traineeTypeId: '999999' }, 'traineeTypeId'],
      [{ name: '王五', idNo: '11010519491231002X', mobile: null }, 'idNo'],
      [{ idNo: '11010519491231002X', mobile: null }, 'idNo'],
      [{ name: '赵六', idNo: null, mobile: '13800000001' }, 'mobile'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', trainees, trainee(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.fields.map((f: Json) => f.field),
        JSON.stringify(res.body),
      ).toContain(field);
    }
    expect((await call('GET', trainees)).body.total).toBe(before);
  });

  it('links the same person into a second type rather than duplicating them', async () => {
    const made = await create(trainees, trainee({ traineeTypeId: audited.id, customFields: {} }));
    const first = (await call('GET', `${trainees}?traineeTypeId=${residency.id}&keyword=zsf`)).body.data[0];
    expect(made.personId).toBe(first.personId);
    expect(made.registrationStatus).toBe('not_submitted');
  });

  it('finds trainees by name, pinyin initials, mobile, number, whole ID number and custom values', async () => {
    const find = async (query: string) =>
      ((await call('GET', `${trainees}?traineeTypeId=${residency.id}&${query}`)).body.data as Json[]).map(
        (t) => t.name,
      );
    expect(await find('keyword=zsf')).toEqual(['张三丰']);
    expect(await find('keyword=zhangsan')).toEqual(['张三丰']);
    expect(await find('keyword=李')).toEqual(['李四']);
    expect(await find('keyword=1380000000')).toEqual(['张三丰']);
    expect(await find('keyword=11010519491231002x')).toEqual(['张三丰']);
    expect(await find(`keyword=r${new Date().getFullYear()}0002`)).toEqual(['李四']);
    const custom = (values: Json) => find(`custom=${encodeURIComponent(JSON.stringify(values))}`);
    expect(await custom({ school: '协和' })).toEqual(['李四']);
    // a value changed is found by its new value only; a number too, and every key named must match
    const [li] = (await call('GET', `${trainees}?traineeTypeId=${residency.id}&keyword=${encodeURIComponent('李')}`))
      .body.data;
    const edited = await call('PUT', `${trainees}/${li.id}`, {
      customFields: { school: '复旦', gpa: 3.5 },
      version: li.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await custom({ school: '协和' })).toEqual([]);
    expect(await custom({ school: '复旦' })).toEqual(['李四']);
    expect(await custom({ gpa: 3.5 })).toEqual(['李四']);
    expect(await custom({ school: '复旦', gpa: 3 })).toEqual([]);
    expect(await custom({ school: '北京大学医学部' })).toEqual(['张三丰']);
    const bad = await call('GET', `${trainees}?custom=notjson`);
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].field).toBe('custom');
  });

  it('finds trainees by any part of their name, through the index of its characters (issue 32)', async () => {
    for (const [name, idNo] of [
      ['王晓明', null],
      ['李思远', null],
      ['Anna Smith', null],
    ] as const)
      await create(trainees, trainee({ name, idNo, mobile: null, customFields: { school: 'x' } }));
    const find = async (part: string, token?: string) =>
      (
        (
          await call(
            'GET',
            `${trainees}?traineeTypeId=${residency.id}&keyword=${encodeURIComponent(part)}`,
            undefined,
            token,
          )
        ).body.data as Json[]
      ).map((t) => t.name);
    expect(await find('晓明')).toEqual(['王晓明']);
    expect(await find('思远')).toEqual(['李思远']);
    expect(await find('远')).toEqual(['李思远']);
    expect(await find('SMITH')).toEqual(['Anna Smith']);
    expect(await find('晓远')).toEqual([]);
    expect(await find('wxm')).toEqual(['王晓明']);
    expect(await find('lisiy')).toEqual(['李思远']);
    expect(await find('晓明', s.other)).toEqual([]);
    // the look-up the keyword makes reads the index of the names' characters (no scan of the tenant's people)
    const plan = await s.api.db.transaction().execute(async (tx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(tx);
      const { rows } = await sql<Record<string, string>>`EXPLAIN SELECT id FROM person
        WHERE person_name_grams(name) @> person_name_grams(${'晓明'}) AND strpos(lower(name), ${'晓明'}) > 0`.execute(
        tx,
      );
      return rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('person_name_grams_idx');
  });

  it('reveals the ID number only to a permission that may, and audits it', async () => {
    const [row] = (await call('GET', `${trainees}?keyword=zsf&traineeTypeId=${residency.id}`)).body.data;
    expect((await call('POST', `${trainees}/${row.id}/reveal-id`, undefined, s.viewer)).status).toBe(403);
    const shown = await call('POST', `${trainees}/${row.id}/reveal-id`);
    expect(shown.body).toEqual({ idNo: '11010519491231002X' });
    const trail = await call('GET', `/api/system/audit-log?resourceType=trainee&resourceId=${row.id}`);
    expect(JSON.stringify(trail.body)).toContain('trainee:trainee:pii-view');
  });

  it('moves through the lifecycle with a history, refusing moves it does not allow', async () => {
    const row = await create(
      trainees,
      trainee({ name: '周七', idNo: null, mobile: null, customFields: { school: 'x' } }),
    );
    const move = (body: Json, version: number) =>
      call('POST', `${trainees}/${row.id}/transition`, { ...body, version });
    const refused = await move({ to: 'graduated', reason: 'r', effectiveDate: '2026-09-01' }, row.version);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('trainee.transitionNotAllowed');
    const started = await move({ to: 'in_training', reason: '报到', effectiveDate: '2026-09-01' }, row.version);
    expect(started.body).toMatchObject({ status: 'in_training', trainingStart: '2026-09-01' });
    expect((await move({ to: 'suspended', reason: 'r', effectiveDate: '2026-10-01' }, row.version)).status).toBe(409);
    const suspended = await move(
      { to: 'suspended', reason: '病假', effectiveDate: '2026-10-01' },
      started.body.version,
    );
    const graduated = await call('POST', `${trainees}/transition`, {
      ids: [row.id],
      to: 'graduated',
      reason: '结业',
      effectiveDate: '2027-01-01',
    });
    expect(graduated.status).toBe(409);
    const resumed = await move(
      { to: 'in_training', reason: '复培', effectiveDate: '2026-11-01' },
      suspended.body.version,
    );
    const done = await call('POST', `${trainees}/transition`, {
      ids: [row.id],
      to: 'graduated',
      reason: '结业',
      effectiveDate: '2029-08-31',
    });
    expect(done.body[0]).toMatchObject({ status: 'graduated', actualEnd: '2029-08-31' });
    expect(resumed.body.status).toBe('in_training');
    const history = (await call('GET', `${trainees}/${row.id}/history`)).body as Json[];
    expect(history.map((h) => `${h.fromState}>${h.toState}`)).toEqual([
      'in_training>graduated',
      'suspended>in_training',
      'in_training>suspended',
      'applied>in_training',
    ]);
    expect(history[2]).toMatchObject({
      reason: '病假',
      effectiveDate: '2026-10-01',
      createdByName: expect.any(String),
    });
    // the batch's audit row reads as a single move's: the record, then the fields it changed (no status codes)
    const trail = (await call('GET', `/api/system/audit-log?resourceType=trainee&resourceId=${row.id}`)).body.data;
    expect(trail[0]).toMatchObject({
      action: 'trainee:trainee:change-status',
      summary: `${row.traineeNo} 周七 · actualEnd, status, nextStatuses`,
    });
  });

  it("approves a registration through its type's levels, each by its role, then admits the trainee", async () => {
    const row = await create(
      trainees,
      trainee({ name: '吴八', idNo: null, mobile: null, traineeTypeId: audited.id, customFields: {} }),
    );
    const early = await call('POST', `${trainees}/${row.id}/audit`, { decision: 'approve', version: row.version });
    expect(early.body.code).toBe('trainee.notPending');
    const sent = await call('POST', `${trainees}/${row.id}/submit`, { version: row.version });
    expect(sent.body).toMatchObject({ registrationStatus: 'pending', auditLevel: 0 });
    const first = await call('POST', `${trainees}/${row.id}/audit`, {
      decision: 'approve',
      version: sent.body.version,
    });
    expect(first.body).toMatchObject({ registrationStatus: 'pending', auditLevel: 1 });
    // The administrator does not hold the second level's role.
    const second = await call('POST', `${trainees}/audit`, { ids: [row.id], decision: 'approve' });
    expect(second.status).toBe(403);
    expect(second.body.code).toBe('trainee.notYourLevel');
    const rejected = await call('POST', `${trainees}/${row.id}/audit`, {
      decision: 'reject',
      comment: '材料不全',
      version: first.body.version,
    });
    expect(rejected.status).toBe(403);
    expect((await call('GET', `${trainees}/${row.id}`)).body).toMatchObject({ status: 'applied', auditLevel: 1 });
    const admin = await s.api.userId('demo', 'admin');
    await call('POST', `/api/system/role/${officeRole.id}/members`, { userIds: [admin] });
    const approved = await call('POST', `${trainees}/audit`, { ids: [row.id], decision: 'approve', comment: '同意' });
    expect(approved.body[0]).toMatchObject({ registrationStatus: 'approved', status: 'in_training', auditLevel: 2 });
    const history = (await call('GET', `${trainees}/${row.id}/history`)).body as Json[];
    expect(history.map((h) => `${h.kind}:${h.toState}`)).toEqual([
      'status:in_training',
      'registration:approved:base_office',
      'registration:approved:tenant_admin',
      'registration:pending',
    ]);
  });

  it('keeps the key and kind of a field that trainees hold values under', async () => {
    const [field] = (await call('GET', `${fields}?traineeTypeId=${residency.id}&keyword=school`)).body.data;
    const renamed = await call('PUT', `${fields}/${field.id}`, { key: 'college', version: field.version });
    expect(renamed.status).toBe(400);
    expect(renamed.body.fields[0].field).toBe('key');
    const retyped = await call('PUT', `${fields}/${field.id}`, { fieldType: 'textarea', version: field.version });
    expect(retyped.body.fields[0].field).toBe('fieldType');
    const relabelled = await call('PUT', `${fields}/${field.id}`, { label: '毕业院校', version: field.version });
    expect(relabelled.status).toBe(200);
  });

  it("imports a type's trainees from its template: a dry run names the bad rows and writes nothing, an upsert finds them by ID number", async () => {
    const template = await s.api.fetch('GET', `${trainees}/import-template?traineeTypeId=${residency.id}`, {
      token: s.demo,
      headers: { 'accept-language': 'en-US' },
    });
    const [header] = await readXlsx(await template.arrayBuffer());
    expect(header).toEqual(
      expect.arrayContaining(['Name', 'ID number', 'Training base (name or code)', '毕业院校', '绩点']),
    );
    const before = (await call('GET', `${trainees}?traineeTypeId=${residency.id}`)).body.total;
    const rows = [
      ['name', 'idNo', 'trainingBase', 'customFields.school', 'customFields.gpa'],
      ['张三丰', '11010519491231002X', 'B1', '复旦', '3.5'],
      ['孙二', '110105194912310021', 'B1', '复旦', ''],
      ['孙三', '', '没有的基地', '复旦', ''],
      ['孙四', '', 'B1', '', '5'],
      ['孙五', '', '住培基地', '交大', ''],
    ];
    const send = async (sheet: (string | number | null)[][], dryRun: boolean, mode: 'insert' | 'upsert') => {
      const form = importForm(await xlsxFile(sheet), { dryRun, mode });
      form.set('traineeTypeId', residency.id);
      const res = await s.api.fetch('POST', `${trainees}/import`, {
        token: s.demo,
        form,
        headers: { 'accept-language': 'en-US' },
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    const dry = await send(rows, true, 'upsert');
    expect(dry.body.failed.map((f: Json) => `${f.row}:${f.column}`).sort()).toEqual([
      '3:ID number',
      '4:Training base (name or code)',
      '5:毕业院校',
      '5:绩点',
    ]);
    expect(dry.body).toMatchObject({ created: 1, updated: 1 });
    expect((await call('GET', `${trainees}?traineeTypeId=${residency.id}`)).body.total).toBe(before);
    const good = [rows[0], rows[1], rows[2], rows[5]].map((r) => [...(r as string[])]);
    (good[2] as string[])[1] = '';
    const applied = await send(good, false, 'upsert');
    expect(applied.body, JSON.stringify(applied.body)).toMatchObject({ created: 2, updated: 1, failed: [] });
    const [updated] = (await call('GET', `${trainees}?keyword=11010519491231002X&traineeTypeId=${residency.id}`)).body
      .data;
    expect(updated).toMatchObject({ name: '张三丰', customFields: { school: '复旦', gpa: 3.5 } });
    const [made] = (await call('GET', `${trainees}?keyword=${encodeURIComponent('孙五')}`)).body.data;
    expect(made).toMatchObject({ trainingBaseName: '住培基地', customFields: { school: '交大' } });
    // people are written a batch at a time: a mobile two new rows share is still refused on the second, and nothing stays
    const beforeShared = (await call('GET', `${trainees}?traineeTypeId=${residency.id}`)).body.total;
    const shared = await send(
      [
        ['name', 'mobile', 'trainingBase', 'customFields.school'],
        ['钱一', '13900000077', 'B1', '复旦'],
        ['钱二', '13900000077', 'B1', '复旦'],
      ],
      false,
      'insert',
    );
    expect(shared.body.failed.map((f: Json) => `${f.row}:${f.column}`)).toEqual(['3:Mobile']);
    expect((await call('GET', `${trainees}?traineeTypeId=${residency.id}`)).body.total).toBe(beforeShared);
    const noType = await s.api.fetch('GET', `${trainees}/import-template`, { token: s.demo });
    expect(noType.status).toBe(400);
    // the export of one type has its exportable fields as columns
    const sheet = await s.api.fetch(
      'GET',
      `${trainees}/export?traineeTypeId=${residency.id}&keyword=11010519491231002X`,
      {
        token: s.demo,
        headers: { 'accept-language': 'en-US' },
      },
    );
    const [head, first] = await readXlsx(await sheet.arrayBuffer());
    expect(head?.slice(-2)).toEqual(['毕业院校', '绩点']);
    expect(first?.slice(-2)).toEqual(['复旦', '3.5']);
  });

  it('counts trainees by type and status', async () => {
    const counts = (await call('GET', `${trainees}/counts`)).body as Json[];
    const r = counts.find((c) => c.traineeTypeId === residency.id);
    expect(r?.total).toBeGreaterThanOrEqual(3);
    expect(r?.byStatus.graduated).toBe(1);
  });

  it("gives another tenant a template whose example names that tenant's own training base", async () => {
    const as = (path: string, body: Json) => call('POST', path, body, s.other);
    const hospital = (await as(orgs, { code: 'ZH', name: '浙一医院', orgType: 'hospital' })).body;
    await as(orgs, { code: 'ZJ-BASE', name: '浙一基地', orgType: 'training_base', parentId: hospital.id });
    const type = (await as(types, { code: 'fellow', name: '专培', category: 'residency' })).body;
    const template = await s.api.fetch('GET', `${trainees}/import-template?traineeTypeId=${type.id}`, {
      token: s.other,
    });
    const [header = [], example = []] = await readXlsx(await template.arrayBuffer());
    expect(example[header.indexOf('培训基地（名称或编码）')]).toBe('ZJ-BASE');
  });

  it("keeps a viewer to their roles' data scope: lists, counts, exports, profiles and writes", async () => {
    const hospital = await create(orgs, { code: 'H2', name: '第二医院', orgType: 'hospital' });
    const otherBase = await create(orgs, {
      code: 'B2',
      name: '二院基地',
      orgType: 'training_base',
      parentId: hospital.id,
    });
    const outside = await create(
      trainees,
      trainee({ name: '郑九', idNo: null, mobile: null, trainingBaseId: otherBase.id }),
    );
    const role = await create('/api/system/role', { code: 'base_two', name: '二院基地办' });
    expect((await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' })).status).toBe(200);
    const codes = [
      'trainee:trainee:list',
      'trainee:trainee:export',
      'trainee:trainee:change-status',
      'trainee:trainee:create',
    ];
    const permissionIds = (
      await s.api.db.selectFrom('permission').select('id').where('code', 'in', codes).execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'base_two_office',
      displayName: '二院基地办',
      password: 'Quiet-Otter-42',
      orgId: otherBase.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'base_two_office', 'Quiet-Otter-42')).access;
    const list = (await call('GET', trainees, undefined, scoped)).body;
    expect(list.data.map((t: Json) => t.name)).toEqual(['郑九']);
    expect(list.total).toBe(1);
    const counts = (await call('GET', `${trainees}/counts`, undefined, scoped)).body as Json[];
    expect(counts.find((c) => c.traineeTypeId === residency.id)?.total).toBe(1);
    const [inside] = (await call('GET', `${trainees}?keyword=zsf&traineeTypeId=${residency.id}`)).body.data;
    expect((await call('GET', `${trainees}/${inside.id}`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${trainees}/${inside.id}/history`, undefined, scoped)).status).toBe(404);
    const move = { to: 'withdrawn', reason: 'r', effectiveDate: '2026-10-01', version: inside.version };
    expect((await call('POST', `${trainees}/${inside.id}/transition`, move, scoped)).status).toBe(404);
    expect((await call('GET', `${trainees}/${outside.id}`, undefined, scoped)).status).toBe(200);
    const elsewhere = await call('POST', trainees, trainee({ name: '钱十', idNo: null, mobile: null }), scoped);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.fields[0].field).toBe('trainingBaseId');
    const sheet = await s.api.fetch('GET', `${trainees}/export`, { token: scoped });
    const names = (await readXlsx(await sheet.arrayBuffer())).slice(1).map((r) => r[1]);
    expect(names).toEqual(['郑九']);
  });

  it('moves a trainee in training to another base only by a request that is approved, kept in the history', async () => {
    const hospital = await create(orgs, { code: 'H3', name: '第三医院', orgType: 'hospital' });
    const next = await create(orgs, { code: 'B3', name: '三院基地', orgType: 'training_base', parentId: hospital.id });
    const made = await create(trainees, trainee({ name: '孙十一', idNo: null, mobile: null }));
    const early = await call('POST', `${trainees}/${made.id}/request-base-change`, {
      toTrainingBaseId: next.id,
      reason: '转基地',
      effectiveDate: '2026-12-01',
      version: made.version,
    });
    expect(early.body.code).toBe('trainee.notChangingBase');
    // before admission the base is an edit; in training it is not
    const admitted = (
      await call('POST', `${trainees}/${made.id}/transition`, {
        to: 'in_training',
        reason: '入培',
        effectiveDate: '2026-09-01',
        version: made.version,
      })
    ).body;
    expect(admitted.status, JSON.stringify(admitted)).toBe('in_training');
    const edited = await call('PUT', `${trainees}/${made.id}`, { trainingBaseId: next.id, version: admitted.version });
    expect(edited.status).toBe(400);
    expect(edited.body.fields[0].field).toBe('trainingBaseId');
    const ask = (body: Json) =>
      call('POST', `${trainees}/${made.id}/request-base-change`, {
        reason: '转基地',
        effectiveDate: '2026-12-01',
        version: admitted.version,
        ...body,
      });
    expect((await ask({ toTrainingBaseId: base.id })).body.fields[0].field).toBe('toTrainingBaseId');
    expect((await ask({ toTrainingBaseId: hospital.id })).body.fields[0].field).toBe('toTrainingBaseId');
    const asked = await ask({ toTrainingBaseId: next.id });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.trainingBaseId).toBe(base.id);
    expect((await ask({ toTrainingBaseId: next.id })).body.code).toBe('trainee.baseChangePending');
    const rejected = await call('POST', `${trainees}/${made.id}/decide-base-change`, {
      decision: 'reject',
      comment: '名额已满',
      version: asked.body.version,
    });
    expect(rejected.body.trainingBaseId).toBe(base.id);
    expect(
      (
        await call('POST', `${trainees}/${made.id}/decide-base-change`, {
          decision: 'approve',
          version: rejected.body.version,
        })
      ).body.code,
    ).toBe('trainee.noBaseChangePending');
    await ask({ toTrainingBaseId: next.id, version: rejected.body.version });
    const approved = await call('POST', `${trainees}/${made.id}/decide-base-change`, {
      decision: 'approve',
      version: rejected.body.version,
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ trainingBaseId: next.id, trainingBaseName: '三院基地' });
    const changes = (await call('GET', `${trainees}/${made.id}/base-changes`)).body;
    expect(changes.map((c: Json) => c.status)).toEqual(['approved', 'rejected']);
    expect(changes[1]).toMatchObject({ toTrainingBaseName: '三院基地', decisionComment: '名额已满' });
    const [moved] = (await call('GET', `${trainees}/${made.id}/history`)).body;
    expect(moved).toMatchObject({ kind: 'base', fromState: '住培基地', toState: '三院基地', reason: '转基地' });
  });

  it('keeps a type with trainees and a training base with trainees from deletion, and hides them from other tenants', async () => {
    expect((await call('DELETE', `${types}/${residency.id}`)).body.code).toBe('traineeType.inUse');
    expect((await call('DELETE', `${orgs}/${base.id}`)).body.code).toBe('organization.hasTrainees');
    const [row] = (await call('GET', `${trainees}?traineeTypeId=${residency.id}`)).body.data;
    expect((await call('GET', `${trainees}/${row.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', trainees, undefined, s.other)).body.total).toBe(0);
  });
});
