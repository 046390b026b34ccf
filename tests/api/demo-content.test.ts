import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REVIEWER } from '../../server/src/db/seed/demo-content';
import { engines, type Json, startApi, type TestApi } from './helpers';

/** What a new user of `npm start` / `npm run dev` sees in the demo tenant: the demo content, created by the API. */
describe.each(engines())('the demo content on $name', (engine) => {
  let api: TestApi;
  let token = '';
  const get = async (path: string) => {
    const res = await api.call('GET', path, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as Json;
  };

  beforeAll(async () => {
    api = await startApi(engine, { demoContent: true });
    token = (await api.tokens('demo', 'admin', 'admin123')).access;
  });
  afterAll(() => api?.close());

  it('holds a hospital with its training bases and departments, its teachers and its residents', async () => {
    const [hospital] = await get('/api/people/organization/tree');
    expect(hospital).toMatchObject({ name: '演示医院', hasChildren: true });
    const bases = (await get('/api/people/organization?orgType=specialty_base')).data.map((o: Json) => o.name);
    expect(bases.sort()).toEqual(['内科专业基地', '儿科专业基地', '外科专业基地', '急诊科专业基地'].sort());
    expect((await get('/api/people/organization?orgType=department')).total).toBe(6);

    const doctors = await get('/api/people/doctor?pageSize=50');
    expect(doctors.total).toBe(8);
    expect(doctors.data.filter((d: Json) => d.isTutor)).toHaveLength(5);
    const trainees = await get('/api/people/trainee?pageSize=50');
    expect(trainees.total).toBe(18);
    expect(trainees.data.filter((t: Json) => t.status === 'in_training')).toHaveLength(16);
    expect(trainees.data.every((t: Json) => t.tutorName && t.specialtyBaseName)).toBe(true);
  });

  it('lists questions of every type and medical format, most approved by the reviewer', async () => {
    const questions = (await get('/api/assess/question?pageSize=100')).data as Json[];
    expect(questions.length).toBeGreaterThanOrEqual(20);
    const kinds = new Set(questions.map((q) => `${q.questionType}/${q.medicalFormat ?? '-'}`));
    for (const kind of [
      'single_choice/A1',
      'single_choice/A2',
      'case_group/A3',
      'case_group/A4',
      'option_group/B1',
      'multiple_choice/X',
      'case_analysis/CASE',
      'true_false/-',
      'fill_blank/-',
      'short_answer/-',
      'essay/-',
    ])
      expect(kinds, kind).toContain(kind);
    const ready = questions.filter((q) => q.status === 'ready');
    expect(ready.length).toBeGreaterThan(questions.length - 3);
    expect(ready.every((q) => q.reviewedByName === '题库审核专家')).toBe(true);
    expect(questions.map((q) => q.status)).toEqual(expect.arrayContaining(['draft', 'pending_review']));
    // a group holds its items; a case analysis' stages are weighted
    const caseAnalysis = questions.find((q) => q.questionType === 'case_analysis');
    const stages = (await get(`/api/assess/question/${caseAnalysis.id}`)).children as Json[];
    expect(stages).toHaveLength(2);
    expect(stages[0].options.map((o: Json) => o.weight)).toEqual([2, 2, 0, -1]);
    // the trees they sit in
    const [top] = (await get('/api/assess/category/tree')) as Json[];
    expect(top).toMatchObject({ name: '内科学', hasChildren: true });
    expect((await get('/api/assess/knowledge-point/tree')).length).toBeGreaterThan(5);
    // the reviewer signs in with the password the README gives
    expect((await api.signIn('demo', DEMO_REVIEWER.username, DEMO_REVIEWER.password)).status).toBe(200);
  });

  it('has a published paper of fixed questions and a draft drawn by rules', async () => {
    const papers = (await get('/api/assess/paper')).data as Json[];
    const manual = papers.find((p) => p.composeMode === 'manual');
    expect(manual).toMatchObject({ status: 'published', title: '内科出科考核（示例）', totalScore: 32, passScore: 20 });
    const random = papers.find((p) => p.composeMode === 'random_per_candidate');
    expect(random.status).toBe('draft');
    const preview = await get(`/api/assess/paper/${random.id}/preview?seed=1`);
    expect(preview.sections.flatMap((s: Json) => s.questions)).toHaveLength(8);
  });

  it('has a published course with its chapters and items, assigned to the residents in training', async () => {
    const [course] = (await get('/api/teaching/course')).data as Json[];
    expect(course).toMatchObject({ title: '住院医师岗前培训', status: 'published' });
    const outline = (await get(`/api/teaching/course-item?courseId=${course.id}&pageSize=50`)).data as Json[];
    expect(new Set(outline.map((i) => i.itemType))).toEqual(new Set(['chapter', 'rich_text', 'link', 'quiz']));
    // its chapters too: the outline of a published course shows no draft
    expect(new Set(outline.map((i) => i.status))).toEqual(new Set(['published']));
    const enrolments = (await get(`/api/teaching/course/${course.id}/enrolments`)) as Json[];
    expect(enrolments).toHaveLength(16);
    expect(enrolments.filter((e) => e.status === 'in_progress')).toHaveLength(3);
  });

  it('lists teaching activities: a coming one published, a draft, and one completed with its register', async () => {
    const activities = (await get('/api/teaching/activity?pageSize=50')).data as Json[];
    const byStatus = Object.fromEntries(activities.map((a) => [a.status, a]));
    expect(Object.keys(byStatus).sort()).toEqual(['completed', 'draft', 'published']);
    expect(Date.parse(byStatus.published.startAt)).toBeGreaterThan(Date.now());
    expect(byStatus.published.participantCount).toBeGreaterThan(0);
    const done = byStatus.completed;
    expect(done.presentCount).toBe(done.participantCount - 1);
    const register = (await get(`/api/teaching/activity/${done.id}/participants`)) as Json[];
    expect(register.map((p) => p.attendance).sort()).toEqual([
      'excused',
      ...Array(register.length - 1).fill('present'),
    ]);
  });
});

describe.each(engines())('a demo tenant without the content on $name', (engine) => {
  it('is empty unless the content is asked for (the test suites start from it)', async () => {
    const api = await startApi(engine);
    try {
      const { access } = await api.tokens('demo', 'admin', 'admin123');
      for (const path of ['/api/people/organization', '/api/assess/question', '/api/teaching/course'])
        expect((await api.call('GET', path, { token: access })).body.total, path).toBe(0);
    } finally {
      await api.close();
    }
  });
});
