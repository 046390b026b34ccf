import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, readXlsx, twoTenants } from './helpers';

const orgs = '/api/people/organization';
const doctors = '/api/people/doctor';
const experts = '/api/people/expert';
const qualifications = '/api/people/qualification';

/** A 1×1 PNG, the scan of a certificate. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.each(engines())('experts and qualifications on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let cardiology: Json;
  let surgery: Json;
  let doctor: Json;
  let outsider: Json;

  /** A scan uploaded for a record about to be saved (unclaimed until it is). */
  const attachment = async (token = s.demo): Promise<string> => {
    const res = await s.api.fetch('POST', '/api/file/file/upload?name=scan.png&purpose=attachment', {
      token,
      body: PNG,
    });
    const body: Json = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.id;
  };

  /** A qualification of `owner` taken to approved. */
  const approved = async (ownerType: string, ownerId: string, certNo: string, extra: Json = {}) => {
    const made = await create(qualifications, {
      ownerType,
      ownerId,
      qualificationType: 'practice_license',
      certNo,
      attachmentFileIds: [await attachment()],
      ...extra,
    });
    const sent = await call('POST', `${qualifications}/${made.id}/submit`, { version: made.version });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const done = await call('POST', `${qualifications}/${made.id}/review`, {
      decision: 'approve',
      version: sent.body.version,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    return done.body as Json;
  };

  beforeAll(async () => {
    const hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    cardiology = await create(orgs, { code: 'D1', name: '心内科', orgType: 'department', parentId: hospital.id });
    surgery = await create(orgs, { code: 'D2', name: '普外科', orgType: 'department', parentId: hospital.id });
    const type = await create('/api/people/doctor-type', { code: 'teaching', name: '带教医师' });
    doctor = await create(doctors, {
      name: '欧阳明',
      idNo: '110105199001011232',
      doctorTypeId: type.id,
      orgId: cardiology.id,
      professionalTitle: 'chief',
    });
    outsider = await create(experts, {
      name: '钱教授',
      idNo: '11010519491231002X',
      expertNo: 'e01',
      specialties: ['surgery'],
      expertLevel: 'provincial',
      roles: ['item_writer', 'examiner'],
      orgId: surgery.id,
      termStart: day(-30),
      termEnd: day(300),
    });
  });

  it('makes an external person an expert, keeping numbers, people and specialties to their rules', async () => {
    expect(outsider).toMatchObject({
      expertNo: 'E01',
      status: 'applied',
      source: 'nominated',
      idNoMasked: '1101**********002X',
      approvedQualifications: 0,
    });
    const none = await call('POST', experts, { name: '孙', expertNo: 'E02', specialties: [] });
    expect(none.status).toBe(400);
    expect(none.body.fields[0].field).toBe('specialties');
    const sameNo = await call('POST', experts, { name: '孙', expertNo: 'e01', specialties: ['surgery'] });
    expect(sameNo.body.fields[0].field).toBe('expertNo');
    const twice = await call('POST', experts, {
      name: '钱教授',
      idNo: '11010519491231002X',
      expertNo: 'E03',
      specialties: ['surgery'],
    });
    expect(twice.body.fields[0].field).toBe('idNo');
    const backwards = await call('POST', experts, {
      name: '孙',
      expertNo: 'E04',
      specialties: ['surgery'],
      termStart: day(10),
      termEnd: day(1),
    });
    expect(backwards.body.fields[0].field).toBe('termEnd');
    const byRole = (await call('GET', `${experts}?role=examiner&specialty=surgery`)).body;
    expect(byRole.data.map((e: Json) => e.expertNo)).toEqual(['E01']);
    expect((await call('GET', `${experts}?role=lecturer`)).body.total).toBe(0);
    expect((await call('GET', `${experts}?keyword=qjs`)).body.total).toBe(1);
  });

  it('promotes a doctor: the same person, their department and title; a second time is refused', async () => {
    const res = await call('POST', `${doctors}/${doctor.id}/promote-expert`, {
      expertNo: 'E10',
      specialties: ['internal_medicine'],
      roles: ['lecturer'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      personId: doctor.personId,
      doctorId: doctor.id,
      name: '欧阳明',
      orgId: cardiology.id,
      professionalTitle: 'chief',
      status: 'applied',
      source: 'nominated',
    });
    const again = await call('POST', `${doctors}/${doctor.id}/promote-expert`, {
      expertNo: 'E11',
      specialties: ['internal_medicine'],
    });
    expect(again.body.fields[0].field).toBe('idNo');
    const missing = await call('POST', `${doctors}/999999/promote-expert`, {
      expertNo: 'E12',
      specialties: ['surgery'],
    });
    expect(missing.body.fields[0].field).toBe('doctorId');
    expect((await call('GET', `${experts}?personId=${doctor.personId}`)).body.data[0].expertNo).toBe('E10');
  });

  it('activates an expert only through review and with an approved qualification', async () => {
    const move = async (row: Json, to: string) =>
      call('POST', `${experts}/${row.id}/status`, { to, reason: '评审', version: row.version });
    const early = await move(outsider, 'active');
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('expert.transitionNotAllowed');
    const reviewing = await move(outsider, 'in_review');
    expect(reviewing.body.status).toBe('in_review');
    const stale = await move(outsider, 'retired');
    expect(stale.status).toBe(409);
    const bare = await move(reviewing.body, 'active');
    expect(bare.body.code).toBe('expert.qualificationRequired');
    await approved('expert', outsider.id, 'EX-001');
    const active = await move(reviewing.body, 'active');
    expect(active.status, JSON.stringify(active.body)).toBe(200);
    expect(active.body).toMatchObject({ status: 'active', approvedQualifications: 1 });
    const trail = (await call('GET', `/api/system/audit-log?resourceType=expert&resourceId=${outsider.id}`)).body;
    expect(trail.data.map((e: Json) => e.action)).toContain('expert:expert:change-status');
  });

  it('reviews a qualification: edits only while a draft or sent back, comments to refuse, every step kept', async () => {
    const made = await create(qualifications, {
      ownerType: 'doctor',
      ownerId: doctor.id,
      qualificationType: 'physician_qualification',
      certNo: 'q-100',
      issuer: '国家卫健委',
      validFrom: day(-100),
      validUntil: day(900),
    });
    expect(made).toMatchObject({
      certNo: 'Q-100',
      reviewStatus: 'draft',
      ownerName: '欧阳明',
      personId: doctor.personId,
      ownerId: doctor.id,
    });
    const same = await call('POST', qualifications, {
      ownerType: 'doctor',
      ownerId: doctor.id,
      qualificationType: 'physician_qualification',
      certNo: 'Q-100',
    });
    expect(same.body.fields[0].field).toBe('certNo');
    const backwards = await call('POST', qualifications, {
      ownerType: 'doctor',
      ownerId: doctor.id,
      qualificationType: 'other',
      certNo: 'Q-101',
      validFrom: day(0),
      validUntil: day(-1),
    });
    expect(backwards.body.fields[0].field).toBe('validUntil');
    const nobody = await call('POST', qualifications, {
      ownerType: 'staff',
      ownerId: doctor.id,
      qualificationType: 'other',
      certNo: 'Q-102',
    });
    expect(nobody.body.fields[0].field).toBe('ownerId');

    const bare = await call('POST', `${qualifications}/${made.id}/submit`, { version: made.version });
    expect(bare.status).toBe(400);
    expect(bare.body.fields[0].field).toBe('attachmentFileIds');
    const scan = await attachment();
    const foreign = await attachment(s.other);
    const theirs = await call('PUT', `${qualifications}/${made.id}`, {
      attachmentFileIds: [scan, foreign],
      version: made.version,
    });
    expect(theirs.body.fields[0].field).toBe('attachmentFileIds.1');
    const attached = await call('PUT', `${qualifications}/${made.id}`, {
      attachmentFileIds: [scan],
      version: made.version,
    });
    expect(attached.body.attachmentFileIds).toEqual([scan]);
    const files = (await call('GET', `${qualifications}/${made.id}/attachments`)).body;
    expect(files).toMatchObject([{ id: scan, name: 'scan.png', mimeType: 'image/png' }]);
    const shown = await s.api.fetch('GET', files[0].previewUrl);
    expect(shown.status).toBe(200);
    expect(Buffer.from(await shown.arrayBuffer()).equals(PNG)).toBe(true);
    const inUse = await call('DELETE', `/api/file/file/${scan}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('file.inUse');
    const claimed = await call('POST', qualifications, {
      ownerType: 'doctor',
      ownerId: doctor.id,
      qualificationType: 'other',
      certNo: 'Q-103',
      attachmentFileIds: [scan],
    });
    expect(claimed.body.fields[0].field).toBe('attachmentFileIds');

    const sent = (await call('POST', `${qualifications}/${made.id}/submit`, { version: attached.body.version })).body;
    expect(sent.reviewStatus).toBe('submitted');
    const locked = await call('PUT', `${qualifications}/${made.id}`, { issuer: 'x', version: sent.version });
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('qualification.notAllowed');
    const silent = await call('POST', `${qualifications}/${made.id}/review`, {
      decision: 'return',
      version: sent.version,
    });
    expect(silent.body.fields[0].field).toBe('comment');
    const returned = (
      await call('POST', `${qualifications}/${made.id}/review`, {
        decision: 'return',
        comment: '请补充发证机构全称',
        version: sent.version,
      })
    ).body;
    expect(returned).toMatchObject({ reviewStatus: 'returned', reviewComment: '请补充发证机构全称' });
    expect(returned.reviewedByName).toBeTruthy();
    const edited = (
      await call('PUT', `${qualifications}/${made.id}`, {
        issuer: '中华人民共和国国家卫生健康委员会',
        version: returned.version,
      })
    ).body;
    expect(edited.reviewStatus).toBe('draft');
    const again = (await call('POST', `${qualifications}/${made.id}/submit`, { version: edited.version })).body;
    const ok = (
      await call('POST', `${qualifications}/${made.id}/review`, { decision: 'approve', version: again.version })
    ).body;
    expect(ok.reviewStatus).toBe('approved');
    const kept = await call('DELETE', `${qualifications}/${made.id}`);
    expect(kept.status).toBe(409);
    const silentRevoke = await call('POST', `${qualifications}/${made.id}/revoke`, { version: ok.version });
    expect(silentRevoke.status).toBe(400);
    const revoked = await call('POST', `${qualifications}/${made.id}/revoke`, {
      comment: '证书被吊销',
      version: ok.version,
    });
    expect(revoked.body.reviewStatus).toBe('revoked');
    const history = (await call('GET', `${qualifications}/${made.id}/reviews`)).body;
    expect(history.map((h: Json) => h.decision)).toEqual(['revoke', 'approve', 'submit', 'return', 'submit']);
    expect(history[3]).toMatchObject({ fromState: 'submitted', toState: 'returned', comment: '请补充发证机构全称' });
    expect((await call('DELETE', `${qualifications}/${made.id}`)).status).toBe(204);
    // its scan is let go: unclaimed, removed with the orphans
    expect((await call('GET', `/api/file/file/${scan}`)).body.bizType).toBeNull();
  });

  it('approves in bulk: all of them, or none when one is not awaiting a decision', async () => {
    const make = async (certNo: string) =>
      create(qualifications, {
        ownerType: 'expert',
        ownerId: outsider.id,
        qualificationType: 'examiner',
        certNo,
        attachmentFileIds: [await attachment()],
      });
    const [a, b, c] = [await make('B-1'), await make('B-2'), await make('B-3')];
    for (const q of [a, b]) await call('POST', `${qualifications}/${q.id}/submit`, { version: q.version });
    const mixed = await call('POST', `${qualifications}/approve`, { ids: [a.id, b.id, c.id], comment: '同意' });
    expect(mixed.status).toBe(409);
    expect((await call('GET', `${qualifications}/${a.id}`)).body.reviewStatus).toBe('submitted');
    const both = await call('POST', `${qualifications}/approve`, { ids: [a.id, b.id], comment: '同意' });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.map((q: Json) => q.reviewStatus)).toEqual(['approved', 'approved']);
    const listed = (await call('GET', `${qualifications}?ownerType=expert&reviewStatus=approved&keyword=b-`)).body;
    expect(listed.total).toBe(2);
  });

  it('lists what expires soon, and the daily job marks what has expired, and ends terms', async () => {
    const soon = await approved('doctor', doctor.id, 'S-1', { validUntil: day(10) });
    const later = await approved('doctor', doctor.id, 'S-2', { validUntil: day(200) });
    const past = await approved('doctor', doctor.id, 'S-3', { validFrom: day(-400), validUntil: day(-1) });
    const expiring = (await call('GET', `${qualifications}?expiring=true`)).body.data.map((q: Json) => q.certNo);
    expect(expiring).toEqual(expect.arrayContaining(['S-1', 'S-3']));
    expect(expiring).not.toContain('S-2');

    const term = await create(experts, {
      name: '李评审',
      expertNo: 'E20',
      specialties: ['surgery'],
      termStart: day(-400),
      termEnd: day(-2),
    });
    await s.api.db.updateTable('expert').set({ status: 'active' }).where('id', '=', term.id).execute();

    const { qualifications: qs, experts: es } = s.api.server.services;
    expect(await qs.expire(new Date())).toBe(1);
    expect(await qs.expire(new Date())).toBe(0);
    expect(await es.expire(new Date())).toBe(1);
    expect((await call('GET', `${qualifications}/${past.id}`)).body.reviewStatus).toBe('expired');
    expect((await call('GET', `${qualifications}/${soon.id}`)).body.reviewStatus).toBe('approved');
    expect((await call('GET', `${qualifications}/${later.id}`)).body.reviewStatus).toBe('approved');
    // the holder of what ends within 30 days is told once, however often the job runs; each approval was told too
    const told = async (code: string, id: string) =>
      ((await call('GET', `/api/message/message?businessItemCode=${code}&pageSize=100`)).body.data as Json[]).filter(
        (m) => m.bizRefId === id,
      );
    expect(await told('qualification.expiring', soon.id)).toHaveLength(1);
    expect(await told('qualification.expiring', later.id)).toHaveLength(0);
    expect((await told('qualification.expiring', soon.id))[0].content).toContain('S-1');
    expect(await told('qualification.approved', later.id)).toHaveLength(1);
    const [step] = (await call('GET', `${qualifications}/${past.id}/reviews`)).body;
    expect(step).toMatchObject({ decision: 'expire', createdByName: null });
    const ended = (await call('GET', `${experts}/${term.id}`)).body;
    expect(ended.status).toBe('expired');
    const renew = await call('POST', `${experts}/${term.id}/status`, {
      to: 'active',
      reason: '续聘',
      version: ended.version,
    });
    expect(renew.body.code).toBe('expert.qualificationRequired');
  });

  it('keeps what points at experts and qualifications whole: merged units, departments and filed records', async () => {
    const kept = await create('/api/people/unit', { name: '甲医院' });
    const duplicate = await create('/api/people/unit', { name: '甲医院（旧）' });
    const external = await create(experts, {
      name: '赵评审',
      expertNo: 'E30',
      specialties: ['surgery'],
      unitId: duplicate.id,
    });
    const merged = await call('POST', `/api/people/unit/${kept.id}/merge`, {
      sourceIds: [duplicate.id],
      version: kept.version,
    });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect((await call('GET', `${experts}/${external.id}`)).body).toMatchObject({
      unitId: kept.id,
      unitName: '甲医院',
    });

    const lab = await create(orgs, {
      code: 'D9',
      name: '检验科',
      orgType: 'department',
      parentId: cardiology.parentId,
    });
    await create(experts, { name: '周', expertNo: 'E31', specialties: ['other'], orgId: lab.id });
    const department = await call('DELETE', `${orgs}/${lab.id}`);
    expect(department.status).toBe(409);
    expect(department.body.code).toBe('organization.hasExperts');

    const filed = await call('DELETE', `${doctors}/${doctor.id}`);
    expect(filed.status).toBe(409);
    expect(filed.body.code).toBe('qualification.filedUnder');
    expect((await call('GET', `${doctors}/${doctor.id}`)).status).toBe(200);
  });

  it("keeps another tenant's experts and qualifications out of sight", async () => {
    expect((await call('GET', `${experts}/${outsider.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', experts, undefined, s.other)).body.total).toBe(0);
    expect((await call('GET', qualifications, undefined, s.other)).body.total).toBe(0);
    const filed = await call(
      'POST',
      qualifications,
      { ownerType: 'expert', ownerId: outsider.id, qualificationType: 'other', certNo: 'X-1' },
      s.other,
    );
    expect(filed.body.fields[0].field).toBe('ownerId');
    const promoted = await call(
      'POST',
      `${doctors}/${doctor.id}/promote-expert`,
      { expertNo: 'E90', specialties: ['surgery'] },
      s.other,
    );
    expect(promoted.body.fields[0].field).toBe('doctorId');
  });

  it("keeps a department's secretary to the experts and qualifications of their department", async () => {
    const role = await create('/api/system/role', { code: 'cardio_office', name: '心内科办公室' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', ['expert:expert:list', 'expert:expert:export', 'expert:qualification:list'])
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'cardio_office',
      displayName: '心内科办公室',
      password: 'Quiet-Otter-42',
      orgId: cardiology.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'cardio_office', 'Quiet-Otter-42')).access;
    const seen = (await call('GET', experts, undefined, scoped)).body.data.map((e: Json) => e.expertNo);
    expect(seen).toEqual(['E10']);
    expect((await call('GET', `${experts}/${outsider.id}`, undefined, scoped)).status).toBe(404);
    const filed = (await call('GET', qualifications, undefined, scoped)).body.data;
    expect(new Set(filed.map((q: Json) => q.ownerType))).toEqual(new Set(['doctor']));
    const theirs = (await call('GET', `${qualifications}?ownerType=expert`)).body.data[0];
    expect((await call('GET', `${qualifications}/${theirs.id}`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${qualifications}/${theirs.id}/reviews`, undefined, scoped)).status).toBe(404);
    const sheet = await s.api.fetch('GET', `${experts}/export`, { token: scoped });
    expect((await readXlsx(await sheet.arrayBuffer())).slice(1).map((r) => r[0])).toEqual(['E10']);
  });
});
