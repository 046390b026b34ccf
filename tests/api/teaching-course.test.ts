import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, readXlsx, twoTenants } from './helpers';

const courses = '/api/teaching/course';
const items = '/api/teaching/course-item';
const trainees = '/api/people/trainee';

describe.each(engines())('courses and their items on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let residency: Json;
  const enrolled: Json[] = [];
  let outsider: Json;
  let paper: Json;

  const item = (courseId: string, body: Json) => create(items, { courseId, ...body });
  const publishItem = async (row: Json) => {
    const res = await call('POST', `${items}/${row.id}/publish`, { version: row.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };

  beforeAll(async () => {
    const hospital = await create('/api/people/organization', { code: 'H1', name: '第一医院', orgType: 'hospital' });
    const base = await create('/api/people/organization', {
      code: 'B1',
      name: '住培基地',
      orgType: 'training_base',
      parentId: hospital.id,
    });
    residency = await create('/api/people/trainee-type', { code: 'res', name: '住院医师', category: 'residency' });
    const trainee = async (name: string, no: string, status = 'in_training') => {
      const made = await create(trainees, {
        name,
        traineeTypeId: residency.id,
        trainingBaseId: base.id,
        traineeNo: no,
      });
      if (status === 'applied') return made;
      return (
        await call('POST', `${trainees}/${made.id}/transition`, {
          to: status,
          reason: '报到',
          effectiveDate: '2026-09-01',
          version: made.version,
        })
      ).body as Json;
    };
    enrolled.push(await trainee('张三', 'R001'), await trainee('李四', 'R002'));
    outsider = await trainee('王五', 'R003', 'applied');
    // a published paper of one true/false question, pass mark 1
    const category = await create('/api/assess/category', { code: 'c1', name: '内科' });
    const q = await create('/api/assess/question', {
      categoryId: category.id,
      questionType: 'true_false',
      stem: '阿司匹林抑制血小板聚集',
      answer: true,
    });
    const sent = await call('POST', `/api/assess/question/${q.id}/submit`, { version: q.version });
    await call('POST', `/api/assess/question/${q.id}/review`, { decision: 'approve', version: sent.body.version });
    const draft = await create('/api/assess/paper', {
      code: 'P1',
      title: '结课测验',
      passScore: 1,
      durationMinutes: 10,
      sections: [{ title: '判断题', slots: [{ questionId: q.id, score: 2 }] }],
    });
    paper = (await call('POST', `/api/assess/paper/${draft.id}/publish`, { version: draft.version })).body;
  });

  it('publishes a course only once an item is published, assigns it to its audience and reports progress', async () => {
    const course = await create(courses, {
      code: 'PRE-2026',
      title: '岗前培训',
      category: 'pre_job_training',
      purpose: 'pre_job',
      creditHours: 8,
      audienceTraineeTypeIds: [residency.id],
      finalPaperId: paper.id,
      minItemPercent: 100,
    });
    const early = await call('POST', `${courses}/${course.id}/publish`, { version: course.version });
    expect(early.body.fields[0].field).toBe('items');

    const chapter = await item(course.id, { itemType: 'chapter', title: '第一章 医院制度' });
    // each type names what it holds
    const noUrl = await call('POST', items, { courseId: course.id, itemType: 'link', title: '制度汇编' });
    expect(noUrl.body.fields[0].field).toBe('url');
    const nested = await call('POST', items, {
      courseId: course.id,
      itemType: 'chapter',
      title: '子章节',
      parentId: chapter.id,
    });
    expect(nested.body.fields[0].field).toBe('parentId');
    const link = await publishItem(
      await item(course.id, {
        itemType: 'link',
        title: '制度汇编',
        url: 'https://example.org/rules',
        parentId: chapter.id,
      }),
    );
    const quiz = await publishItem(
      await item(course.id, { itemType: 'quiz', title: '结课测验', examPaperId: paper.id }),
    );
    expect(link).toMatchObject({ parentTitle: '第一章 医院制度', courseTitle: '岗前培训' });

    const published = await call('POST', `${courses}/${course.id}/publish`, { version: course.version });
    expect(published.body).toMatchObject({ status: 'published', itemCount: 2 });
    const assigned = await call('POST', `${courses}/${course.id}/assign`, { version: published.body.version });
    expect(assigned.body.enrolled).toBe(2);
    const again = await call('POST', `${courses}/${course.id}/assign`, { version: assigned.body.course.version });
    expect(again.body.enrolled).toBe(0);

    // progress: the link at 100%, the quiz below then at its pass mark
    const record = (row: Json, body: Json) => call('POST', `${items}/${row.id}/progress`, body);
    expect((await record(link, { traineeId: enrolled[0].id, percent: 100 })).status).toBe(200);
    expect((await record(link, { traineeId: outsider.id, percent: 100 })).body.fields[0].field).toBe('traineeId');
    await record(quiz, { traineeId: enrolled[0].id, percent: 100, score: 0 });
    let rows = (await call('GET', `${courses}/${course.id}/enrolments`)).body as Json[];
    expect(rows.map((r) => [r.traineeNo, r.progressPercent, r.status])).toEqual([
      ['R001', 50, 'in_progress'],
      ['R002', 0, 'not_started'],
    ]);
    await record(quiz, { traineeId: enrolled[0].id, percent: 100, score: 2 });
    rows = (await call('GET', `${courses}/${course.id}/enrolments`)).body as Json[];
    expect(rows[0]).toMatchObject({ progressPercent: 100, status: 'completed' });
    expect(rows[0].completedAt).toBeTruthy();
    const progress = (await call('GET', `${items}/${quiz.id}/progress`)).body as Json[];
    expect(progress.map((p) => [p.traineeNo, p.completed, p.score])).toEqual([
      ['R001', true, 2],
      ['R002', false, null],
    ]);

    const report = await s.api.fetch('GET', `${courses}/${course.id}/report`, { token: s.demo });
    const sheet = await readXlsx(await report.arrayBuffer());
    expect(sheet[0]).toContain('学员编号');
    expect(sheet.slice(1).map((r) => [r[0], r[6]])).toEqual([
      ['R001', '已完成'],
      ['R002', '未开始'],
    ]);

    // another tenant sees neither the course nor its items
    expect((await call('GET', `${courses}/${course.id}/enrolments`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${items}/${quiz.id}/progress`, undefined, s.other)).status).toBe(404);
  });

  it('reorders a course as a whole, refuses a chapter in a chapter, keeps a chapter with items, and clones with items', async () => {
    const course = await create(courses, { code: 'SKILL', title: '临床技能' });
    const one = await item(course.id, { itemType: 'chapter', title: '一' });
    const two = await item(course.id, { itemType: 'chapter', title: '二' });
    const video = await item(course.id, {
      itemType: 'link',
      title: '缝合',
      url: 'https://example.org/v',
      parentId: one.id,
    });
    const moved = await call('POST', `${items}/reorder`, {
      courseId: course.id,
      items: [
        { id: two.id, parentId: null },
        { id: video.id, parentId: two.id },
        { id: one.id, parentId: null },
      ],
    });
    expect(moved.body).toEqual({ moved: 3 });
    const listed = (await call('GET', `${items}?courseId=${course.id}`)).body.data as Json[];
    expect(listed.map((i) => [i.title, i.parentTitle])).toEqual([
      ['二', null],
      ['缝合', '二'],
      ['一', null],
    ]);
    const partial = await call('POST', `${items}/reorder`, {
      courseId: course.id,
      items: [{ id: one.id, parentId: null }],
    });
    expect(partial.body.fields[0].field).toBe('items');
    const chapterIn = await call('POST', `${items}/reorder`, {
      courseId: course.id,
      items: [
        { id: two.id, parentId: one.id },
        { id: video.id, parentId: two.id },
        { id: one.id, parentId: null },
      ],
    });
    expect(chapterIn.body.fields[0].field).toBe('items.0.parentId');
    const kept = await call('DELETE', `${items}/${two.id}`);
    expect(kept.body.code).toBe('courseItem.hasChildren');

    const copy = await call('POST', `${courses}/${course.id}/clone`, { code: 'SKILL-2', title: '临床技能（二）' });
    expect(copy.status).toBe(201);
    const copied = (await call('GET', `${items}?courseId=${copy.body.id}`)).body.data as Json[];
    expect(copied.map((i) => [i.title, i.parentTitle, i.status])).toEqual([
      ['二', null, 'draft'],
      ['缝合', '二', 'draft'],
      ['一', null, 'draft'],
    ]);
    expect(
      (await call('POST', `${courses}/${course.id}/clone`, { code: 'SKILL', title: 'x' })).body.fields[0].field,
    ).toBe('code');
  });
});
