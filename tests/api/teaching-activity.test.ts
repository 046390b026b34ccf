import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engines, type Json, readXlsx, secondTenant, startApi, type TestApi, testClock } from './helpers';

const activities = '/api/teaching/activity';
const orgs = '/api/people/organization';
const trainees = '/api/people/trainee';
const MINUTE = 60_000;
/** A 1×1 PNG: a slide, a photo. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe.each(engines())('teaching activities on $name', (engine) => {
  const clock = testClock(Date.parse('2026-11-20T01:00:00Z'));
  let api: TestApi;
  let demo = '';
  let other = '';
  let cardiology: Json;
  let surgery: Json;
  let base: Json;
  let host: Json;
  let coHost: Json;
  let doctorType: Json;
  let residency: Json;
  const listed: Json[] = [];
  let outsider: Json;

  const call = (method: string, path: string, body?: unknown, token = demo) =>
    api.call(method, path, { token, body, headers: { 'accept-language': 'en-US' } });
  const create = async (path: string, body: Json) => {
    const res = await call('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Json;
  };
  const at = (minutes: number) => new Date(clock.now().getTime() + minutes * MINUTE).toISOString();
  const draft = (extra: Json = {}) =>
    create(activities, {
      title: '心衰病例讨论',
      activityType: 'case_discussion',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(10),
      endAt: at(70),
      location: '示教室 3',
      audienceTraineeTypeIds: [residency.id],
      ...extra,
    });
  const publish = (row: Json) => call('POST', `${activities}/${row.id}/publish`, { version: row.version });
  const codeOf = async (row: Json) => (await call('GET', `${activities}/${row.id}/sign-in-code`)).body.code as string;
  const signIn = (body: Json) => api.call('POST', `${activities}/sign-in`, { body });

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    await api.addTenant(secondTenant);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    other = (await api.tokens('demo2', 'admin', 'admin123')).access;
    const hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    cardiology = await create(orgs, { code: 'D1', name: '心内科', orgType: 'department', parentId: hospital.id });
    surgery = await create(orgs, { code: 'D2', name: '普外科', orgType: 'department', parentId: hospital.id });
    base = await create(orgs, { code: 'B1', name: '住培基地', orgType: 'training_base', parentId: hospital.id });
    doctorType = await create('/api/people/doctor-type', { code: 'teaching', name: '带教医师' });
    host = await create('/api/people/doctor', { name: '王主任', doctorTypeId: doctorType.id, orgId: cardiology.id });
    coHost = await create('/api/people/doctor', { name: '刘医生', doctorTypeId: doctorType.id, orgId: cardiology.id });
    residency = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
    const nurse = await create('/api/people/trainee-type', { code: 'nur', name: '护理', category: 'other' });
    const trainee = async (name: string, no: string, typeId: string) => {
      const made = await create(trainees, { name, traineeTypeId: typeId, trainingBaseId: base.id, traineeNo: no });
      const started = await call('POST', `${trainees}/${made.id}/transition`, {
        to: 'in_training',
        reason: '报到',
        effectiveDate: '2026-09-01',
        version: made.version,
      });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      return started.body as Json;
    };
    listed.push(await trainee('张三', 'R001', residency.id), await trainee('李四', 'R002', residency.id));
    outsider = await trainee('赵六', 'N001', nurse.id);
  });
  // the clock moves past an access token's life
  beforeEach(async () => {
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    other = (await api.tokens('demo2', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('refuses an activity that ends before it starts, or held by a department that does not exist, naming the field', async () => {
    const backwards = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(60),
      endAt: at(30),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.fields[0].field).toBe('endAt');
    const nowhere = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: '999999',
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
    });
    expect(nowhere.body.fields[0].field).toBe('orgId');
    // held by a department, of a type of the dictionary
    const valid = { title: 'x', hostDoctorId: host.id, startAt: at(30), endAt: at(60) };
    const byBase = await call('POST', activities, { ...valid, activityType: 'ward_round', orgId: base.id });
    expect(byBase.status).toBe(400);
    expect(byBase.body.fields[0]).toMatchObject({ field: 'orgId', message: 'must be a department' });
    const unknownType = await call('POST', activities, { ...valid, activityType: 'tea_party', orgId: cardiology.id });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.fields[0].field).toBe('activityType');
    const row = await draft();
    const changed = await call('PUT', `${activities}/${row.id}`, { activityType: 'tea_party', version: row.version });
    expect(changed.body.fields[0].field).toBe('activityType');
  });

  it('publishes to its audience, which becomes its list; refuses one without an audience', async () => {
    const none = await draft({ audienceTraineeTypeIds: [] });
    const refused = await publish(none);
    expect(refused.status).toBe(400);
    expect(refused.body.fields[0].field).toBe('audienceTraineeTypeIds');

    const row = await draft();
    expect(row).toMatchObject({ status: 'draft', orgName: '心内科', hostName: '王主任' });
    expect(row).toMatchObject({ audienceTraineeTypeNames: ['住院医师'], audienceOrgNames: [] });
    const based = await draft({ audienceOrgIds: [base.id] });
    expect(based.audienceOrgNames).toEqual(['住培基地']);
    const published = await publish(row);
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', participantCount: 2, presentCount: 0 });
    const list = (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    expect(list.map((p) => p.traineeNo)).toEqual(['R001', 'R002']);
    expect(list.every((p) => p.attendance === 'registered')).toBe(true);
    // each of them is told, by the business item's in-app template
    const told = (await call('GET', `/api/message/message?businessItemCode=activity.published&pageSize=50`))
      .body as Json;
    const aboutThis = told.data.filter((m: Json) => m.bizRefId === row.id);
    expect(aboutThis).toHaveLength(2);
    expect(aboutThis.every((m: Json) => m.recipientType === 'trainee' && m.status === 'delivered')).toBe(true);
    expect(aboutThis[0].content).toContain('心衰病例讨论');
    expect(aboutThis[0].content).toContain('在 示教室 3 举行');
    // without a place or a link, the message says the place is still to be told
    const nowhere = await draft({ title: '地点未定的讨论', location: undefined });
    expect((await publish(nowhere)).status).toBe(200);
    const toldAgain = (await call('GET', `/api/message/message?businessItemCode=activity.published&pageSize=50`))
      .body as Json;
    const unplaced = toldAgain.data.find((m: Json) => m.bizRefId === nowhere.id);
    expect(unplaced.content).toContain('在 待通知的地点 举行');
    // the audience is fixed once published
    const changed = await call('PUT', `${activities}/${row.id}`, {
      audienceTraineeTypeIds: [],
      version: published.body.version,
    });
    expect(changed.body.fields[0].field).toBe('audienceTraineeTypeIds');
  });

  it('signs a trainee in with the code shown now; a made-up, stale or foreign code is refused', async () => {
    const row = (await publish(await draft())).body;
    const code = await codeOf(row);
    const signed = await signIn({ code, traineeNo: 'r001', name: '张三' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({ attendance: 'present', already: false, traineeName: '张三' });
    const again = await signIn({ code, traineeNo: 'R001', name: '张三' });
    expect(again.body.already).toBe(true);

    // not on the list, or the wrong name
    expect((await signIn({ code, traineeNo: 'N001', name: '赵六' })).body.code).toBe('activity.notParticipant');
    expect((await signIn({ code, traineeNo: 'R002', name: '张三' })).body.code).toBe('activity.notParticipant');
    // a forged signature, another activity's id under this signature
    const [tenant, id, period] = code.split('.');
    const forged = `${tenant}.${id}.${period}.${'A'.repeat(22)}`;
    expect((await signIn({ code: forged, traineeNo: 'R002', name: '李四' })).body.code).toBe('activity.codeExpired');
    // a code two periods old is no longer taken
    clock.advance(61_000);
    const stale = await signIn({ code, traineeNo: 'R002', name: '李四' });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe('activity.codeExpired');
    // past the grace, the sign-in is late
    clock.advance(25 * MINUTE);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    other = (await api.tokens('demo2', 'admin', 'admin123')).access;
    const late = await signIn({ code: await codeOf(row), traineeNo: 'R002', name: '李四' });
    expect(late.body.attendance).toBe('late');
    const after = (await call('GET', `${activities}/${row.id}`)).body;
    expect(after.presentCount).toBe(2);

    // another tenant reads neither the activity nor its code
    expect((await call('GET', `${activities}/${row.id}/sign-in-code`, undefined, other)).status).toBe(404);
    expect((await call('GET', `${activities}/${row.id}/participants`, undefined, other)).status).toBe(404);
  });

  it('takes a rating from who signed in, corrects attendance by hand, completes, and exports the sheet', async () => {
    // begun five minutes ago: a sign-in now is on time, and may rate
    const row = (await publish(await draft({ startAt: at(-5), endAt: at(55) }))).body;
    const signed = (await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' })).body;
    const rated = await api.call('POST', `${activities}/rate`, {
      body: { token: signed.ratingToken, rating: 4, comment: '讲解清楚' },
    });
    expect(rated.body).toEqual({ avgRating: 4, ratingCount: 1 });
    const tampered = await api.call('POST', `${activities}/rate`, {
      body: { token: `${signed.ratingToken.slice(0, -2)}xx`, rating: 5 },
    });
    expect(tampered.status).toBe(400);
    // signed in again, who has rated is not asked to rate again
    const again = (await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' })).body;
    expect(again).toMatchObject({ already: true, rated: true, ratingToken: null });

    // an outsider is not on the list: the correction is refused whole
    const refused = await call('POST', `${activities}/${row.id}/attendance`, {
      items: [
        { traineeId: listed[1].id, attendance: 'excused', note: '病假' },
        { traineeId: outsider.id, attendance: 'present' },
      ],
    });
    expect(refused.body.fields[0].field).toBe('items.1.traineeId');
    expect((await call('GET', `${activities}/${row.id}/participants`)).body[1].attendance).toBe('registered');
    // a walk-in is added, then marked present by hand
    expect((await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [outsider.id] })).status).toBe(
      200,
    );
    const corrected = await call('POST', `${activities}/${row.id}/attendance`, {
      items: [
        { traineeId: listed[1].id, attendance: 'excused', note: '病假' },
        { traineeId: outsider.id, attendance: 'present', note: '现场补签' },
      ],
    });
    expect(corrected.body).toMatchObject({ participantCount: 3, presentCount: 2 });

    clock.advance(20 * MINUTE);
    const done = await call('POST', `${activities}/${row.id}/complete`, { version: corrected.body.version });
    expect(done.body.status).toBe('completed');
    const list = (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    expect(list.map((p) => [p.traineeNo, p.attendance, p.signInMethod])).toEqual([
      ['N001', 'present', 'manual'],
      ['R001', 'present', 'qr'],
      ['R002', 'excused', null],
    ]);

    const sheet = await api.fetch('GET', `${activities}/${row.id}/attendance-sheet`, { token: demo });
    expect(sheet.status).toBe(200);
    const rows = await readXlsx(await sheet.arrayBuffer());
    expect(rows[0]).toContain('学员编号');
    expect(rows.slice(1).map((r) => r[0])).toEqual(['N001', 'R001', 'R002']);

    const month = clock.now().toISOString().slice(0, 7);
    const stats = await call('GET', `${activities}/stats?timeZone=Asia/Shanghai`);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    const line = (stats.body as Json[]).find((s) => s.month === month && s.activityType === 'case_discussion');
    expect(line).toMatchObject({ orgName: '心内科' });
    expect(line.activities).toBeGreaterThanOrEqual(3);
    expect((await call('GET', `${activities}/stats?timeZone=Not/AZone`)).status).toBe(400);
  });

  it("keeps a department's secretary to its own activities: the list, a record and a new one", async () => {
    const ours = await draft({ title: '心内科小讲课' });
    const theirs = await draft({ title: '普外科手术指导', orgId: surgery.id });
    const role = await create('/api/system/role', { code: 'cardio_office', name: '心内科办公室' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', ['teaching:activity:list', 'teaching:activity:create'])
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
    const scoped = (await api.tokens('demo', 'cardio_office', 'Quiet-Otter-42')).access;
    const seen = (await call('GET', `${activities}?pageSize=100`, undefined, scoped)).body.data as Json[];
    expect(seen.map((a) => a.title)).toContain(ours.title);
    expect(seen.every((a) => a.orgId === cardiology.id)).toBe(true);
    expect((await call('GET', `${activities}/${theirs.id}`, undefined, scoped)).status).toBe(404);
    const elsewhere = await call(
      'POST',
      activities,
      {
        title: '越权',
        activityType: 'ward_round',
        orgId: surgery.id,
        hostDoctorId: host.id,
        startAt: at(30),
        endAt: at(60),
      },
      scoped,
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.fields[0].field).toBe('orgId');
  });

  it('cancels with a reason, after which no code is given; a draft or cancelled activity may be deleted', async () => {
    const row = (await publish(await draft())).body;
    // sign-in opens half an hour before the start, as the row says (the profile shows the code from then)
    expect(Date.parse(row.startAt) - Date.parse(row.signInOpensAt)).toBe(30 * 60_000);
    const cancelled = await call('POST', `${activities}/${row.id}/cancel`, {
      reason: '主讲临时手术',
      version: row.version,
    });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelReason: '主讲临时手术' });
    expect((await call('GET', `${activities}/${row.id}/sign-in-code`)).body.code).toBe('activity.notAllowed');
    expect((await call('DELETE', `${activities}/${row.id}`)).status).toBe(204);
  });

  it("names co-hosts: doctors of this tenant, each once and never the host, refused by the field's item", async () => {
    const foreignOrg = (await call('POST', orgs, { code: 'X1', name: '外院科室', orgType: 'hospital' }, other)).body;
    const foreignType = (await call('POST', '/api/people/doctor-type', { code: 'x', name: '外院' }, other)).body;
    const foreign = await call(
      'POST',
      '/api/people/doctor',
      { name: '外院医生', doctorTypeId: foreignType.id, orgId: foreignOrg.id },
      other,
    );
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(201);
    const before = (await call('GET', `${activities}?pageSize=1`)).body.total;
    const refusals: [unknown[], string][] = [
      [[host.id], 'coHostIds.0'],
      [[coHost.id, coHost.id], 'coHostIds.1'],
      [[coHost.id, '999999'], 'coHostIds.1'],
      [[foreign.body.id], 'coHostIds.0'],
      [Array.from({ length: 11 }, (_, i) => String(i + 1)), 'coHostIds'],
    ];
    for (const [coHostIds, field] of refusals) {
      const res = await call('POST', activities, {
        title: '协同主讲',
        activityType: 'ward_round',
        orgId: cardiology.id,
        hostDoctorId: host.id,
        startAt: at(30),
        endAt: at(60),
        coHostIds,
      });
      expect(res.status, JSON.stringify(coHostIds)).toBe(400);
      expect(res.body.fields[0].field, JSON.stringify(res.body)).toBe(field);
    }
    expect((await call('GET', `${activities}?pageSize=1`)).body.total).toBe(before);

    const row = await draft({ title: '协同教学查房', coHostIds: [coHost.id] });
    expect(row).toMatchObject({ coHostIds: [coHost.id], coHostNames: ['刘医生'], hostName: '王主任' });
    const listed = (await call('GET', `${activities}?keyword=协同教学查房`)).body.data as Json[];
    expect(listed.map((a) => a.coHostNames)).toEqual([['刘医生']]);
    // the host cannot become one of its co-hosts by a change of host either; a stale version changes nothing
    const swapped = await call('PUT', `${activities}/${row.id}`, { hostDoctorId: coHost.id, version: row.version });
    expect(swapped.body.fields[0].field).toBe('hostDoctorId');
    const stale = await call('PUT', `${activities}/${row.id}`, { coHostIds: [], version: row.version + 1 });
    expect(stale.status).toBe(409);
    const cleared = await call('PUT', `${activities}/${row.id}`, { coHostIds: [], version: row.version });
    expect(cleared.body).toMatchObject({ coHostIds: [], coHostNames: [] });
    // another tenant sees none of it
    expect((await call('GET', `${activities}/${row.id}`, undefined, other)).status).toBe(404);
  });

  it('counts an activity for its host and each co-host in the statistics by host', async () => {
    const lone = await draft({ title: '单独主讲', hostDoctorId: coHost.id });
    const shared = await draft({ title: '共同主讲', coHostIds: [coHost.id] });
    const before = (await call('GET', `${activities}/host-stats`)).body as Json[];
    const of = (rows: Json[], doctor: Json) =>
      rows.find((r) => r.doctorId === doctor.id) ?? { hosted: 0, coHosted: 0, participants: 0 };
    expect((await publish(lone)).status).toBe(200);
    expect((await publish(shared)).status).toBe(200);
    const after = await call('GET', `${activities}/host-stats?timeZone=Asia/Shanghai`);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    const rows = after.body as Json[];
    expect(of(rows, coHost)).toMatchObject({
      doctorName: '刘医生',
      hosted: of(before, coHost).hosted + 1,
      coHosted: of(before, coHost).coHosted + 1,
      participants: of(before, coHost).participants + 4,
    });
    expect(of(rows, host)).toMatchObject({ hosted: of(before, host).hosted + 1, coHosted: 0 });
    // the busiest first; drafts are not counted; another tenant counts none of these
    expect(rows.map((r) => r.hosted + r.coHosted)).toEqual(
      [...rows].map((r) => r.hosted + r.coHosted).sort((a, b) => b - a),
    );
    const theirs = (await call('GET', `${activities}/host-stats`, undefined, other)).body as Json[];
    expect(theirs.some((r) => [host.id, coHost.id].includes(r.doctorId))).toBe(false);
    expect((await call('GET', `${activities}/host-stats?timeZone=Not/AZone`)).status).toBe(400);
  });

  it('reminds the participants of a published activity once, within each tenant’s window, and again when it moves', async () => {
    const remind = () => api.server.services.activities.remind(clock.now());
    const reminders = async (token = demo) => {
      const res = await call(
        'GET',
        '/api/message/message?businessItemCode=activity.reminder&pageSize=100',
        undefined,
        token,
      );
      return (res.body.data as Json[]).map((m) => m.bizRefId as string);
    };

    const countOf = (ids: string[], row: Json) => ids.filter((id) => id === row.id).length;
    const hours = (h: number) => h * 60;
    await remind(); // whatever earlier tests left starting soon is told now, not below

    const soon = (await publish(await draft({ title: '明日查房', startAt: at(hours(30)), endAt: at(hours(31)) }))).body;
    const far = (await publish(await draft({ startAt: at(hours(40)), endAt: at(hours(41)) }))).body;
    const unpublished = await draft({ startAt: at(hours(30)), endAt: at(hours(31)) });
    const called = (await publish(await draft({ startAt: at(hours(30)), endAt: at(hours(31)) }))).body;
    await call('POST', `${activities}/${called.id}/cancel`, { reason: '停诊', version: called.version });

    // the second tenant reminds two days ahead, of its own activity and its own trainee
    const as = (method: string, path: string, body: Json) => call(method, path, body, other);
    const made = async (path: string, body: Json) => {
      const res = await as('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as Json;
    };
    const theirHospital = await made(orgs, { code: 'TH', name: '第二医院', orgType: 'hospital' });
    const dept = await made(orgs, {
      code: 'TD',
      name: '二院心内科',
      orgType: 'department',
      parentId: theirHospital.id,
    });
    const theirType = await made('/api/people/trainee-type', { code: 'r2', name: '住院医师', category: 'residency' });
    const theirBase = await made(orgs, {
      code: 'TB',
      name: '二院基地',
      orgType: 'training_base',
      parentId: theirHospital.id,
    });
    const theirTrainee = await made(trainees, {
      name: '钱七',
      traineeTypeId: theirType.id,
      trainingBaseId: theirBase.id,
      traineeNo: 'T001',
    });
    await as('POST', `${trainees}/${theirTrainee.id}/transition`, {
      to: 'in_training',
      reason: '报到',
      effectiveDate: '2026-09-01',
      version: theirTrainee.version,
    });
    const dt = await made('/api/people/doctor-type', { code: 't2', name: '带教' });
    const theirHost = await made('/api/people/doctor', { name: '孙主任', doctorTypeId: dt.id, orgId: dept.id });
    const theirs = await made(activities, {
      title: '二院讲座',
      activityType: 'small_lecture',
      orgId: dept.id,
      hostDoctorId: theirHost.id,
      startAt: at(hours(40)),
      endAt: at(hours(41)),
      audienceTraineeTypeIds: [theirType.id],
    });
    const theirsPublished = await as('POST', `${activities}/${theirs.id}/publish`, { version: theirs.version });
    expect(theirsPublished.body.participantCount).toBe(1);
    expect((await as('PUT', '/api/system/settings/teaching.activity.reminderHours', { value: 48 })).status).toBe(200);

    // seven hours on: ours starts within a day, theirs within two
    clock.advance(hours(7) * MINUTE);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    other = (await api.tokens('demo2', 'admin', 'admin123')).access;
    expect(await remind()).toBe(3);
    expect(await remind()).toBe(0);
    const ours = await reminders();
    expect(countOf(ours, soon)).toBe(2);
    for (const row of [far, unpublished, called, theirs]) expect(countOf(ours, row)).toBe(0);
    const told = (await call('GET', '/api/message/message?businessItemCode=activity.reminder&pageSize=100')).body
      .data as Json[];
    const one = told.find((m) => m.bizRefId === soon.id);
    expect(one).toMatchObject({ recipientType: 'trainee', status: 'delivered' });
    expect(one.content).toContain('明日查房');
    expect(one.content).toContain('示教室 3');
    const theirReminders = await reminders(other);
    expect(theirReminders).toEqual([theirs.id]);

    // a new start time is reminded of again
    const reminded = (await call('GET', `${activities}/${soon.id}`)).body;
    expect(reminded.remindedAt).toBe(clock.now().toISOString());
    const moved = await call('PUT', `${activities}/${soon.id}`, {
      startAt: at(hours(25)),
      endAt: at(hours(26)),
      version: reminded.version,
    });
    expect(moved.body.remindedAt).toBeNull();
    expect(await remind()).toBe(0);
    clock.advance(hours(2) * MINUTE);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    expect(await remind()).toBe(2);
    expect(countOf(await reminders(), soon)).toBe(4);
  });

  it('keeps a note a correction does not give, clears it with null, and keeps a code sign-in that stays attended', async () => {
    const row = (await publish(await draft())).body;
    expect((await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' })).status).toBe(200);
    const correct = async (items: Json[]) => {
      const res = await call('POST', `${activities}/${row.id}/attendance`, { items });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    };
    await correct([{ traineeId: listed[1].id, attendance: 'excused', note: '病假' }]);
    // one row changed without a note keeps the note written before
    let list = await correct([{ traineeId: listed[1].id, attendance: 'absent' }]);
    expect(list[1]).toMatchObject({ attendance: 'absent', note: '病假' });
    // a code sign-in made late keeps its time and its way
    const before = list[0].signedInAt;
    list = await correct([{ traineeId: listed[0].id, attendance: 'late' }]);
    expect(list[0]).toMatchObject({ attendance: 'late', signInMethod: 'qr', signedInAt: before, note: null });
    // null clears the note
    list = await correct([{ traineeId: listed[1].id, attendance: 'present', note: null }]);
    expect(list[1]).toMatchObject({ attendance: 'present', signInMethod: 'manual', note: null });
  });

  it('keeps the list within the capacity: at publish, for a walk-in, and when the capacity is changed', async () => {
    const small = await draft({ capacity: 1 });
    const over = await publish(small);
    expect(over.status).toBe(400);
    expect(over.body.fields[0].field).toBe('capacity');
    expect((await call('GET', `${activities}/${small.id}`)).body.status).toBe('draft');

    const row = (await publish(await draft({ capacity: 2 }))).body;
    expect(row.participantCount).toBe(2);
    const walkIn = await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [outsider.id] });
    expect(walkIn.status).toBe(400);
    expect(walkIn.body.fields[0].field).toBe('traineeIds');
    const list = (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    expect(list.map((p) => p.traineeNo)).toEqual(['R001', 'R002']);
    // one already listed is no walk-in: it fits
    expect((await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [listed[0].id] })).status).toBe(
      200,
    );
    const current = (await call('GET', `${activities}/${row.id}`)).body;
    const below = await call('PUT', `${activities}/${row.id}`, { capacity: 1, version: current.version });
    expect(below.status).toBe(400);
    expect(below.body.fields[0].field).toBe('capacity');
    const raised = await call('PUT', `${activities}/${row.id}`, { capacity: 3, version: current.version });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    expect((await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [outsider.id] })).status).toBe(
      200,
    );
  });

  it('tells the participants when a published activity is cancelled or moved, and nobody for a draft', async () => {
    const told = async (code: string, row: Json) =>
      ((await call('GET', `/api/message/message?businessItemCode=${code}&pageSize=100`)).body.data as Json[]).filter(
        (m) => m.bizRefId === row.id,
      );
    const row = (await publish(await draft({ title: '改期的讲座' }))).body;
    await call('POST', `${activities}/${row.id}/attendance`, {
      items: [{ traineeId: listed[1].id, attendance: 'excused' }],
    });
    const current = (await call('GET', `${activities}/${row.id}`)).body;
    // a change of place only is not a change of time
    const placed = await call('PUT', `${activities}/${row.id}`, { location: '示教室 5', version: current.version });
    expect(placed.status).toBe(200);
    expect(await told('activity.rescheduled', row)).toHaveLength(0);
    const moved = await call('PUT', `${activities}/${row.id}`, {
      startAt: at(120),
      endAt: at(180),
      version: placed.body.version,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const movedMessages = await told('activity.rescheduled', row);
    expect(movedMessages).toHaveLength(1);
    expect(movedMessages[0].content).toContain('改期的讲座');
    expect(movedMessages[0].content).toContain('示教室 5');

    const cancelled = await call('POST', `${activities}/${row.id}/cancel`, {
      reason: '主讲临时手术',
      version: moved.body.version,
    });
    expect(cancelled.status).toBe(200);
    const cancelMessages = await told('activity.cancelled', row);
    expect(cancelMessages).toHaveLength(1);
    expect(cancelMessages[0]).toMatchObject({ recipientType: 'trainee', status: 'delivered' });
    expect(cancelMessages[0].content).toContain('主讲临时手术');

    const unpublished = await draft();
    await call('POST', `${activities}/${unpublished.id}/cancel`, { reason: '取消', version: unpublished.version });
    expect(await told('activity.cancelled', unpublished)).toHaveLength(0);
  });

  it('lets who came rate after the start by the rating code: by code or by hand, once, within the window', async () => {
    const row = (await publish(await draft({ title: '课后评价' }))).body;
    const ratingCode = () => call('GET', `${activities}/${row.id}/rating-code`);
    const access = (body: Json) => api.call('POST', `${activities}/rating-token`, { body });
    const rate = (body: Json) => api.call('POST', `${activities}/rate`, { body });
    // before the start: no rating code, and a sign-in gives no token
    expect((await ratingCode()).body.code).toBe('activity.ratingClosed');
    const early = await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' });
    expect(early.body).toMatchObject({ attendance: 'present', evaluationEnabled: true, ratingToken: null });
    // R002 is set present by hand, a walk-in absent
    await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [outsider.id] });
    const corrected = await call('POST', `${activities}/${row.id}/attendance`, {
      items: [
        { traineeId: listed[1].id, attendance: 'present' },
        { traineeId: outsider.id, attendance: 'absent' },
      ],
    });
    expect(corrected.status).toBe(200);

    clock.advance(90 * MINUTE);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
    other = (await api.tokens('demo2', 'admin', 'admin123')).access;
    const shown = await ratingCode();
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(Date.parse(shown.body.closesAt) - Date.parse(row.endAt)).toBe(14 * 24 * 60 * MINUTE);
    const code = shown.body.code as string;
    // another tenant gets no code; a made-up code is refused
    expect((await call('GET', `${activities}/${row.id}/rating-code`, undefined, other)).status).toBe(404);
    const [tenant, id] = code.split('.');
    expect((await access({ code: `${tenant}.${id}.${'A'.repeat(22)}`, traineeNo: 'R002', name: '李四' })).status).toBe(
      400,
    );

    const absent = await access({ code, traineeNo: 'N001', name: '赵六' });
    expect(absent.status).toBe(403);
    expect(absent.body.code).toBe('activity.notRatable');
    expect((await access({ code, traineeNo: 'R002', name: '张三' })).body.code).toBe('activity.notParticipant');
    const byHand = await access({ code, traineeNo: 'r002', name: '李四' });
    expect(byHand.status, JSON.stringify(byHand.body)).toBe(200);
    expect(byHand.body).toMatchObject({ activityTitle: '课后评价', traineeName: '李四' });
    const rated = await rate({ token: byHand.body.ratingToken, rating: 5, comment: '很有收获' });
    expect(rated.body).toEqual({ avgRating: 5, ratingCount: 1 });
    // once
    const twice = await rate({ token: byHand.body.ratingToken, rating: 1 });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('activity.alreadyRated');
    expect((await access({ code, traineeNo: 'R002', name: '李四' })).body.code).toBe('activity.alreadyRated');

    // past the window: neither a token given before nor the code is taken
    const byCode = await access({ code, traineeNo: 'R001', name: '张三' });
    expect(byCode.status).toBe(200);
    clock.advance(15 * 24 * 60 * MINUTE);
    expect((await rate({ token: byCode.body.ratingToken, rating: 4 })).status).toBe(400);
    const closed = await access({ code, traineeNo: 'R001', name: '张三' });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('activity.ratingClosed');
    const participants = (
      await api.call('GET', `${activities}/${row.id}/participants`, {
        token: (await api.tokens('demo', 'admin', 'admin123')).access,
      })
    ).body as Json[];
    expect(participants.map((p) => p.rating)).toEqual([null, null, 5]);
  });

  const advance = () => api.server.services.activities.advance(clock.now());
  const later = async (minutes: number) => {
    clock.advance(minutes * MINUTE);
    demo = (await api.tokens('demo', 'admin', 'admin123')).access;
  };
  const listedAs = async (status: string, id: string) =>
    ((await call('GET', `${activities}?status=${status}&pageSize=100`)).body.data as Json[]).some((a) => a.id === id);

  it('is under way from its start and completed past its end by the clock, who never signed in absent', async () => {
    await advance(); // what earlier tests left is moved on now, not below
    const row = (await publish(await draft({ title: '按时推进', startAt: at(10), endAt: at(70) }))).body;
    expect((await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' })).status).toBe(200);
    expect(await advance()).toBe(0);
    expect((await call('GET', `${activities}/${row.id}`)).body.status).toBe('published');
    const hostedToday = async () => {
      const today = clock.now().toISOString().slice(0, 10);
      const stats = (await call('GET', `${activities}/host-stats?from=${today}&to=${today}`)).body as Json[];
      return stats.find((h) => h.doctorId === host.id)?.hosted;
    };
    const hostedBefore = await hostedToday();
    expect(hostedBefore).toBeGreaterThan(0);

    await later(15);
    expect(await advance()).toBe(1);
    const ongoing = (await call('GET', `${activities}/${row.id}`)).body;
    expect(ongoing.status).toBe('ongoing');
    expect(await listedAs('ongoing', row.id)).toBe(true);
    // counted in the statistics while under way as while published
    expect(await hostedToday()).toBe(hostedBefore);
    expect(await listedAs('published', row.id)).toBe(false);
    // an edit of the version read before the clock moved it is stale
    expect((await call('PUT', `${activities}/${row.id}`, { location: '示教室 1', version: row.version })).status).toBe(
      409,
    );
    // under way: its code, walk-ins and corrections are taken as before
    expect((await call('GET', `${activities}/${row.id}/sign-in-code`)).status).toBe(200);
    expect((await call('POST', `${activities}/${row.id}/participants`, { traineeIds: [outsider.id] })).status).toBe(
      200,
    );
    expect(await advance()).toBe(0);

    await later(60);
    expect(await advance()).toBe(1);
    const done = (await call('GET', `${activities}/${row.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', participantCount: 3, presentCount: 1 });
    expect(await listedAs('completed', row.id)).toBe(true);
    const list = (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    expect(list.map((p) => [p.traineeNo, p.attendance])).toEqual([
      ['N001', 'absent'],
      ['R001', 'present'],
      ['R002', 'absent'],
    ]);
    // each move of the clock is in the activity's audit trail, by no one, named by the activity's title alone (the
    // console labels the action and the statuses)
    const trail = await call('GET', `/api/system/audit-log?resourceType=teaching_activity&resourceId=${row.id}`);
    expect(trail.status).toBe(200);
    const byClock = (trail.body.data as Json[]).filter((l) => l.actorId === null);
    expect(byClock.map((l) => [l.action, l.actorName, l.before, l.after, l.summary])).toEqual([
      ['teaching:activity:complete', null, { status: 'ongoing' }, { status: 'completed' }, '按时推进'],
      ['teaching:activity:start', null, { status: 'published' }, { status: 'ongoing' }, '按时推进'],
    ]);

    // one under way moved to a later start is published again
    const moving = (await publish(await draft({ title: '改期', startAt: at(-5), endAt: at(30) }))).body;
    await advance();
    const started = (await call('GET', `${activities}/${moving.id}`)).body;
    expect(started.status).toBe('ongoing');
    const moved = await call('PUT', `${activities}/${moving.id}`, {
      startAt: at(60),
      endAt: at(120),
      version: started.version,
    });
    expect(moved.body.status).toBe('published');
  });

  it('takes sign-in within the window it sets, shown on the row; refuses one that closes before it opens', async () => {
    const backwards = await call('POST', activities, {
      title: '窗口',
      activityType: 'case_discussion',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(60),
      endAt: at(120),
      signInOpenAt: at(45),
      signInCloseAt: at(40),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.fields[0].field).toBe('signInCloseAt');
    // closing before the default opening (30 minutes before the start) is refused too
    const early = await call('POST', activities, {
      title: '窗口',
      activityType: 'case_discussion',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(60),
      endAt: at(120),
      signInCloseAt: at(20),
    });
    expect(early.body.fields[0].field).toBe('signInCloseAt');

    // by default, an hour before the start is too early
    const plain = (await publish(await draft({ title: '默认窗口', startAt: at(60), endAt: at(120) }))).body;
    expect(plain).toMatchObject({ signInOpenAt: null, signInCloseAt: null, signInClosesAt: plain.endAt });
    expect((await call('GET', `${activities}/${plain.id}/sign-in-code`)).body.code).toBe('activity.signInClosed');
    const made = await draft({
      title: '自定窗口',
      startAt: at(60),
      endAt: at(120),
      signInOpenAt: at(-5),
      signInCloseAt: at(130),
    });
    expect(made).toMatchObject({ signInOpenAt: at(-5), signInOpensAt: at(-5), signInClosesAt: at(130) });
    const row = (await publish(made)).body;
    const now = await signIn({ code: await codeOf(row), traineeNo: 'R001', name: '张三' });
    expect(now.body.attendance).toBe('present');
    // past the end, within its window: late, and it is not completed before its window closes
    await later(125);
    expect((await call('GET', `${activities}/${plain.id}/sign-in-code`)).body.code).toBe('activity.signInClosed');
    const late = await signIn({ code: await codeOf(row), traineeNo: 'R002', name: '李四' });
    expect(late.body.attendance).toBe('late');
    await advance();
    expect((await call('GET', `${activities}/${row.id}`)).body.status).toBe('ongoing');
    expect((await call('GET', `${activities}/${plain.id}`)).body.status).toBe('completed');
    await later(10);
    await advance();
    expect((await call('GET', `${activities}/${row.id}`)).body.status).toBe('completed');
    expect((await call('GET', `${activities}/${row.id}/sign-in-code`)).body.code).toBe('activity.notAllowed');
  });

  it("warns of its host's other activities at an overlapping time, and saves it all the same", async () => {
    const day = 10 * 24 * 60;
    const first = await draft({ title: '查房 A', startAt: at(day), endAt: at(day + 60) });
    expect(first.hostOverlaps).toEqual([]);
    const second = await draft({ title: '查房 B', startAt: at(day + 30), endAt: at(day + 90) });
    expect(second.hostOverlaps).toEqual([
      { id: first.id, title: '查房 A', startAt: first.startAt, endAt: first.endAt },
    ]);
    // where the host co-hosts counts; one that only touches it does not
    const coHosted = await draft({
      title: '查房 C',
      hostDoctorId: coHost.id,
      coHostIds: [host.id],
      startAt: at(day + 45),
      endAt: at(day + 50),
    });
    const touching = await draft({ title: '查房 D', startAt: at(day + 90), endAt: at(day + 100) });
    expect(touching.hostOverlaps.map((o: Json) => o.title)).toEqual([]);
    const read = (await call('GET', `${activities}/${first.id}`)).body;
    expect(read.hostOverlaps.map((o: Json) => o.title)).toEqual(['查房 B', '查房 C']);
    // a cancelled one is no longer in the way
    await call('POST', `${activities}/${second.id}/cancel`, { reason: '取消', version: second.version });
    expect((await call('GET', `${activities}/${first.id}`)).body.hostOverlaps.map((o: Json) => o.id)).toEqual([
      coHosted.id,
    ]);
  });

  it('holds its slides and evidence photos as files, downloadable, after it is completed too', async () => {
    const upload = async (name: string) => {
      const res = await api.fetch('POST', `/api/file/file/upload?name=${name}&purpose=attachment`, {
        token: demo,
        body: PNG,
      });
      const body: Json = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body.id as string;
    };
    const slides = await upload('slides.png');
    const photo = await upload('photo.png');
    const row = (await publish(await draft({ title: '带文件', startAt: at(-30), endAt: at(5) }))).body;
    await later(10);
    await advance();
    const completed = (await call('GET', `${activities}/${row.id}`)).body;
    expect(completed.status).toBe('completed');
    const set = await call('POST', `${activities}/${row.id}/files`, {
      materialFileIds: [slides],
      photoFileIds: [photo],
      version: completed.version,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ materialFileIds: [slides], photoFileIds: [photo] });
    // the same version again is stale
    expect(
      (await call('POST', `${activities}/${row.id}/files`, { photoFileIds: [], version: completed.version })).status,
    ).toBe(409);
    const files = (await call('GET', `${activities}/${row.id}/files`)).body;
    expect(files).toMatchObject({
      materials: [{ id: slides, name: 'slides.png', mimeType: 'image/png' }],
      photos: [{ id: photo, name: 'photo.png' }],
    });
    const downloaded = await api.fetch('GET', files.photos[0].downloadUrl);
    expect(downloaded.status).toBe(200);
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(PNG)).toBe(true);
    // a file it holds is not another's, nor deleted from under it
    const another = await draft({ title: '另一活动' });
    const taken = await call('POST', `${activities}/${another.id}/files`, {
      photoFileIds: [photo],
      version: another.version,
    });
    expect(taken.status).toBe(400);
    expect(taken.body.fields[0].field).toBe('photoFileIds');
    expect((await call('DELETE', `/api/file/file/${photo}`)).status).toBe(409);
    // a list left out is kept; the photo let go is free again
    const dropped = await call('POST', `${activities}/${row.id}/files`, {
      photoFileIds: [],
      version: set.body.version,
    });
    expect(dropped.body).toMatchObject({ materialFileIds: [slides], photoFileIds: [] });
    expect((await call('DELETE', `/api/file/file/${photo}`)).status).toBe(204);
    // another tenant reads none of it
    expect((await call('GET', `${activities}/${row.id}/files`, undefined, other)).status).toBe(404);
    // a cancelled activity's files stay as they are
    const cancelled = (
      await call('POST', `${activities}/${another.id}/cancel`, { reason: '取消', version: another.version })
    ).body;
    const refused = await call('POST', `${activities}/${another.id}/files`, {
      materialFileIds: [],
      version: cancelled.version,
    });
    expect(refused.status).toBe(409);
    // deleted, it lets its files go
    const again = (
      await call('POST', `${activities}/${row.id}/files`, {
        photoFileIds: [slides],
        materialFileIds: [],
        version: dropped.body.version,
      })
    ).body;
    expect(again.photoFileIds).toEqual([slides]);
    const gone = await draft({ title: '将删除' });
    const held = await call('POST', `${activities}/${gone.id}/files`, {
      materialFileIds: [await upload('x.png')],
      version: gone.version,
    });
    const heldId = held.body.materialFileIds[0];
    expect((await call('DELETE', `/api/file/file/${heldId}`)).status).toBe(409);
    expect((await call('DELETE', `${activities}/${gone.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/file/file/${heldId}`)).status).toBe(204);
  });

  it('belongs to a specialty base: shown, filtered on, refused when not one, and seen by that base’s secretary', async () => {
    const hospital = (await call('GET', `${orgs}/${cardiology.parentId}`)).body as Json;
    const internal = await create(orgs, {
      code: 'SB1',
      name: '内科专业基地',
      orgType: 'specialty_base',
      parentId: base.id,
      specialtyCode: '0100',
      baseLevel: 'national',
    });
    const row = await draft({ title: '专业基地小讲课', orgId: surgery.id, specialtyBaseId: internal.id });
    expect(row).toMatchObject({ specialtyBaseId: internal.id, specialtyBaseName: '内科专业基地' });
    await draft({ title: '不属基地' });
    const filtered = (await call('GET', `${activities}?specialtyBaseId=${internal.id}&pageSize=100`)).body
      .data as Json[];
    expect(filtered.map((a) => a.title)).toEqual(['专业基地小讲课']);
    const notBase = await draft({ specialtyBaseId: hospital.id }).catch(() => undefined);
    expect(notBase).toBeUndefined();
    const refused = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      specialtyBaseId: cardiology.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fields[0]).toMatchObject({ field: 'specialtyBaseId', message: 'must be a specialty base' });
    const unknown = await call('PUT', `${activities}/${row.id}`, { specialtyBaseId: '999999', version: row.version });
    expect(unknown.body.fields[0].field).toBe('specialtyBaseId');
    // cleared with null
    const cleared = await call('PUT', `${activities}/${row.id}`, { specialtyBaseId: null, version: row.version });
    expect(cleared.body).toMatchObject({ specialtyBaseId: null, specialtyBaseName: null });
    const again = await call('PUT', `${activities}/${row.id}`, {
      specialtyBaseId: internal.id,
      version: cleared.body.version,
    });
    expect(again.status).toBe(200);
    // the base's secretary sees the activities of its base, whichever department holds them
    const role = await create('/api/system/role', { code: 'base_office', name: '基地办公室' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await api.db.selectFrom('permission').select('id').where('code', 'in', ['teaching:activity:list']).execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'base_office',
      displayName: '基地办公室',
      password: 'Quiet-Otter-42',
      orgId: internal.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await api.tokens('demo', 'base_office', 'Quiet-Otter-42')).access;
    const seen = (await call('GET', `${activities}?pageSize=100`, undefined, scoped)).body.data as Json[];
    expect(seen.map((a) => a.title)).toEqual(['专业基地小讲课']);
  });

  it('names trainees one by one in its audience, within reach and each once, and lists them when published', async () => {
    const twice = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      audienceTraineeIds: [outsider.id, outsider.id],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.fields[0]).toMatchObject({
      field: 'audienceTraineeIds.1',
      message: 'names the same trainee twice',
    });
    const unknown = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      audienceTraineeIds: [outsider.id, '999999'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields[0].field).toBe('audienceTraineeIds.1');
    // named alone: only them, not every trainee
    const alone = await draft({ audienceTraineeTypeIds: [], audienceTraineeIds: [outsider.id] });
    expect(alone).toMatchObject({ audienceTraineeIds: [outsider.id], audienceTraineeNames: ['赵六'] });
    const published = await publish(alone);
    expect(published.status).toBe(200);
    expect(published.body.participantCount).toBe(1);
    const list = (await call('GET', `${activities}/${alone.id}/participants`)).body as Json[];
    expect(list.map((p) => p.traineeNo)).toEqual(['N001']);
    const told = (await call('GET', `/api/message/message?businessItemCode=activity.published&pageSize=100`)).body
      .data as Json[];
    expect(told.filter((m) => m.bizRefId === alone.id)).toHaveLength(1);
    // fixed once published
    const changed = await call('PUT', `${activities}/${alone.id}`, {
      audienceTraineeIds: [],
      version: published.body.version,
    });
    expect(changed.body.fields[0].field).toBe('audienceTraineeIds');
    // with the criteria: those they take and those named, each once
    const both = await draft({ audienceTraineeIds: [outsider.id, listed[0].id] });
    const all = (await publish(both)).body;
    expect(all.participantCount).toBe(3);
  });

  it('takes a sign-in by code and position within the radius of the place, recording the distance', async () => {
    const noPlace = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      signInMode: 'qr_geo',
    });
    expect(noPlace.status).toBe(400);
    expect(noPlace.body.fields[0].field).toBe('geoLatitude');
    const offTheMap = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      signInMode: 'qr_geo',
      geoLatitude: 91,
      geoLongitude: 121.47,
    });
    expect(offTheMap.status).toBe(400);
    expect(offTheMap.body.fields[0].field).toBe('geoLatitude');
    const tiny = await call('POST', activities, {
      title: 'x',
      activityType: 'ward_round',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: at(30),
      endAt: at(60),
      signInMode: 'qr_geo',
      geoLatitude: 31.2304,
      geoLongitude: 121.4737,
      geoRadiusM: 10,
    });
    expect(tiny.status).toBe(400);
    expect(tiny.body.fields[0].field).toBe('geoRadiusM');

    const made = await draft({
      startAt: at(-5),
      endAt: at(55),
      signInMode: 'qr_geo',
      geoLatitude: 31.2304,
      geoLongitude: 121.4737,
    });
    expect(made).toMatchObject({ signInMode: 'qr_geo', geoLatitude: 31.2304, geoLongitude: 121.4737, geoRadiusM: 300 });
    const row = (await publish(made)).body;
    const code = await codeOf(row);
    const nowhere = await api.call('POST', `${activities}/sign-in`, {
      body: { code, traineeNo: 'R001', name: '张三' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.fields[0]).toMatchObject({ field: 'latitude' });
    expect(nowhere.body.fields[0].message).toContain('position');
    // about 1.1 km north
    const far = await api.call('POST', `${activities}/sign-in`, {
      body: { code, traineeNo: 'R001', name: '张三', latitude: 31.2404, longitude: 121.4737 },
      headers: { 'accept-language': 'en-US' },
    });
    expect(far.status).toBe(400);
    expect(far.body.fields[0].field).toBe('latitude');
    expect(far.body.fields[0].message).toContain('1112 m');
    // about 111 m north: taken, the distance kept
    const near = await signIn({ code, traineeNo: 'R001', name: '张三', latitude: 31.2314, longitude: 121.4737 });
    expect(near.status, JSON.stringify(near.body)).toBe(200);
    expect(near.body.attendance).toBe('present');
    // a correction by hand still works for one who cannot share a position
    const corrected = await call('POST', `${activities}/${row.id}/attendance`, {
      items: [{ traineeId: listed[1].id, attendance: 'present', note: '手机无定位' }],
    });
    expect(corrected.status).toBe(200);
    const list = (await call('GET', `${activities}/${row.id}/participants`)).body as Json[];
    expect(list.map((p) => [p.traineeNo, p.attendance, p.signInMethod, p.signInDistanceM])).toEqual([
      ['R001', 'present', 'qr_geo', 111],
      ['R002', 'present', 'manual', null],
    ]);
    const sheet = await api.fetch('GET', `${activities}/${row.id}/attendance-sheet`, { token: demo });
    const rows = await readXlsx(await sheet.arrayBuffer());
    expect(rows[0]).toContain('签到距离（米）');
    expect(rows[1]?.[rows[0]?.indexOf('签到距离（米）') as number]).toBe('111');
    // the way each signed in: by the code with the position checked, or set by hand
    expect(rows.slice(1).map((r) => r[rows[0]?.indexOf('签到方式') as number])).toEqual(['扫码定位', '补签']);
  });
});

describe.each(engines())('teaching activity statistics by the configured clock on $name', (engine) => {
  // 20:00 UTC is already the next day in Shanghai; years from the machine's own date
  const clock = testClock(Date.parse('2020-03-10T20:00:00Z'));
  let api: TestApi;
  let admin = '';
  let cardiology: Json;
  let host: Json;
  let residency: Json;

  const call = (method: string, path: string, body?: unknown, token = admin) =>
    api.call(method, path, { token, body, headers: { 'accept-language': 'en-US' } });
  const create = async (path: string, body: Json) => {
    const res = await call('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Json;
  };
  const published = async (title: string, extra: Json = {}) => {
    const row = await create(activities, {
      title,
      activityType: 'case_discussion',
      orgId: cardiology.id,
      hostDoctorId: host.id,
      startAt: new Date(clock.now().getTime() + 10 * MINUTE).toISOString(),
      endAt: new Date(clock.now().getTime() + 70 * MINUTE).toISOString(),
      location: '示教室 3',
      audienceTraineeTypeIds: [residency.id],
      ...extra,
    });
    const res = await call('POST', `${activities}/${row.id}/publish`, { version: row.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };
  const counted = async (query: string, token = admin) => {
    const res = await call('GET', `${activities}/stats${query}`, undefined, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body as Json[]).map((s) => [s.month, s.orgName, s.activities]);
  };

  beforeAll(async () => {
    api = await startApi(engine, { config: { now: clock.now } });
    admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    const hospital = await create(orgs, { code: 'H1', name: '第一医院', orgType: 'hospital' });
    cardiology = await create(orgs, { code: 'D1', name: '心内科', orgType: 'department', parentId: hospital.id });
    const doctorType = await create('/api/people/doctor-type', { code: 'teaching', name: '带教医师' });
    host = await create('/api/people/doctor', { name: '王主任', doctorTypeId: doctorType.id, orgId: cardiology.id });
    residency = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
  });
  afterAll(() => api?.close());

  it("counts up to today by the server's clock, today in the time zone asked", async () => {
    await published('心衰病例讨论');
    // without dates: the year up to today by the configured clock, not the machine's
    expect(await counted('')).toEqual([['2020-03', '心内科', 1]]);
    // in Shanghai it starts on the 11th, today there
    expect(await counted('?timeZone=Asia/Shanghai')).toEqual([['2020-03', '心内科', 1]]);
    // a day asked is still taken as asked
    expect(await counted('?timeZone=Asia/Shanghai&to=2020-03-10')).toEqual([]);
  });

  it('counts for a reader the activities of their scope: by department or by specialty base, not the others', async () => {
    const hospital = (await call('GET', `${orgs}/${cardiology.id}`)).body.parentId as string;
    const surgery = await create(orgs, { code: 'D2', name: '普外科', orgType: 'department', parentId: hospital });
    const training = await create(orgs, { code: 'T1', name: '住培基地', orgType: 'training_base', parentId: hospital });
    const specialty = (code: string, name: string, specialtyCode: string) =>
      create(orgs, {
        code,
        name,
        orgType: 'specialty_base',
        parentId: training.id,
        specialtyCode,
        baseLevel: 'national',
      });
    const internal = await specialty('S1', '内科基地', '0100');
    const surgical = await specialty('S2', '外科基地', '0200');
    await published('心内科小讲课');
    await published('内科基地轮转讲座', { orgId: surgery.id, specialtyBaseId: internal.id });
    await published('外科基地技能培训', { orgId: surgery.id, specialtyBaseId: surgical.id });
    await published('普外科查房', { orgId: surgery.id });

    const role = await create('/api/system/role', { code: 'internal_office', name: '内科办公室' });
    const scope = await call('PUT', `/api/system/role/${role.id}/data-scope`, {
      dataScope: 'org_custom',
      dataScopeOrgIds: [cardiology.id, internal.id],
    });
    expect(scope.status, JSON.stringify(scope.body)).toBe(200);
    const list = await api.db
      .selectFrom('permission')
      .select('id')
      .where('code', '=', 'teaching:activity:list')
      .execute();
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds: list.map((p) => String(p.id)) });
    await create('/api/system/admin', {
      userName: 'internal_office',
      displayName: '内科办公室',
      password: 'Quiet-Otter-42',
      orgId: cardiology.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const reader = (await api.tokens('demo', 'internal_office', 'Quiet-Otter-42')).access;

    const byOrg = (lines: unknown[][]) => Object.fromEntries(lines.map(([, org, n]) => [org, n]));
    const all = byOrg(await counted(''));
    expect(all['普外科']).toBe(3);
    // the department's own, and the surgery department's one of the internal medicine base: not the other two
    expect(byOrg(await counted('', reader))).toEqual({ 心内科: all['心内科'], 普外科: 1 });
    const hosted = await call('GET', `${activities}/host-stats`, undefined, reader);
    expect(hosted.status).toBe(200);
    expect((hosted.body as Json[]).map((h) => [h.doctorName, h.hosted])).toEqual([['王主任', all['心内科'] + 1]]);
  });
});
