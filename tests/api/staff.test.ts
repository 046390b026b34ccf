import { beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, type Json, readXlsx, statementsOf, twoTenants, xlsxFile } from './helpers';

const staffPath = '/api/people/staff';
const orgs = '/api/people/organization';

describe.each(engines())('staff on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let hospital: Json;
  let cardiology: Json;
  let surgery: Json;

  const member = (body: Json = {}) => ({
    name: '王五',
    idNo: '11010519491231002X',
    mobile: '13800000011',
    staffNo: 's001',
    orgId: cardiology.id,
    isTeacher: true,
    ...body,
  });

  beforeAll(async () => {
    hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    cardiology = await create(orgs, { code: 'D1', name: '心内科', orgType: 'department', parentId: hospital.id });
    surgery = await create(orgs, { code: 'D2', name: '普外科', orgType: 'department', parentId: hospital.id });
  });

  it('makes a staff member of a person, links one already known, and refuses a person twice or a bad ID number', async () => {
    const made = await create(staffPath, member());
    expect(made).toMatchObject({
      staffNo: 'S001',
      name: '王五',
      orgName: '心内科',
      status: 'active',
      idNoMasked: '1101**********002X',
      adminUserName: null,
    });
    expect(made).not.toHaveProperty('idNo');
    const twice = await call('POST', staffPath, member({ staffNo: 'S002', mobile: null }));
    expect(twice.status).toBe(400);
    expect(twice.body.fields[0].field).toBe('idNo');
    const anotherName = await call('POST', staffPath, member({ name: '赵六', staffNo: 'S003', mobile: null }));
    expect(anotherName.body.fields[0].field).toBe('idNo');
    const badDigit = await call('POST', staffPath, member({ idNo: '110105194912310021', staffNo: 'S004' }));
    expect(badDigit.status).toBe(400);
    expect(badDigit.body.fields[0].field).toBe('idNo');
    const sameNo = await call('POST', staffPath, member({ name: '孙七', idNo: null, mobile: null }));
    expect(sameNo.body.fields[0].field).toBe('staffNo');
    // a trainee's person becomes a staff member too: one person, two records
    const base = await create(orgs, { code: 'B1', name: '住培基地', orgType: 'training_base', parentId: hospital.id });
    const type = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
    const trainee = await create('/api/people/trainee', {
      name: '欧阳明',
      idNo: '110105199001011232',
      traineeTypeId: type.id,
      trainingBaseId: base.id,
      traineeNo: 'R1',
    });
    const linked = await create(staffPath, {
      name: '欧阳明',
      idNo: '110105199001011232',
      staffNo: 'S005',
      orgId: surgery.id,
    });
    expect(linked.personId).toBe(trainee.personId);
  });

  it('finds staff by pinyin initials, number and department, and reveals an ID number on request (audited)', async () => {
    const byInitials = (await call('GET', `${staffPath}?keyword=ww`)).body;
    expect(byInitials.data.map((r: Json) => r.name)).toEqual(['王五']);
    expect((await call('GET', `${staffPath}?keyword=s00`)).body.total).toBe(2);
    expect((await call('GET', `${staffPath}?orgId=${surgery.id}`)).body.data.map((r: Json) => r.name)).toEqual([
      '欧阳明',
    ]);
    // any part of a name, not only its start: a given name, the end of a compound surname and a name (issue 32)
    const named = async (part: string) =>
      ((await call('GET', `${staffPath}?keyword=${encodeURIComponent(part)}`)).body.data as Json[]).map((r) => r.name);
    expect(await named('阳明')).toEqual(['欧阳明']);
    expect(await named('五')).toEqual(['王五']);
    expect(await named('阳五')).toEqual([]);
    expect(
      (await call('GET', `${staffPath}?keyword=${encodeURIComponent('阳明')}`, undefined, s.other)).body.total,
    ).toBe(0);
    // the name's look-up is a sub-select of the search's one query: no list of matching ids goes back and forth, however
    // many people a one-character keyword finds
    const sent = await statementsOf(() => named('五'));
    const lookups = sent.filter((text) => /person_name_grams|person_ids_named/.test(text));
    expect(lookups).not.toHaveLength(0);
    expect(lookups.every((text) => text.includes('starts_with(p.name_pinyin'))).toBe(true);
    const [wang] = byInitials.data;
    const revealed = await call('POST', `${staffPath}/${wang.id}/reveal-id`);
    expect(revealed.body).toEqual({ idNo: '11010519491231002X' });
    const trail = (await call('GET', `/api/system/audit-log?resourceType=staff&resourceId=${wang.id}`)).body.data;
    expect(trail.map((a: Json) => a.action)).toContain('people:staff:pii-view');
  });

  it('transfers a staff member with history, gives them an account that follows, and disables it when they leave', async () => {
    const [wang] = (await call('GET', `${staffPath}?keyword=S001`)).body.data;
    const account = await call('POST', `${staffPath}/${wang.id}/account`, {
      userName: 'wangwu',
      roleIds: [(await call('GET', '/api/system/role?keyword=viewer')).body.data[0]?.id ?? ''],
      version: wang.version,
    });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    expect(account.body.staff.adminUserName).toBe('wangwu');
    const password = account.body.temporaryPassword as string;
    const session = await s.api.tokens('demo', 'wangwu', password);
    const me = await call('GET', '/api/auth/me', undefined, session.access);
    expect(me.body.mustChangePassword).toBe(true);
    const again = await call('POST', `${staffPath}/${wang.id}/account`, {
      userName: 'wangwu2',
      roleIds: [],
      version: account.body.staff.version,
    });
    expect(again.status).toBe(400);

    const stale = await call('POST', `${staffPath}/${wang.id}/transfer`, {
      orgId: surgery.id,
      reason: '轮转',
      effectiveDate: '2026-11-01',
      version: wang.version,
    });
    expect(stale.status).toBe(409);
    const moved = await call('POST', `${staffPath}/${wang.id}/transfer`, {
      orgId: surgery.id,
      reason: '轮转',
      effectiveDate: '2026-11-01',
      version: account.body.staff.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.orgName).toBe('普外科');
    const user = (await call('GET', `/api/system/admin/${account.body.staff.adminUserId}`)).body;
    expect(user.orgId).toBe(surgery.id);

    const back = await call('POST', `${staffPath}/${wang.id}/status`, {
      to: 'active',
      reason: 'x',
      effectiveDate: '2026-11-02',
      version: moved.body.version,
    });
    expect(back.status).toBe(409);
    expect(back.body.code).toBe('staff.transitionNotAllowed');
    const left = await call('POST', `${staffPath}/${wang.id}/status`, {
      to: 'left',
      reason: '调离本院',
      effectiveDate: '2026-11-30',
      version: moved.body.version,
    });
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ status: 'left', leaveDate: '2026-11-30' });
    expect((await call('GET', '/api/auth/me', undefined, session.access)).status).toBe(401);
    expect((await call('GET', `/api/system/admin/${account.body.staff.adminUserId}`)).body.status).toBe('disabled');
    const history = (await call('GET', `${staffPath}/${wang.id}/history`)).body as Json[];
    expect(history.map((h) => h.kind)).toEqual(['status', 'transfer', 'account']);
    expect(history[1]).toMatchObject({ fromOrgName: '心内科', toOrgName: '普外科', reason: '轮转' });
    const afterLeaving = await call('PUT', `${staffPath}/${wang.id}`, { position: 'x', version: left.body.version });
    expect(afterLeaving.body.code).toBe('staff.left');
  });

  it('gives a new account the default role of the settings when no role is chosen, and asks for one when none is set', async () => {
    const made = await create(staffPath, { name: '赵六', staffNo: 'S030', orgId: surgery.id });
    const unset = await call('POST', `${staffPath}/${made.id}/account`, { userName: 'zhaoliu', version: made.version });
    expect(unset.status).toBe(400);
    expect(unset.body.fields[0].field).toBe('roleIds');
    const missing = await call('PUT', '/api/system/settings/security.staffAccount.defaultRole', { value: 'no_such' });
    expect(missing.status, JSON.stringify(missing.body)).toBe(200);
    const unknown = await call('POST', `${staffPath}/${made.id}/account`, {
      userName: 'zhaoliu',
      version: made.version,
    });
    expect(unknown.body.fields[0].field).toBe('roleIds');
    await call('PUT', '/api/system/settings/security.staffAccount.defaultRole', { value: 'viewer' });
    const account = await call('POST', `${staffPath}/${made.id}/account`, {
      userName: 'zhaoliu',
      version: made.version,
    });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    const user = (await call('GET', `/api/system/admin/${account.body.staff.adminUserId}`)).body;
    const viewer = (await call('GET', '/api/system/role?keyword=viewer')).body.data[0];
    expect(user.roleIds).toEqual([viewer.id]);
  });

  it("keeps a department's secretary to their department: lists, profiles, writes and exports", async () => {
    const inside = await create(staffPath, { name: '周八', staffNo: 'S010', orgId: cardiology.id });
    const outside = await create(staffPath, { name: '吴九', staffNo: 'S011', orgId: surgery.id });
    const role = await create('/api/system/role', { code: 'dept_secretary', name: '科室秘书' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const codes = ['people:staff:list', 'people:staff:export', 'people:staff:update', 'people:staff:create'];
    const permissionIds = (
      await s.api.db.selectFrom('permission').select('id').where('code', 'in', codes).execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'cardio_secretary',
      displayName: '心内科秘书',
      password: 'Quiet-Otter-42',
      orgId: cardiology.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'cardio_secretary', 'Quiet-Otter-42')).access;
    const list = (await call('GET', staffPath, undefined, scoped)).body;
    expect(list.data.map((r: Json) => r.name)).toEqual(['周八']);
    expect((await call('GET', `${staffPath}/${outside.id}`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${staffPath}/${outside.id}/history`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${staffPath}/${inside.id}`, undefined, scoped)).status).toBe(200);
    const elsewhere = await call('POST', staffPath, { name: '郑十', staffNo: 'S012', orgId: surgery.id }, scoped);
    expect(elsewhere.body.fields[0].field).toBe('orgId');
    const away = await call('PUT', `${staffPath}/${inside.id}`, { orgId: surgery.id, version: inside.version }, scoped);
    expect(away.body.fields[0].field).toBe('orgId');
    const sheet = await s.api.fetch('GET', `${staffPath}/export`, { token: scoped });
    expect((await readXlsx(await sheet.arrayBuffer())).slice(1).map((r) => r[1])).toEqual(['周八']);
  });

  it('imports staff by ID number: a dry run names the bad rows, an upsert updates who is there', async () => {
    const template = await s.api.fetch('GET', `${staffPath}/import-template`, {
      token: s.demo,
      headers: { 'accept-language': 'en-US' },
    });
    const [header] = await readXlsx(await template.arrayBuffer());
    expect(header).toEqual(expect.arrayContaining(['ID number', 'Department (name or code)', 'Staff number']));
    const send = async (rows: (string | null)[][], dryRun: boolean) => {
      const res = await s.api.fetch('POST', `${staffPath}/import`, {
        token: s.demo,
        form: importForm(await xlsxFile(rows), { dryRun, mode: 'upsert' }),
        headers: { 'accept-language': 'en-US' },
      });
      return (await res.json()) as Json;
    };
    const rows = [
      ['name', 'idNo', 'staffNo', 'department', 'position'],
      ['欧阳明', '110105199001011232', 'S005', 'D1', '主任'],
      ['新人', '110105199001011240', 'S020', '心内科', ''],
      ['坏号', '110105199001011241', 'S021', 'D1', ''],
      ['无科', '', 'S022', '没有的科室', ''],
    ];
    const dry = await send(rows, true);
    expect(dry.failed.map((f: Json) => `${f.row}:${f.column}`).sort()).toEqual([
      '4:ID number',
      '5:Department (name or code)',
    ]);
    const before = (await call('GET', staffPath)).body.total;
    const applied = await send(rows.slice(0, 3), false);
    expect(applied, JSON.stringify(applied)).toMatchObject({ created: 1, updated: 1, failed: [] });
    expect((await call('GET', staffPath)).body.total).toBe(before + 1);
    const [ouyang] = (await call('GET', `${staffPath}?keyword=110105199001011232`)).body.data;
    expect(ouyang).toMatchObject({ orgName: '心内科', position: '主任' });
  });

  it('keeps a department with staff from deletion and hides staff from other tenants', async () => {
    expect((await call('DELETE', `${orgs}/${cardiology.id}`)).body.code).toBe('organization.hasMembers');
    const [one] = (await call('GET', staffPath)).body.data;
    expect((await call('GET', `${staffPath}/${one.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', staffPath, undefined, s.other)).body.total).toBe(0);
  });
});
