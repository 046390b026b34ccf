import { beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, type Json, readXlsx, twoTenants, xlsxFile } from './helpers';

const types = '/api/people/doctor-type';
const doctors = '/api/people/doctor';
const orgs = '/api/people/organization';
const trainees = '/api/people/trainee';

describe.each(engines())('doctor types and doctors on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let cardiology: Json;
  let surgery: Json;
  let teaching: Json;
  let licensed: Json;
  let trainee: Json;

  beforeAll(async () => {
    const hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    cardiology = await create(orgs, { code: 'D1', name: '心内科', orgType: 'department', parentId: hospital.id });
    surgery = await create(orgs, { code: 'D2', name: '普外科', orgType: 'department', parentId: hospital.id });
    teaching = await create(types, { code: 'teaching', name: '带教医师', teacherEligible: true });
    licensed = await create(types, { code: 'licensed', name: '执业医师', licenseRequired: true });
    const base = await create(orgs, { code: 'B1', name: '住培基地', orgType: 'training_base', parentId: hospital.id });
    const type = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
    trainee = await create(trainees, {
      name: '欧阳明',
      idNo: '110105199001011232',
      traineeTypeId: type.id,
      trainingBaseId: base.id,
      traineeNo: 'R1',
    });
  });

  it("makes a doctor of a trainee's person, refuses a person twice, and keeps the type's licence rule", async () => {
    const linked = await create(doctors, {
      name: '欧阳明',
      idNo: '110105199001011232',
      doctorTypeId: teaching.id,
      orgId: cardiology.id,
      doctorNo: 'd01',
      isTutor: true,
    });
    expect(linked).toMatchObject({ personId: trainee.personId, doctorNo: 'D01', doctorTypeName: '带教医师' });
    const twice = await call('POST', doctors, {
      name: '欧阳明',
      idNo: '110105199001011232',
      doctorTypeId: teaching.id,
    });
    expect(twice.body.fields[0].field).toBe('idNo');
    const noLicense = await call('POST', doctors, { name: '李四', doctorTypeId: licensed.id });
    expect(noLicense.body.fields[0].field).toBe('licenseNo');
    const made = await create(doctors, {
      name: '李四',
      doctorTypeId: licensed.id,
      licenseNo: 'L001',
      orgId: surgery.id,
    });
    const sameLicense = await call('POST', doctors, { name: '王五', doctorTypeId: licensed.id, licenseNo: 'l001' });
    expect(sameLicense.body.fields[0].field).toBe('licenseNo');
    const cleared = await call('PUT', `${doctors}/${made.id}`, { licenseNo: null, version: made.version });
    expect(cleared.body.fields[0].field).toBe('licenseNo');
    expect((await call('GET', `${doctors}?keyword=oym`)).body.data.map((d: Json) => d.name)).toEqual(['欧阳明']);
    expect((await call('GET', `${doctors}?doctorTypeId=${licensed.id}`)).body.total).toBe(1);
    const revealed = await call('POST', `${doctors}/${linked.id}/reveal-id`);
    expect(revealed.body).toEqual({ idNo: '110105199001011232' });
  });

  it('counts a type’s doctors, refuses to delete it while they are there, and moves them to another type first', async () => {
    const listed = (await call('GET', types)).body.data as Json[];
    expect(listed.find((t) => t.id === teaching.id)?.doctorCount).toBe(1);
    const refused = await call('DELETE', `${types}/${teaching.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('doctorType.inUse');
    const current = (await call('GET', `${types}/${teaching.id}`)).body;
    const toItself = await call('POST', `${types}/${teaching.id}/move-doctors`, {
      targetTypeId: teaching.id,
      version: current.version,
    });
    expect(toItself.body.fields[0].field).toBe('targetTypeId');
    const spare = await create(types, { code: 'spare', name: '备用类型' });
    const moved = await call('POST', `${types}/${teaching.id}/move-doctors`, {
      targetTypeId: spare.id,
      version: current.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.doctorCount).toBe(0);
    expect((await call('GET', `${doctors}?doctorTypeId=${spare.id}`)).body.data.map((d: Json) => d.name)).toEqual([
      '欧阳明',
    ]);
    expect((await call('DELETE', `${types}/${teaching.id}`)).status).toBe(204);
  });

  it('gives trainees a tutor (a tutor, active) in one go, and the doctor counts them', async () => {
    const [tutor] = (await call('GET', `${doctors}?keyword=oym`)).body.data;
    const [notTutor] = (await call('GET', `${doctors}?keyword=ls`)).body.data;
    const refused = await call('POST', `${trainees}/assign-tutor`, { ids: [trainee.id], tutorDoctorId: notTutor.id });
    expect(refused.body.fields[0].field).toBe('tutorDoctorId');
    const assigned = await call('POST', `${trainees}/assign-tutor`, { ids: [trainee.id], tutorDoctorId: tutor.id });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body[0]).toMatchObject({ tutorDoctorId: tutor.id, tutorName: '欧阳明' });
    expect((await call('GET', `${trainees}?tutorDoctorId=${tutor.id}`)).body.total).toBe(1);
    expect((await call('GET', `${doctors}/${tutor.id}`)).body.traineeCount).toBe(1);
    const unknown = await call('POST', `${trainees}/assign-tutor`, { ids: ['999999'], tutorDoctorId: null });
    expect(unknown.status).toBe(404);
  });

  it("keeps a department's secretary to their department's doctors", async () => {
    const role = await create('/api/system/role', { code: 'dept_secretary', name: '科室秘书' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', ['people:doctor:list', 'people:doctor:create', 'people:doctor:export'])
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'surgery_secretary',
      displayName: '普外科秘书',
      password: 'Quiet-Otter-42',
      orgId: surgery.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'surgery_secretary', 'Quiet-Otter-42')).access;
    const list = (await call('GET', doctors, undefined, scoped)).body;
    expect(list.data.map((d: Json) => d.name)).toEqual(['李四']);
    const [outside] = (await call('GET', `${doctors}?keyword=oym`)).body.data;
    expect((await call('GET', `${doctors}/${outside.id}`, undefined, scoped)).status).toBe(404);
    const elsewhere = await call(
      'POST',
      doctors,
      { name: '赵六', doctorTypeId: licensed.id, licenseNo: 'L009', orgId: cardiology.id },
      scoped,
    );
    expect(elsewhere.body.fields[0].field).toBe('orgId');
    const sheet = await s.api.fetch('GET', `${doctors}/export`, { token: scoped });
    expect((await readXlsx(await sheet.arrayBuffer())).slice(1).map((r) => r[1])).toEqual(['李四']);
  });

  it('imports doctors by ID number, naming the bad rows of a dry run', async () => {
    const send = async (rows: (string | null)[][], dryRun: boolean) => {
      const res = await s.api.fetch('POST', `${doctors}/import`, {
        token: s.demo,
        form: importForm(await xlsxFile(rows), { dryRun, mode: 'upsert' }),
        headers: { 'accept-language': 'en-US' },
      });
      return (await res.json()) as Json;
    };
    const rows = [
      ['name', 'idNo', 'doctorType', 'department', 'licenseNo'],
      ['欧阳明', '110105199001011232', 'spare', 'D1', ''],
      ['新医生', '110105199001011240', 'licensed', '普外科', 'L100'],
      ['无执照', '', 'licensed', '', ''],
      ['无类型', '', '没有的类型', '', ''],
    ];
    const dry = await send(rows, true);
    expect(dry.failed.map((f: Json) => `${f.row}:${f.column}`).sort()).toEqual([
      '4:Practice licence',
      '5:Doctor type (name or code)',
    ]);
    const applied = await send(rows.slice(0, 3), false);
    expect(applied, JSON.stringify(applied)).toMatchObject({ created: 1, updated: 1, failed: [] });
    expect((await call('GET', `${doctors}?keyword=110105199001011240`)).body.data[0]).toMatchObject({
      name: '新医生',
      orgName: '普外科',
      licenseNo: 'L100',
    });
  });

  it('keeps a department with doctors from deletion, moves doctors with a merged unit, and hides them from other tenants', async () => {
    expect((await call('DELETE', `${orgs}/${surgery.id}`)).body.code).toBe('organization.hasDoctors');
    const kept = await create('/api/people/unit', { name: '市医院' });
    const duplicate = await create('/api/people/unit', { name: '市医院（旧）' });
    const external = await create(doctors, {
      name: '外院医生',
      doctorTypeId: licensed.id,
      licenseNo: 'L200',
      unitId: duplicate.id,
    });
    await call('POST', `/api/people/unit/${kept.id}/merge`, { sourceIds: [duplicate.id], version: kept.version });
    expect((await call('GET', `${doctors}/${external.id}`)).body.unitName).toBe('市医院');
    expect((await call('GET', `${doctors}/${external.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', types, undefined, s.other)).body.total).toBe(0);
  });
});
