import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, readXlsx, twoTenants } from './helpers';

const courses = '/api/teaching/course';
const items = '/api/teaching/course-item';
const files = '/api/file/file';
const documents = '/api/content/document';

/** A 1×1 PNG: a course's cover. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

/** A WAV of `seconds` of silence (8 kHz, 8-bit mono): an audio lesson. */
function tinyWav(seconds: number): Buffer {
  const rate = 8000;
  const data = rate * seconds;
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate, 28);
  head.writeUInt16LE(1, 32);
  head.writeUInt16LE(8, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data, 40);
  return Buffer.concat([head, Buffer.alloc(data, 0x80)]);
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(engines())("courses' teachers, cover, CME credits and item kinds on $name", (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let doctor: Json;
  let otherDoctor: Json;
  let teacher: Json;
  let clerk: Json;
  let foreignDoctor: Json;
  let residency: Json;
  let trainee: Json;

  const fieldOf = (res: { body: Json }) => res.body.fields?.[0]?.field;
  const upload = async (name: string, bytes: Uint8Array) => {
    const res = await s.api.fetch('POST', `${files}/upload?name=${encodeURIComponent(name)}&purpose=attachment`, {
      token: s.demo,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body;
  };
  const publish = (path: string, row: Json) => call('POST', `${path}/${row.id}/publish`, { version: row.version });
  const fileHolder = (id: string) =>
    s.api.tenancy
      .asSystem((tx) => tx.selectFrom('file').select(['biz_type', 'biz_id']).where('id', '=', id).execute())
      .then((rows) => rows.map((r) => ({ biz_type: r.biz_type, biz_id: String(r.biz_id) })));

  beforeAll(async () => {
    const hospital = await create('/api/people/organization', { code: 'H1', name: '第一医院', orgType: 'hospital' });
    const dept = await create('/api/people/organization', {
      code: 'D1',
      name: '心内科',
      orgType: 'department',
      parentId: hospital.id,
    });
    const base = await create('/api/people/organization', {
      code: 'B1',
      name: '住培基地',
      orgType: 'training_base',
      parentId: hospital.id,
    });
    const type = await create('/api/people/doctor-type', { code: 'teaching', name: '带教医师' });
    doctor = await create('/api/people/doctor', { name: '王主任', doctorTypeId: type.id, orgId: dept.id });
    otherDoctor = await create('/api/people/doctor', { name: '刘医生', doctorTypeId: type.id, orgId: dept.id });
    const staff = (name: string, no: string, mobile: string, isTeacher: boolean) =>
      create('/api/people/staff', { name, staffNo: no, mobile, orgId: dept.id, isTeacher });
    teacher = await staff('赵老师', 's001', '13800000011', true);
    clerk = await staff('钱干事', 's002', '13800000012', false);
    const foreignType = (await call('POST', '/api/people/doctor-type', { code: 'x', name: '外院' }, s.other)).body;
    const foreignOrg = (
      await call('POST', '/api/people/organization', { code: 'X1', name: '外院', orgType: 'hospital' }, s.other)
    ).body;
    foreignDoctor = (
      await call(
        'POST',
        '/api/people/doctor',
        { name: '外院医生', doctorTypeId: foreignType.id, orgId: foreignOrg.id },
        s.other,
      )
    ).body;
    residency = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
    const made = await create('/api/people/trainee', {
      name: '张三',
      traineeTypeId: residency.id,
      trainingBaseId: base.id,
      traineeNo: 'R001',
    });
    trainee = (
      await call('POST', `/api/people/trainee/${made.id}/transition`, {
        to: 'in_training',
        reason: '报到',
        effectiveDate: '2026-09-01',
        version: made.version,
      })
    ).body;
  });

  it('names its teachers (doctors, teaching staff of the tenant, each once), refusing the others by their place', async () => {
    const base = { code: 'T-1', title: '心电图判读' };
    const refused = async (body: Json) => fieldOf(await call('POST', courses, { ...base, ...body }));
    expect(await refused({ teacherDoctorIds: [doctor.id, foreignDoctor.id] })).toBe('teacherDoctorIds.1');
    expect(await refused({ teacherDoctorIds: [doctor.id, doctor.id] })).toBe('teacherDoctorIds.1');
    expect(await refused({ teacherStaffIds: [clerk.id] })).toBe('teacherStaffIds.0');
    const course = await create(courses, {
      ...base,
      teacherDoctorIds: [otherDoctor.id, doctor.id],
      teacherStaffIds: [teacher.id],
    });
    expect(course).toMatchObject({
      teacherDoctorIds: [otherDoctor.id, doctor.id],
      teacherStaffIds: [teacher.id],
      teacherNames: ['刘医生', '王主任', '赵老师'],
    });
    const listed = await call('GET', `${courses}?teacherDoctorId=${doctor.id}`);
    expect(listed.body.data.map((c: Json) => c.code)).toEqual(['T-1']);
    expect(
      (await call('GET', `${courses}?teacherDoctorId=${otherDoctor.id}`)).body.data.map((c: Json) => c.code),
    ).toEqual(['T-1']);
    expect((await call('GET', `${courses}?teacherDoctorId=999999`)).body.total).toBe(0);
  });

  it('keeps CME credits with a credit class only, specialties of the dictionary, and a sanitised description', async () => {
    const base = { code: 'CME-1', title: '高血压指南解读' };
    const refused = async (body: Json) => fieldOf(await call('POST', courses, { ...base, ...body }));
    expect(await refused({ cmeCreditClass: 'class_i' })).toBe('cmeCredits');
    expect(await refused({ cmeCreditClass: 'class_ii', cmeCredits: 0 })).toBe('cmeCredits');
    expect(await refused({ cmeCreditClass: 'class_i', cmeCredits: 1.25 })).toBe('cmeCredits');
    expect(await refused({ cmeCreditClass: 'class_iii', cmeCredits: 1 })).toBe('cmeCreditClass');
    expect(await refused({ targetSpecialties: ['surgery', 'astrology'] })).toBe('targetSpecialties.1');
    expect(await refused({ targetSpecialties: ['surgery', 'surgery'] })).toBe('targetSpecialties.1');
    const course = await create(courses, {
      ...base,
      cmeCreditClass: 'class_i',
      cmeCredits: 2.5,
      targetSpecialties: ['internal_medicine', 'general_practice'],
      descriptionHtml: '<h2>目标</h2><p onclick="steal()">掌握分级</p><script>alert(1)</script>',
    });
    expect(course).toMatchObject({
      cmeCreditClass: 'class_i',
      cmeCredits: 2.5,
      targetSpecialties: ['internal_medicine', 'general_practice'],
      descriptionHtml: '<h2>目标</h2><p>掌握分级</p>',
    });
    // a class kept asks for its credits still; no class clears them
    const cleared = await call('PUT', `${courses}/${course.id}`, { cmeCredits: null, version: course.version });
    expect(fieldOf(cleared)).toBe('cmeCredits');
    const none = await call('PUT', `${courses}/${course.id}`, { cmeCreditClass: 'none', version: course.version });
    expect(none.body).toMatchObject({ cmeCreditClass: 'none', cmeCredits: null });
    const again = await call('PUT', `${courses}/${course.id}`, {
      cmeCreditClass: 'class_ii',
      cmeCredits: 4,
      version: none.body.version,
    });
    expect(again.body).toMatchObject({ cmeCreditClass: 'class_ii', cmeCredits: 4 });
    const filtered = await call('GET', `${courses}?cmeCreditClass=class_ii&targetSpecialty=general_practice`);
    expect(filtered.body.data.map((c: Json) => c.code)).toEqual(['CME-1']);
    expect((await call('GET', `${courses}?targetSpecialty=surgery`)).body.data).toEqual([]);
    // the export names coded values as the screen does, and times on the reader's clock
    const exported = await s.api.fetch('GET', `${courses}/export?keyword=CME-1&timeZone=Asia/Shanghai`, {
      token: s.demo,
      headers: { 'accept-language': 'en-US' },
    });
    const sheet = await readXlsx(await exported.arrayBuffer());
    const row = Object.fromEntries((sheet[0] ?? []).map((h, i) => [h, sheet.find((r) => r[0] === 'CME-1')?.[i]]));
    expect(row).toMatchObject({
      'CME credits': '4',
      'Target specialties': 'internal_medicine, general_practice',
      'CME credit class': 'Class II',
      Status: 'Draft',
    });
    const created = new Date(again.body.createdAt).getTime() + 8 * 3600_000;
    expect(row.Created).toBe(new Date(created).toISOString().slice(0, 19).replace('T', ' '));
    const zh = await s.api.fetch('GET', `${courses}/export?keyword=CME-1`, { token: s.demo });
    const zhSheet = await readXlsx(await zh.arrayBuffer());
    expect(zhSheet[1]).toEqual(expect.arrayContaining(['Ⅱ类学分', '草稿', again.body.createdAt]));
    const badZone = await s.api.fetch('GET', `${courses}/export?timeZone=Mars/Base`, { token: s.demo });
    expect(badZone.status).toBe(400);
  });

  it('holds an image as its cover; the report tells the CME credits a completion earns', async () => {
    const pdf = await upload('notes.pdf', PDF);
    const notImage = await call('POST', courses, { code: 'COV-1', title: '急救', coverFileId: pdf.id });
    expect(fieldOf(notImage)).toBe('coverFileId');
    const image = await upload('cover.png', PNG);
    const course = await create(courses, {
      code: 'COV-1',
      title: '急救',
      coverFileId: image.id,
      cmeCreditClass: 'class_ii',
      cmeCredits: 1.5,
      audienceTraineeTypeIds: [residency.id],
    });
    expect(course).toMatchObject({ coverFileId: image.id, coverFileName: 'cover.png' });
    expect(await fileHolder(image.id)).toEqual([{ biz_type: 'course.cover', biz_id: course.id }]);
    // another course cannot take a cover this one holds
    const taken = await call('POST', courses, { code: 'COV-X', title: 'x', coverFileId: image.id });
    expect(fieldOf(taken)).toBe('coverFileId');

    const text = (
      await publish(
        items,
        await create(items, {
          courseId: course.id,
          itemType: 'rich_text',
          title: '心肺复苏要点',
          contentHtml: '<p>按压深度 5–6 厘米</p>',
        }),
      )
    ).body;
    const published = (await publish(courses, course)).body;
    const assigned = (await call('POST', `${courses}/${course.id}/assign`, { version: published.version })).body;
    expect(assigned.enrolled).toBe(1);
    // rich text is complete at its share read
    const read = (percent: number) => call('POST', `${items}/${text.id}/progress`, { traineeId: trainee.id, percent });
    expect((await read(79)).status).toBe(200);
    expect((await call('GET', `${courses}/${course.id}/enrolments`)).body[0].status).toBe('in_progress');
    await read(80);
    expect((await call('GET', `${courses}/${course.id}/enrolments`)).body[0].status).toBe('completed');
    const report = await s.api.fetch('GET', `${courses}/${course.id}/report`, {
      token: s.demo,
      headers: { 'accept-language': 'en-US' },
    });
    const sheet = await readXlsx(await report.arrayBuffer());
    expect(sheet[0]?.slice(-2)).toEqual(['CME class', 'CME credits earned']);
    expect(sheet[1]?.slice(-2)).toEqual(['Class II', '1.5']);
  });

  it('clones teachers, cover (shared), description, CME credits, specialties and the new kinds of item', async () => {
    const image = await upload('cover2.png', PNG);
    const source = await create(courses, {
      code: 'SRC',
      title: '源课程',
      teacherDoctorIds: [doctor.id],
      teacherStaffIds: [teacher.id],
      coverFileId: image.id,
      descriptionHtml: '<p>介绍</p>',
      cmeCreditClass: 'class_i',
      cmeCredits: 3,
      targetSpecialties: ['surgery'],
    });
    const live = {
      startAt: '2026-12-01T08:00:00.000Z',
      endAt: '2026-12-01T09:30:00.000Z',
      platform: 'tencent_meeting',
      roomUrl: 'https://meeting.example.org/123',
    };
    await create(items, {
      courseId: source.id,
      itemType: 'live',
      title: '直播答疑',
      liveConfig: live,
      isPreview: true,
    });
    await create(items, {
      courseId: source.id,
      itemType: 'assignment',
      title: '病例书写',
      contentHtml: '<p>写一份</p>',
    });
    const copy = await call('POST', `${courses}/${source.id}/clone`, { code: 'SRC-2', title: '复制课程' });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      teacherDoctorIds: [doctor.id],
      teacherStaffIds: [teacher.id],
      teacherNames: ['王主任', '赵老师'],
      coverFileId: image.id,
      descriptionHtml: '<p>介绍</p>',
      cmeCreditClass: 'class_i',
      cmeCredits: 3,
      targetSpecialties: ['surgery'],
    });
    const copied = (await call('GET', `${items}?courseId=${copy.body.id}`)).body.data as Json[];
    expect(copied.map((i) => [i.itemType, i.isPreview, i.liveConfig, i.contentHtml])).toEqual([
      ['live', true, live, null],
      ['assignment', false, null, '<p>写一份</p>'],
    ]);
    // the source deleted, its cover goes to the copy that shows it
    expect((await call('DELETE', `${courses}/${source.id}`)).status).toBe(204);
    expect(await fileHolder(image.id)).toEqual([{ biz_type: 'course.cover', biz_id: copy.body.id }]);
    expect((await call('GET', `${courses}/${copy.body.id}`)).body.coverFileName).toBe('cover2.png');
  });

  describe('item kinds', () => {
    let course: Json;
    const item = (body: Json) => call('POST', items, { courseId: course.id, ...body });

    beforeAll(async () => {
      course = await create(courses, { code: 'KINDS', title: '内容类型' });
    });

    it('keeps rich text sanitised and requires it: a rich-text body, an assignment’s instructions', async () => {
      expect(fieldOf(await item({ itemType: 'rich_text', title: '空' }))).toBe('contentHtml');
      expect(fieldOf(await item({ itemType: 'rich_text', title: '脚本', contentHtml: '<script>x()</script>' }))).toBe(
        'contentHtml',
      );
      expect(fieldOf(await item({ itemType: 'assignment', title: '作业' }))).toBe('contentHtml');
      const text = (
        await item({ itemType: 'rich_text', title: '图文', contentHtml: '<p>正文<img src=x onerror=y()></p>' })
      ).body;
      expect(text.contentHtml).toBe('<p>正文<img src="x" /></p>');
      const work = (
        await item({ itemType: 'assignment', title: '作业', contentHtml: '<p>写一份病历</p>', fileId: '1' })
      ).body;
      // what its type does not hold is cleared
      expect(work).toMatchObject({ contentHtml: '<p>写一份病历</p>', fileId: null });
      expect((await publish(items, work)).body.status).toBe('published');
      const emptied = await call('PUT', `${items}/${text.id}`, { contentHtml: '', version: text.version });
      expect(fieldOf(emptied)).toBe('contentHtml');
    });

    it('validates a live session: start, end after it, platform and room address', async () => {
      const live = {
        startAt: '2026-12-01T08:00:00+08:00',
        endAt: '2026-12-01T10:00:00+08:00',
        platform: 'dingtalk',
        roomUrl: 'https://live.example.org/r/1',
      };
      expect(fieldOf(await item({ itemType: 'live', title: '直播' }))).toBe('liveConfig');
      expect(
        fieldOf(await item({ itemType: 'live', title: '直播', liveConfig: { ...live, endAt: live.startAt } })),
      ).toBe('liveConfig.endAt');
      expect(fieldOf(await item({ itemType: 'live', title: '直播', liveConfig: { ...live, platform: 'fax' } }))).toBe(
        'liveConfig.platform',
      );
      expect(
        fieldOf(
          await item({ itemType: 'live', title: '直播', liveConfig: { ...live, roomUrl: 'javascript:alert(1)' } }),
        ),
      ).toBe('liveConfig.roomUrl');
      const made = (await item({ itemType: 'live', title: '直播', liveConfig: live })).body;
      expect(made.liveConfig).toEqual(live);
      const published = (await publish(items, made)).body;
      expect(published.status).toBe('published');
      // a live session is complete once attended (100), not at a share viewed
      const enrolled = await create(courses, { code: 'LIVE', title: '直播课', audienceTraineeTypeIds: [residency.id] });
      const session = (
        await publish(
          items,
          (
            await call('POST', items, { courseId: enrolled.id, itemType: 'live', title: '直播', liveConfig: live })
          ).body,
        )
      ).body;
      const on = (await publish(courses, enrolled)).body;
      await call('POST', `${courses}/${enrolled.id}/assign`, { version: on.version });
      const attend = (percent: number) =>
        call('POST', `${items}/${session.id}/progress`, { traineeId: trainee.id, percent });
      expect((await attend(90)).body.completedCount).toBe(0);
      expect((await attend(100)).body.completedCount).toBe(1);
    });

    it('links a document of the document base: one that exists, published to publish the item', async () => {
      const library = await create('/api/content/document-base', {
        code: 'lib',
        name: '教学资料',
        visibility: 'tenant',
      });
      const doc = await create(documents, { baseId: library.id, title: '胸痛诊治流程', contentHtml: '<p>流程</p>' });
      const pdf = await upload('flow.pdf', PDF);
      expect(fieldOf(await item({ itemType: 'document', title: '文档' }))).toBe('fileId');
      expect(fieldOf(await item({ itemType: 'document', title: '文档', documentId: '999999' }))).toBe('documentId');
      expect(fieldOf(await item({ itemType: 'document', title: '文档', documentId: doc.id, fileId: pdf.id }))).toBe(
        'documentId',
      );
      const linked = (await item({ itemType: 'document', title: '流程', documentId: doc.id, isPreview: true })).body;
      expect(linked).toMatchObject({
        documentId: doc.id,
        documentTitle: '胸痛诊治流程',
        fileId: null,
        isPreview: true,
      });
      expect(fieldOf(await publish(items, linked))).toBe('documentId');
      await publish(documents, doc);
      expect((await publish(items, linked)).body.status).toBe('published');
      const previews = await call('GET', `${items}?courseId=${course.id}&isPreview=true`);
      expect(previews.body.data.map((i: Json) => i.title)).toEqual(['流程']);
      // the other tenant's documents are not found
      const foreignBase = (
        await call('POST', '/api/content/document-base', { code: 'x', name: '外院库', visibility: 'tenant' }, s.other)
      ).body;
      const foreign = (
        await call('POST', documents, { baseId: foreignBase.id, title: '外院', contentHtml: '<p>x</p>' }, s.other)
      ).body;
      expect(fieldOf(await item({ itemType: 'document', title: '外院', documentId: foreign.id }))).toBe('documentId');
    });

    it('reads an audio file for its length as a video, refusing a file that is not audio and publishing once ready', async () => {
      const pdf = await upload('talk.pdf', PDF);
      expect(fieldOf(await item({ itemType: 'audio', title: '音频', fileId: pdf.id }))).toBe('fileId');
      const wav = await upload('talk.wav', tinyWav(3));
      const made = (await item({ itemType: 'audio', title: '音频讲座', fileId: wav.id })).body;
      expect(made.mediaStatus).toBe('pending');
      const done = await until(
        async () => (await call('GET', `${items}/${made.id}`)).body as Json,
        (row) => row.mediaStatus === 'ready' || row.mediaStatus === 'failed',
      );
      expect(done).toMatchObject({ mediaStatus: 'ready', mediaDurationSec: 3 });
      const published = (await publish(items, done)).body;
      expect(published.status).toBe('published');
      const other = await upload('notes2.pdf', PDF);
      const replaced = await call('POST', `${items}/${made.id}/replace-media`, {
        fileId: other.id,
        version: published.version,
      });
      expect(fieldOf(replaced), JSON.stringify(replaced.body)).toBe('fileId');
    });
  });
});
