import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { engines, type Json, questionReviewer, readXlsx, twoTenants } from './helpers';

const courses = '/api/teaching/course';
const categories = '/api/teaching/course-category';
const items = '/api/teaching/course-item';
const trainees = '/api/people/trainee';

describe.each(engines())('courses and their items on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let residency: Json;
  const enrolled: Json[] = [];
  let outsider: Json;
  let paper: Json;
  let draftPaper: Json;
  let general: Json;
  let prejob: Json;

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
    // approved by another than its author
    await call(
      'POST',
      `/api/assess/question/${q.id}/review`,
      { decision: 'approve', version: sent.body.version },
      await questionReviewer(s.api, 'demo', s.demo),
    );
    const draft = await create('/api/assess/paper', {
      code: 'P1',
      title: '结课测验',
      passScore: 1,
      durationMinutes: 10,
      sections: [{ title: '判断题', slots: [{ questionId: q.id, score: 2 }] }],
    });
    paper = (await call('POST', `/api/assess/paper/${draft.id}/publish`, { version: draft.version })).body;
    draftPaper = await create('/api/assess/paper', {
      code: 'P2',
      title: '草稿试卷',
      passScore: 1,
      durationMinutes: 10,
      sections: [{ title: '判断题', slots: [{ questionId: q.id, score: 2 }] }],
    });
    general = await create(categories, { code: 'general', name: '公共课程' });
    prejob = await create(categories, { code: 'prejob', name: '岗前培训', parentId: general.id });
  });

  const fieldOf = (body: Json) => (body.fields ?? []).map((e: Json) => e.field);
  const told = async (courseId: string) =>
    (
      (await call('GET', '/api/message/message?businessItemCode=course.assigned&pageSize=100')).body.data as Json[]
    ).filter((m) => m.bizRefId === courseId);

  it('publishes a course only once an item is published, assigns it to its audience and reports progress', async () => {
    const course = await create(courses, {
      code: 'PRE-2026',
      title: '岗前培训',
      categoryId: prejob.id,
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
    expect(assigned.body.course).toMatchObject({
      categoryId: prejob.id,
      categoryName: '岗前培训',
      audienceTraineeTypeNames: ['住院医师'],
      audienceOrgNames: [],
    });
    // each trainee enrolled is told, by the business item's in-app template
    const messages = await told(course.id);
    expect(messages.map((m) => m.recipientId).sort()).toEqual(enrolled.map((t) => t.id).sort());
    expect(messages.every((m) => m.recipientType === 'trainee' && m.status === 'delivered')).toBe(true);
    expect(messages[0]).toMatchObject({ title: '新的课程', bizRefType: 'course' });
    expect(messages[0].content).toContain('岗前培训（8 学时）');
    const again = await call('POST', `${courses}/${course.id}/assign`, { version: assigned.body.course.version });
    expect(again.body.enrolled).toBe(0);
    // those already on it are not told again
    expect(await told(course.id)).toHaveLength(2);

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
  it('tells only the trainees an assignment newly enrolls, in its transaction', async () => {
    const nursing = await create('/api/people/trainee-type', { code: 'nur', name: '护理', category: 'other' });
    const base = (await call('GET', '/api/people/organization?keyword=B1')).body.data[0];
    const trainee = async (name: string, no: string) => {
      const made = await create(trainees, { name, traineeTypeId: nursing.id, trainingBaseId: base.id, traineeNo: no });
      return (
        await call('POST', `${trainees}/${made.id}/transition`, {
          to: 'in_training',
          reason: '报到',
          effectiveDate: '2026-09-01',
          version: made.version,
        })
      ).body as Json;
    };
    const first = await trainee('赵六', 'N001');
    const course = await create(courses, { code: 'NUR-1', title: '护理基础', audienceTraineeTypeIds: [nursing.id] });
    await publishItem(await item(course.id, { itemType: 'link', title: '规范', url: 'https://example.org/n' }));
    const published = (await call('POST', `${courses}/${course.id}/publish`, { version: course.version })).body;
    const once = await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    expect(once.body.enrolled).toBe(1);
    const second = await trainee('钱七', 'N002');
    // a stale assignment changes nothing and tells no one
    const stale = await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    expect(stale.status).toBe(409);
    expect((await told(course.id)).map((m) => m.recipientId)).toEqual([first.id]);
    const twice = await call('POST', `${courses}/${course.id}/assign`, { version: once.body.course.version });
    expect(twice.body.enrolled).toBe(1);
    const messages = await told(course.id);
    expect(messages.map((m) => m.recipientId).sort()).toEqual([first.id, second.id].sort());
    expect(messages.find((m) => m.recipientId === second.id).recipientName).toBe('钱七');
  });

  it('keeps course categories as a tree: codes unique, names among siblings, a move re-paths the subtree', async () => {
    expect(prejob.path).toBe(`/${general.id}/${prejob.id}/`);
    const roots = (await call('GET', `${categories}/tree`)).body as Json[];
    expect(roots.find((n) => n.id === general.id)).toMatchObject({ hasChildren: true, depth: 0 });
    const children = (await call('GET', `${categories}/tree?parentId=${general.id}`)).body as Json[];
    expect(children.map((n) => n.code)).toEqual(['prejob']);

    expect(fieldOf((await call('POST', categories, { code: 'prejob', name: '另一个' })).body)).toEqual(['code']);
    const sibling = await call('POST', categories, { code: 'prejob2', name: '岗前培训', parentId: general.id });
    expect(fieldOf(sibling.body)).toEqual(['name']);
    // the same name under another parent is another node
    const skills = await create(categories, { code: 'skills', name: '临床技能' });
    const skillsPrejob = await create(categories, { code: 'skills-prejob', name: '岗前培训', parentId: skills.id });
    const leaf = await create(categories, { code: 'suture', name: '缝合', parentId: skillsPrejob.id });
    expect(leaf).toMatchObject({ depth: 2, path: `/${skills.id}/${skillsPrejob.id}/${leaf.id}/` });
    const nowhere = await call('POST', categories, { code: 'x1', name: 'x', parentId: '999999' });
    expect(fieldOf(nowhere.body)).toEqual(['parentId']);

    const under = await call('PUT', `${categories}/${skills.id}`, { parentId: leaf.id, version: skills.version });
    expect(fieldOf(under.body)).toEqual(['parentId']);
    const moved = await call('PUT', `${categories}/${skillsPrejob.id}`, {
      parentId: general.id,
      version: skillsPrejob.version,
    });
    // a move that would give two siblings one name is refused, naming it
    expect(fieldOf(moved.body)).toEqual(['name']);
    const renamed = await call('PUT', `${categories}/${skillsPrejob.id}`, {
      parentId: general.id,
      name: '技能岗前',
      version: skillsPrejob.version,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ path: `/${general.id}/${skillsPrejob.id}/`, depth: 1 });
    expect((await call('GET', `${categories}/${leaf.id}`)).body).toMatchObject({
      path: `/${general.id}/${skillsPrejob.id}/${leaf.id}/`,
      depth: 2,
    });
    const stale = await call('PUT', `${categories}/${skillsPrejob.id}`, {
      name: '旧的',
      version: skillsPrejob.version,
    });
    expect(stale.status).toBe(409);

    const withChildren = await call('DELETE', `${categories}/${skillsPrejob.id}`);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.code).toBe('taxonomy.hasChildren');
    expect((await call('DELETE', `${categories}/${leaf.id}`)).status).toBe(204);
    expect((await call('DELETE', `${categories}/${skills.id}`)).status).toBe(204);

    // a category a course uses stays
    const used = await call('GET', `${categories}/${prejob.id}`);
    expect(used.body.courseCount).toBeGreaterThan(0);
    const refused = await call('DELETE', `${categories}/${prejob.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('courseCategory.inUse');
    expect((await call('POST', categories, { code: 'v', name: 'v' }, s.viewer)).status).toBe(403);
  });

  it("lists a category's courses with its sub-categories'; another tenant's category is refused", async () => {
    const top = await create(courses, { code: 'GEN-1', title: '医学伦理', categoryId: general.id });
    const below = await create(courses, { code: 'GEN-2', title: '院感防控', categoryId: prejob.id });
    await create(courses, { code: 'NONE-1', title: '未分类课程' });
    const listed = async (query: string) =>
      ((await call('GET', `${courses}?${query}&pageSize=100`)).body.data as Json[]).map((c) => c.code);
    const inGeneral = await listed(`categoryId=${general.id}`);
    expect(inGeneral).toEqual(expect.arrayContaining(['GEN-1', 'GEN-2', 'PRE-2026']));
    expect(inGeneral).not.toContain('NONE-1');
    const inPrejob = await listed(`categoryId=${prejob.id}`);
    expect(inPrejob).toContain('GEN-2');
    expect(inPrejob).not.toContain('GEN-1');
    expect(below).toMatchObject({ categoryId: prejob.id, categoryName: '岗前培训' });
    expect((await call('GET', `${courses}?categoryId=abc`)).status).toBe(400);

    // moved and cleared
    const moved = await call('PUT', `${courses}/${top.id}`, { categoryId: prejob.id, version: top.version });
    expect(moved.body).toMatchObject({ categoryId: prejob.id, categoryName: '岗前培训' });
    const cleared = await call('PUT', `${courses}/${top.id}`, { categoryId: null, version: moved.body.version });
    expect(cleared.body).toMatchObject({ categoryId: null, categoryName: null });
    const clone = await call('POST', `${courses}/${below.id}/clone`, { code: 'GEN-3', title: '院感防控（二）' });
    expect(clone.body).toMatchObject({ categoryId: prejob.id, categoryName: '岗前培训' });

    // another tenant: its own tree, neither ours to see nor to use
    const theirs = (await call('POST', categories, { code: 'general', name: '公共课程' }, s.other)).body;
    expect(theirs.id).toBeTruthy();
    expect((await call('GET', `${categories}/tree`, undefined, s.other)).body.map((n: Json) => n.id)).toEqual([
      theirs.id,
    ]);
    expect((await call('GET', `${categories}/${general.id}`, undefined, s.other)).status).toBe(404);
    const foreign = await call('POST', courses, { code: 'F-1', title: '外院分类', categoryId: theirs.id });
    expect(foreign.status).toBe(400);
    expect(fieldOf(foreign.body)).toEqual(['categoryId']);
    const foreignEdit = await call('PUT', `${courses}/${below.id}`, { categoryId: theirs.id, version: below.version });
    expect(fieldOf(foreignEdit.body)).toEqual(['categoryId']);
    expect(await listed(`categoryId=${theirs.id}`)).toEqual([]);
  });

  it("reads a course's whole outline as its screens ask for it, past a list page's 200 rows", async () => {
    const course = await create(courses, { code: 'BIG-1', title: '大课程' });
    const chapter = await item(course.id, { itemType: 'chapter', title: '第一章' });
    await sql`INSERT INTO course_item (tenant_id, course_id, parent_id, item_type, title, url, sort, created_at)
      SELECT c.tenant_id, c.id, CASE WHEN n <= 5 THEN ${chapter.id}::bigint END, 'link', 'item ' || n,
        'https://example.org/' || n, n, now()
      FROM course c, generate_series(1, 249) n WHERE c.id = ${course.id}`.execute(s.api.db);
    // what the outline and the chapter picker send
    const outline = await call('GET', `${items}/outline?courseId=${course.id}`);
    expect(outline.status, JSON.stringify(outline.body)).toBe(200);
    const rows = outline.body as Json[];
    expect(rows).toHaveLength(250);
    expect(rows.map((r) => r.sort)).toEqual([...rows.map((r) => r.sort)].sort((a, b) => a - b));
    expect(rows.filter((r) => r.parentId === chapter.id)).toHaveLength(5);
    // a list page stays at 200 rows at most
    expect((await call('GET', `${items}?courseId=${course.id}&pageSize=1000`)).status).toBe(400);
    expect((await call('GET', `${items}/outline`)).status).toBe(400);
    expect((await call('GET', `${items}/outline?courseId=${course.id}`, undefined, s.other)).status).toBe(404);
    // the whole course is reordered in one go
    const reversed = [...rows].reverse().map((r) => ({ id: r.id, parentId: null }));
    expect((await call('POST', `${items}/reorder`, { courseId: course.id, items: reversed })).body).toEqual({
      moved: 250,
    });
    // a course holds 1000 items at most: its outline is read, and reordered, whole
    await sql`INSERT INTO course_item (tenant_id, course_id, item_type, title, url, sort, created_at)
      SELECT c.tenant_id, c.id, 'link', 'more ' || n, 'https://example.org/m' || n, 300 + n, now()
      FROM course c, generate_series(1, 750) n WHERE c.id = ${course.id}`.execute(s.api.db);
    const full = await call('POST', items, { courseId: course.id, itemType: 'chapter', title: '第1001项' });
    expect(fieldOf(full.body)).toEqual(['courseId']);
  });

  const progressOf = async (courseId: string) =>
    ((await call('GET', `${courses}/${courseId}/enrolments`)).body as Json[]).map((r) => [
      r.traineeNo,
      r.progressPercent,
      r.status,
      Boolean(r.completedAt),
    ]);
  const fresh = async (path: string, id: string) => (await call('GET', `${path}/${id}`)).body as Json;

  it('publishes a course with a final paper only with a published quiz on it, and keeps it so while published', async () => {
    const course = await create(courses, {
      code: 'FINAL-1',
      title: '结课考核',
      audienceTraineeTypeIds: [residency.id],
      finalPaperId: paper.id,
    });
    await publishItem(await item(course.id, { itemType: 'link', title: '讲义', url: 'https://example.org/f' }));
    const noQuiz = await call('POST', `${courses}/${course.id}/publish`, { version: course.version });
    expect(fieldOf(noQuiz.body)).toEqual(['finalPaperId']);
    expect(noQuiz.body.fields[0].message).toContain('quiz');
    // said in the user's language: what is missing and what to do
    const zh = await s.api.call('POST', `${courses}/${course.id}/publish`, {
      token: s.demo,
      body: { version: course.version },
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(zh.body.fields).toEqual([
      { field: 'finalPaperId', message: '学员须通过结课试卷才能完成课程：请先在课程中添加并发布使用该试卷的测验' },
    ]);
    const quiz = await publishItem(await item(course.id, { itemType: 'quiz', title: '结课', examPaperId: paper.id }));
    const published = await call('POST', `${courses}/${course.id}/publish`, { version: course.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    // the quiz on the final paper stays while the course is published
    const hidden = await call('POST', `${items}/${quiz.id}/hide`, { version: quiz.version });
    expect(fieldOf(hidden.body)).toEqual(['examPaperId']);
    expect((await call('DELETE', `${items}/${quiz.id}`)).status).toBe(400);
    // nor is its final paper switched to a draft
    const toDraft = await call('PUT', `${courses}/${course.id}`, {
      finalPaperId: draftPaper.id,
      version: published.body.version,
    });
    expect(fieldOf(toDraft.body)).toEqual(['finalPaperId']);
    expect((await fresh(courses, course.id)).finalPaperId).toBe(paper.id);
    // a draft course may name a draft paper: publishing it is refused until the paper is published
    const draft = await create(courses, { code: 'FINAL-2', title: '草稿', finalPaperId: draftPaper.id });
    await publishItem(await item(draft.id, { itemType: 'link', title: '讲义', url: 'https://example.org/g' }));
    const refused = await call('POST', `${courses}/${draft.id}/publish`, { version: draft.version });
    expect(fieldOf(refused.body)).toEqual(['finalPaperId']);
    // a published quiz is not moved to a draft paper
    const moved = await call('PUT', `${items}/${quiz.id}`, { examPaperId: draftPaper.id, version: quiz.version });
    expect(moved.body.fields).toEqual([
      { field: 'examPaperId', message: "the quiz's paper is not published: publish it first" },
    ]);
    // once offline, the quiz may go
    const offline = await call('POST', `${courses}/${course.id}/offline`, { version: published.body.version });
    expect(offline.status).toBe(200);
    expect((await call('POST', `${items}/${quiz.id}/hide`, { version: quiz.version })).status).toBe(200);
  });

  it('says a quiz on a closed paper cannot be published for that reason, not as an unpublished paper', async () => {
    const made = await create('/api/assess/paper', {
      code: 'P-CLOSED',
      title: '已关闭',
      passScore: 1,
      durationMinutes: 10,
      sections: [{ title: '判断题', slots: [{ questionId: paper.sections[0].slots[0].questionId, score: 2 }] }],
    });
    const open = (await call('POST', `/api/assess/paper/${made.id}/publish`, { version: made.version })).body;
    const course = await create(courses, { code: 'CLOSED-1', title: '关闭' });
    const quiz = await item(course.id, { itemType: 'quiz', title: '测验', examPaperId: open.id });
    await call('POST', `/api/assess/paper/${open.id}/close`, { version: open.version });
    const refused = await call('POST', `${items}/${quiz.id}/publish`, { version: quiz.version });
    expect(refused.body.fields).toEqual([
      {
        field: 'examPaperId',
        message: "the quiz's paper is closed: choose a published paper (a clone of it, once published, will do)",
      },
    ]);
  });

  it('settles every enrolment when what counts changes, and never leaves a published course with nothing published', async () => {
    const course = await create(courses, {
      code: 'SETTLE-1',
      title: '重算进度',
      audienceTraineeTypeIds: [residency.id],
      minItemPercent: 100,
    });
    const a = await publishItem(await item(course.id, { itemType: 'link', title: 'A', url: 'https://example.org/a' }));
    let b = await publishItem(await item(course.id, { itemType: 'link', title: 'B', url: 'https://example.org/b' }));
    const published = (await call('POST', `${courses}/${course.id}/publish`, { version: course.version })).body;
    await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    await call('POST', `${items}/${a.id}/progress`, { traineeId: enrolled[0].id, percent: 100 });
    expect(await progressOf(course.id)).toEqual([
      ['R001', 50, 'in_progress', false],
      ['R002', 0, 'not_started', false],
    ]);
    // B hidden: A is all there is to complete
    b = (await call('POST', `${items}/${b.id}/hide`, { version: b.version })).body;
    expect((await progressOf(course.id))[0]).toEqual(['R001', 100, 'completed', true]);
    // B back: half again
    b = await publishItem(b);
    expect((await progressOf(course.id))[0]).toEqual(['R001', 50, 'in_progress', false]);
    // B optional: the required ones are done
    b = (await call('PUT', `${items}/${b.id}`, { isRequired: false, version: b.version })).body;
    expect((await progressOf(course.id))[0]).toEqual(['R001', 100, 'completed', true]);
    b = (await call('PUT', `${items}/${b.id}`, { isRequired: true, version: b.version })).body;
    expect((await progressOf(course.id))[0]).toEqual(['R001', 50, 'in_progress', false]);
    // half of the required items is enough
    const current = await fresh(courses, course.id);
    await call('PUT', `${courses}/${course.id}`, { minItemPercent: 50, version: current.version });
    expect(await progressOf(course.id)).toEqual([
      ['R001', 50, 'completed', true],
      ['R002', 0, 'not_started', false],
    ]);
    // A deleted, with its progress: nothing done
    expect((await call('DELETE', `${items}/${a.id}`)).status).toBe(204);
    expect((await progressOf(course.id))[0]).toEqual(['R001', 0, 'not_started', false]);
    // B is the last published item: it stays while the course is published
    const last = await call('POST', `${items}/${b.id}/hide`, { version: b.version });
    expect(fieldOf(last.body)).toEqual(['courseId']);
    expect(fieldOf((await call('DELETE', `${items}/${b.id}`)).body)).toEqual(['courseId']);
    expect((await fresh(items, b.id)).status).toBe('published');
  });

  it('completes a course of optional items only', async () => {
    const course = await create(courses, {
      code: 'OPT-1',
      title: '选修资料',
      audienceTraineeTypeIds: [residency.id],
      minItemPercent: 100,
    });
    const link = await publishItem(
      await item(course.id, { itemType: 'link', title: '资料', url: 'https://example.org/o', isRequired: false }),
    );
    const published = (await call('POST', `${courses}/${course.id}/publish`, { version: course.version })).body;
    await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    await call('POST', `${items}/${link.id}/progress`, { traineeId: enrolled[1].id, percent: 100 });
    expect(await progressOf(course.id)).toEqual([
      ['R001', 0, 'not_started', false],
      ['R002', 100, 'completed', true],
    ]);
  });

  it('assigns an organisation audience to the trainees of its sub-organisations', async () => {
    const hospital = ((await call('GET', '/api/people/organization?keyword=H1')).body.data as Json[])[0];
    const course = await create(courses, {
      code: 'ORG-1',
      title: '全院培训',
      audienceTraineeTypeIds: [residency.id],
      audienceOrgIds: [hospital.id],
    });
    await publishItem(await item(course.id, { itemType: 'link', title: 'A', url: 'https://example.org/h' }));
    const published = (await call('POST', `${courses}/${course.id}/publish`, { version: course.version })).body;
    // the trainees are of a base under the hospital named
    const assigned = await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    expect(assigned.body.enrolled).toBe(2);
    expect((await progressOf(course.id)).map((r) => r[0])).toEqual(['R001', 'R002']);
  });

  it('enrols trainees by hand and removes an enrolment with its progress, never a completed one', async () => {
    const course = await create(courses, { code: 'ENR-1', title: '手工加入', minItemPercent: 100 });
    expect(course.enrolMode).toBe('assigned');
    const a = await publishItem(await item(course.id, { itemType: 'link', title: 'A', url: 'https://example.org/e1' }));
    const b = await publishItem(await item(course.id, { itemType: 'link', title: 'B', url: 'https://example.org/e2' }));
    // a draft takes nobody
    const early = await call('POST', `${courses}/${course.id}/enrol`, { traineeIds: [enrolled[0].id] });
    expect(early.status).toBe(409);
    await call('POST', `${courses}/${course.id}/publish`, { version: course.version });
    // one not in training refuses the whole request, named
    const applied = await call('POST', `${courses}/${course.id}/enrol`, {
      traineeIds: [enrolled[0].id, outsider.id],
    });
    expect(applied.status).toBe(400);
    expect(fieldOf(applied.body)).toEqual(['traineeIds.1']);
    expect(await progressOf(course.id)).toEqual([]);
    const both = await call('POST', `${courses}/${course.id}/enrol`, {
      traineeIds: [enrolled[0].id, enrolled[1].id],
    });
    expect(both.status).toBe(200);
    expect(both.body.count).toBe(2);
    expect(both.body.course.enrolmentCount).toBe(2);
    expect((await told(course.id)).map((m) => m.recipientId).sort()).toEqual([enrolled[0].id, enrolled[1].id].sort());
    const again = await call('POST', `${courses}/${course.id}/enrol`, { traineeIds: [enrolled[0].id] });
    expect(again.body.count).toBe(0);
    expect(await told(course.id)).toHaveLength(2);

    await call('POST', `${items}/${a.id}/progress`, { traineeId: enrolled[0].id, percent: 100 });
    await call('POST', `${items}/${b.id}/progress`, { traineeId: enrolled[0].id, percent: 100 });
    await call('POST', `${items}/${a.id}/progress`, { traineeId: enrolled[1].id, percent: 100 });
    expect(await progressOf(course.id)).toEqual([
      ['R001', 100, 'completed', true],
      ['R002', 50, 'in_progress', false],
    ]);
    // a completed enrolment stays (it is the trainee's record): the request removes no one
    const completed = await call('POST', `${courses}/${course.id}/unenrol`, {
      traineeIds: [enrolled[1].id, enrolled[0].id],
    });
    expect(completed.status).toBe(400);
    expect(fieldOf(completed.body)).toEqual(['traineeIds.1']);
    const stranger = await call('POST', `${courses}/${course.id}/unenrol`, { traineeIds: [outsider.id] });
    expect(fieldOf(stranger.body)).toEqual(['traineeIds.0']);
    expect(await progressOf(course.id)).toHaveLength(2);
    const removed = await call('POST', `${courses}/${course.id}/unenrol`, { traineeIds: [enrolled[1].id] });
    expect(removed.status).toBe(200);
    expect(removed.body.count).toBe(1);
    expect(removed.body.course.enrolmentCount).toBe(1);
    expect(await progressOf(course.id)).toEqual([['R001', 100, 'completed', true]]);
    // their progress went with them: enrolled again, they start over
    await call('POST', `${courses}/${course.id}/enrol`, { traineeIds: [enrolled[1].id] });
    await call('POST', `${items}/${b.id}/progress`, { traineeId: enrolled[1].id, percent: 100 });
    expect((await progressOf(course.id))[1]).toEqual(['R002', 50, 'in_progress', false]);
  });

  it('keeps how trainees come onto a course, and releases an item from a time', async () => {
    const bad = await call('POST', courses, { code: 'MODE-0', title: '方式', enrolMode: 'anyone' });
    expect(fieldOf(bad.body)).toEqual(['enrolMode']);
    const course = await create(courses, {
      code: 'MODE-1',
      title: '自选课程',
      enrolMode: 'self_enrol',
      availableFrom: '2026-12-01',
      availableTo: '2026-12-31',
    });
    expect(course).toMatchObject({ enrolMode: 'self_enrol', availableFrom: '2026-12-01', availableTo: '2026-12-31' });
    const backwards = await call('PUT', `${courses}/${course.id}`, {
      availableTo: '2026-11-30',
      version: course.version,
    });
    expect(fieldOf(backwards.body)).toEqual(['availableTo']);
    const listed = (await call('GET', `${courses}?enrolMode=self_enrol`)).body.data as Json[];
    expect(listed.map((c) => c.code)).toEqual(['MODE-1']);

    const dripped = await item(course.id, {
      itemType: 'link',
      title: '第二周',
      url: 'https://example.org/w2',
      availableFrom: '2026-12-08T08:00:00+08:00',
    });
    expect(dripped.availableFrom).toBe('2026-12-08T00:00:00.000Z');
    const notATime = await call('PUT', `${items}/${dripped.id}`, {
      availableFrom: 'next week',
      version: dripped.version,
    });
    expect(fieldOf(notATime.body)).toEqual(['availableFrom']);
    const cleared = await call('PUT', `${items}/${dripped.id}`, { availableFrom: null, version: dripped.version });
    expect(cleared.body.availableFrom).toBeNull();
    // a clone keeps its items' release
    await call('PUT', `${items}/${dripped.id}`, {
      availableFrom: '2026-12-15T00:00:00Z',
      version: cleared.body.version,
    });
    const copy = (await call('POST', `${courses}/${course.id}/clone`, { code: 'MODE-2', title: '副本' })).body;
    const copied = (await call('GET', `${items}?courseId=${copy.id}`)).body.data as Json[];
    expect(copied.map((i) => i.availableFrom)).toEqual(['2026-12-15T00:00:00.000Z']);
  });

  it("keeps a base's office to its own trainees: enrolments, the report, item progress and recording it", async () => {
    const org = async (keyword: string) =>
      ((await call('GET', `/api/people/organization?keyword=${keyword}`)).body.data as Json[])[0];
    const hospital = await org('H1');
    const base = await org('B1');
    const other = await create('/api/people/organization', {
      code: 'B2',
      name: '另一基地',
      orgType: 'training_base',
      parentId: hospital.id,
    });
    const made = await create(trainees, {
      name: '孙八',
      traineeTypeId: residency.id,
      trainingBaseId: other.id,
      traineeNo: 'R009',
    });
    await call('POST', `${trainees}/${made.id}/transition`, {
      to: 'in_training',
      reason: '报到',
      effectiveDate: '2026-09-01',
      version: made.version,
    });
    const course = await create(courses, { code: 'SCOPE-1', title: '分基地', audienceTraineeTypeIds: [residency.id] });
    const link = await publishItem(
      await item(course.id, { itemType: 'link', title: 'A', url: 'https://example.org/s' }),
    );
    const published = (await call('POST', `${courses}/${course.id}/publish`, { version: course.version })).body;
    await call('POST', `${courses}/${course.id}/assign`, { version: published.version });
    expect((await progressOf(course.id)).map((r) => r[0])).toEqual(['R001', 'R002', 'R009']);

    const role = await create('/api/system/role', { code: 'b1_office', name: '基地办公室' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const codes = ['teaching:course:list', 'teaching:course:export', 'teaching:course-item:list'];
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', [...codes, 'teaching:course-item:progress'])
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'b1_office',
      displayName: '基地办公室',
      password: 'Quiet-Otter-42',
      orgId: base.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'b1_office', 'Quiet-Otter-42')).access;
    const seen = (await call('GET', `${courses}/${course.id}/enrolments`, undefined, scoped)).body as Json[];
    expect(seen.map((r) => r.traineeNo)).toEqual(['R001', 'R002']);
    const report = await s.api.fetch('GET', `${courses}/${course.id}/report`, { token: scoped });
    expect((await readXlsx(await report.arrayBuffer())).slice(1).map((r) => r[0])).toEqual(['R001', 'R002']);
    const progress = (await call('GET', `${items}/${link.id}/progress`, undefined, scoped)).body as Json[];
    expect(progress.map((r) => r.traineeNo)).toEqual(['R001', 'R002']);
    const elsewhere = await call('POST', `${items}/${link.id}/progress`, { traineeId: made.id, percent: 100 }, scoped);
    expect(elsewhere.status).toBe(400);
    expect(fieldOf(elsewhere.body)).toEqual(['traineeId']);
    const own = await call('POST', `${items}/${link.id}/progress`, { traineeId: enrolled[0].id, percent: 100 }, scoped);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    // the administrator (every organisation) sees them all
    expect((await progressOf(course.id)).map((r) => [r[0], r[2]])).toEqual([
      ['R001', 'completed'],
      ['R002', 'not_started'],
      ['R009', 'not_started'],
    ]);
  });

  // last: it takes the schema back before the tree and forward again
  it("migration 0034 makes the dictionary's values each tenant's roots and puts each course in its value's", async () => {
    const reverted: string[] = [];
    while (!reverted.includes('reverted 0034_course_category_tree')) reverted.push(...(await migrateDown(s.api.db)));
    const tenant = async (code: string) =>
      String((await sql<{ id: string }>`SELECT id FROM tenant WHERE code = ${code}`.execute(s.api.db)).rows[0]?.id);
    const demo = await tenant('demo');
    // the dictionary as it was seeded, demo's own name for one value, and a value no item has
    await sql`INSERT INTO dict_type (code, name, is_system) VALUES ('course_category', '课程分类', true)`.execute(
      s.api.db,
    );
    await sql`INSERT INTO dict_item (type_code, value, label, sort) VALUES
      ('course_category', 'pre_job_training', '岗前培训', 0), ('course_category', 'clinical_skills', '临床技能', 1),
      ('course_category', 'other', '其他', 2)`.execute(s.api.db);
    await sql`INSERT INTO dict_item (tenant_id, type_code, value, label, sort) VALUES
      (${demo}, 'course_category', 'clinical_skills', '技能培训', 1),
      (${demo}, 'course_category', 'orientation', '岗前培训', 5)`.execute(s.api.db);
    await sql`UPDATE course SET category = 'pre_job_training' WHERE code = 'PRE-2026'`.execute(s.api.db);
    await sql`UPDATE course SET category = 'legacy' WHERE code = 'NONE-1'`.execute(s.api.db);
    await migrateToLatest(s.api.db);

    const roots = async (token: string) =>
      ((await call('GET', `${categories}/tree`, undefined, token)).body as Json[]).map((n) => [n.code, n.name]);
    const ours = await roots(s.demo);
    expect(ours).toEqual(
      expect.arrayContaining([
        ['pre_job_training', '岗前培训'],
        ['clinical_skills', '技能培训'],
        ['other', '其他'],
        // a name taken twice: the second is followed by its code
        ['orientation', '岗前培训 (orientation)'],
        // values of courses that no item has (a node's code, once the column held it going back)
        ['legacy', 'legacy'],
        ['prejob', 'prejob'],
      ]),
    );
    expect(ours).toHaveLength(6);
    const theirs = await roots(s.other);
    expect(theirs).toHaveLength(3);
    expect(theirs).toEqual(
      expect.arrayContaining([
        ['pre_job_training', '岗前培训'],
        ['clinical_skills', '临床技能'],
        ['other', '其他'],
      ]),
    );
    const listed = ((await call('GET', `${courses}?pageSize=100`)).body.data as Json[]).map((c) => [
      c.code,
      c.categoryName,
    ]);
    expect(listed).toEqual(
      expect.arrayContaining([
        ['PRE-2026', '岗前培训'],
        ['NONE-1', 'legacy'],
        ['GEN-2', 'prejob'],
        ['GEN-1', null],
      ]),
    );
    const left = await sql`SELECT 1 FROM dict_item WHERE type_code = 'course_category'`.execute(s.api.db);
    expect(left.rows).toEqual([]);
  });
});
