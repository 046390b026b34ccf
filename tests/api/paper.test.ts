import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCatalog } from '../../server/src/core/error-catalog';
import { pdfText } from '../support/pdf-text';
import { engines, type Json, questionReviewer, twoTenants } from './helpers';

const categories = '/api/assess/category';
const questions = '/api/assess/question';
const papers = '/api/assess/paper';

const five = (prefix: string) => 'ABCDE'.split('').map((key) => ({ key, text: `${prefix}${key}` }));

describe.each(engines())('exam papers on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let cardio: Json;
  let surgery: Json;
  const ready: Json[] = [];
  let draft: Json;
  /** Who approves the questions the administrator writes (an author may not approve their own), in each tenant. */
  let reviewer = '';
  let theirReviewer = '';

  const fieldOf = (body: Json) => (body.fields ?? []).map((e: Json) => e.field);

  /** A question taken to ready (submitted and approved). */
  const readyQuestion = async (categoryId: string, stem: string, extra: Json = {}) => {
    const made = await create(questions, {
      categoryId,
      questionType: 'single_choice',
      medicalFormat: 'A1',
      stem,
      options: five(stem),
      answer: ['B'],
      difficulty: 3,
      ...extra,
    });
    const sent = await call('POST', `${questions}/${made.id}/submit`, { version: made.version });
    const done = await call(
      'POST',
      `${questions}/${made.id}/review`,
      { decision: 'approve', version: sent.body.version },
      reviewer,
    );
    expect(done.body.status).toBe('ready');
    return done.body as Json;
  };

  beforeAll(async () => {
    reviewer = await questionReviewer(s.api, 'demo', s.demo);
    theirReviewer = await questionReviewer(s.api, 'demo2', s.other);
    const internal = await create(categories, { code: 'internal', name: '内科学' });
    cardio = await create(categories, { code: 'cardio', name: '心血管', parentId: internal.id });
    surgery = await create(categories, { code: 'surgery', name: '外科学' });
    for (let i = 0; i < 6; i++)
      ready.push(
        await readyQuestion(cardio.id, `心血管题${i}`, { tags: i % 2 ? ['高频'] : [], difficulty: 2 + (i % 3) }),
      );
    ready.push(await readyQuestion(surgery.id, '外科题'));
    draft = await create(questions, {
      categoryId: cardio.id,
      questionType: 'true_false',
      stem: '草稿题',
      answer: true,
    });
    // another tenant's ready questions of the same shape are never drawn
    const theirs = await call('POST', categories, { code: 'internal', name: '内科学' }, s.other);
    for (let i = 0; i < 3; i++) {
      const q = await call(
        'POST',
        questions,
        {
          categoryId: theirs.body.id,
          questionType: 'single_choice',
          stem: `他人题${i}`,
          options: five('x'),
          answer: ['A'],
        },
        s.other,
      );
      const sent = await call('POST', `${questions}/${q.body.id}/submit`, { version: q.body.version }, s.other);
      await call(
        'POST',
        `${questions}/${q.body.id}/review`,
        { decision: 'approve', version: sent.body.version },
        theirReviewer,
      );
    }
  });

  it('says how many questions each rule may draw, and refuses a rule that cannot be met', async () => {
    const check = await call('POST', `${papers}/check-rules`, {
      rules: [
        { categoryIds: [cardio.id], count: 2, score: 2 },
        { categoryIds: [cardio.id], tags: ['高频'], count: 5, score: 2 },
        { count: 1, score: 1, difficultyMin: 4, difficultyMax: 4 },
        { categoryIds: [cardio.id], count: 1, score: 1, includeSubcategories: false, questionType: 'true_false' },
      ],
      excludeQuestionIds: [ready[0].id],
    });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    // the root's sub-category counts; the draft and the other tenant's do not; the excluded one is left out
    expect(check.body.map((r: Json) => r.available)).toEqual([5, 3, 2, 0]);

    const refused = await call('POST', papers, {
      code: 'P-SHORT',
      title: '不够',
      composeMode: 'random_per_candidate',
      passScore: 6,
      durationMinutes: 60,
      sections: [{ title: 'A1', rules: [{ categoryIds: [cardio.id], tags: ['高频'], count: 4, score: 2 }] }],
    });
    expect(refused.status).toBe(400);
    expect(fieldOf(refused.body)).toEqual(['sections.0.rules.0.count']);
    expect(refused.body.fields[0].message).toContain('3');

    const manual = await call('POST', papers, {
      code: 'P-MANUAL',
      title: '固定',
      passScore: 1,
      durationMinutes: 60,
      sections: [{ title: 'A1', rules: [{ count: 1, score: 1 }] }],
    });
    expect(fieldOf(manual.body)).toEqual(['composeMode']);
  });

  let paper: Json;
  it('composes a paper of a manual and a random section, with its totals', async () => {
    const twice = await call('POST', papers, {
      code: 'P1',
      title: '心血管出科考核',
      passScore: 6,
      durationMinutes: 90,
      sections: [
        {
          title: 'A1',
          slots: [
            { questionId: ready[0].id, score: 2 },
            { questionId: ready[0].id, score: 2 },
          ],
        },
      ],
    });
    expect(fieldOf(twice.body)).toEqual(['sections.0.slots.1.questionId']);

    paper = await create(papers, {
      code: 'P1',
      title: '心血管出科考核',
      purpose: 'department_exit',
      composeMode: 'random_per_candidate',
      passScore: 6,
      durationMinutes: 90,
      sections: [
        {
          title: 'A1 型题',
          defaultScore: 2,
          slots: [
            { questionId: ready[0].id, score: 2 },
            { questionId: draft.id, score: 1 },
          ],
        },
        { title: '随机题', rules: [{ categoryIds: [cardio.id], count: 3, score: 2 }] },
      ],
    });
    expect(paper).toMatchObject({ status: 'draft', totalScore: 9, questionCount: 5, sectionCount: 2 });
    expect(paper.sections[0].slots.map((slot: Json) => [slot.code, slot.questionVersion])).toEqual([
      [ready[0].code, null],
      [draft.code, null],
    ]);
    expect(paper.sections[1].rules[0]).toMatchObject({ count: 3, available: 5, includeSubcategories: true });
  });

  it('refuses to publish while a question is not ready, and to save a pass mark above the total', async () => {
    const notReady = await call('POST', `${papers}/${paper.id}/publish`, { version: paper.version });
    expect(notReady.status).toBe(400);
    expect(fieldOf(notReady.body)).toEqual(['sections.0.slots.1.questionId']);

    const over = await call('PUT', `${papers}/${paper.id}`, {
      passScore: 20,
      sections: [
        { title: 'A1 型题', slots: [{ questionId: ready[0].id, score: 2 }] },
        { title: '随机题', rules: [{ categoryIds: [cardio.id], count: 3, score: 2 }] },
      ],
      version: paper.version,
    });
    // a pass mark above the total is refused on save already, naming it; nothing changes
    expect(over.status, JSON.stringify(over.body)).toBe(400);
    expect(fieldOf(over.body)).toEqual(['passScore']);
    expect(over.body.fields[0].message).toContain('8');
    expect((await call('GET', `${papers}/${paper.id}`)).body).toMatchObject({ passScore: 6, totalScore: 9 });
    const alone = await call('PUT', `${papers}/${paper.id}`, { passScore: 10, version: paper.version });
    expect(fieldOf(alone.body)).toEqual(['passScore']);
    const fixed = await call('PUT', `${papers}/${paper.id}`, {
      passScore: 5,
      sections: [
        { title: 'A1 型题', slots: [{ questionId: ready[0].id, score: 2 }] },
        { title: '随机题', rules: [{ categoryIds: [cardio.id], count: 3, score: 2 }] },
      ],
      version: paper.version,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.totalScore).toBe(8);
    paper = fixed.body;
  });

  it('draws the random rules with a seed, the same for the same seed, never another tenant’s', async () => {
    const one = await call('GET', `${papers}/${paper.id}/preview?seed=7`);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const drawn = one.body.sections[1].questions;
    expect(drawn).toHaveLength(3);
    expect(drawn.every((q: Json) => q.drawn && q.stem.startsWith('心血管题'))).toBe(true);
    expect(drawn.map((q: Json) => q.id)).not.toContain(ready[0].id);
    const again = await call('GET', `${papers}/${paper.id}/preview?seed=7`);
    expect(again.body.sections[1].questions.map((q: Json) => q.id)).toEqual(drawn.map((q: Json) => q.id));
  });

  it.each([
    ['a Word document', 'export-word'],
    ['a PDF', 'export-pdf'],
  ])("exports the paper as %s as a candidate gets it, and the teacher's copy with the answers", async (_, action) => {
    const textOf = async (answers: boolean) => {
      const res = await s.api.fetch('GET', `${papers}/${paper.id}/${action}?seed=7&answers=${answers}`, {
        token: s.demo,
      });
      expect(res.status).toBe(200);
      if (action === 'export-pdf') {
        expect(res.headers.get('content-type')).toBe('application/pdf');
        expect(res.headers.get('content-disposition')).toContain(answers ? 'P1-key.pdf' : 'P1.pdf');
        const { pages, text } = await pdfText(await res.arrayBuffer());
        expect(pages).toBeGreaterThan(0);
        return text;
      }
      expect(res.headers.get('content-type')).toContain('wordprocessingml');
      const zip = await JSZip.loadAsync(await res.arrayBuffer());
      const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
      return xml.replace(/<[^>]+>/g, '');
    };
    const candidate = await textOf(false);
    const preview = (await call('GET', `${papers}/${paper.id}/preview?seed=7`)).body;
    expect(candidate).toContain('心血管出科考核');
    for (const q of preview.sections[1].questions) expect(candidate).toContain(q.stem);
    expect(candidate).toContain(`B. ${ready[0].stem}B`);
    expect(candidate).not.toContain('答案');
    // the candidate's copy has lines for their name and candidate number, at its head
    expect(candidate.split('\n')[0]).toMatch(/姓名：_+\s*考号：_+/);
    const key = await textOf(true);
    expect(key).not.toContain('考号');
    expect(key).toContain('（含答案）');
    expect(key).toContain('答案：B');
    expect((await call('GET', `${papers}/${paper.id}/${action}`, undefined, s.viewer)).status).toBe(403);
    expect((await call('GET', `${papers}/${paper.id}/${action}`, undefined, s.other)).status).toBe(404);
  });

  it('pins the versions at publish: a question edited later leaves the paper as it was', async () => {
    const published = await call('POST', `${papers}/${paper.id}/publish`, { version: paper.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.status).toBe('published');
    expect(published.body.sections[0].slots[0].questionVersion).toBe(1);

    const edited = await call('PUT', `${questions}/${ready[0].id}`, {
      stem: '心血管题0（修订）',
      version: (await call('GET', `${questions}/${ready[0].id}`)).body.version,
    });
    expect(edited.body.currentVersion).toBe(2);
    const view = await call('GET', `${papers}/${paper.id}/preview`);
    expect(view.body.sections[0].questions[0]).toMatchObject({ stem: '心血管题0', version: 1 });
    const structure = await call('GET', `${papers}/${paper.id}`);
    expect(structure.body.sections[0].slots[0]).toMatchObject({ stem: '心血管题0', questionVersion: 1 });

    const uses = await call('GET', `${questions}/${ready[0].id}/papers`);
    expect(uses.body).toEqual([
      { paperId: paper.id, code: 'P1', title: '心血管出科考核', status: 'published', questionVersion: 1 },
    ]);

    const frozen = await call('PUT', `${papers}/${paper.id}`, { title: '改名', version: published.body.version });
    expect(frozen.status).toBe(409);
    expect(frozen.body.code).toBe('paper.notAllowed');
    // the status as the console names it, not its code
    expect(frozen.body.message).toBe(
      'This cannot be done to a paper that is published (a published paper is cloned to be changed)',
    );
    expect(new ErrorCatalog().message('paper.notAllowed', 'zh-CN', { status: 'published' })).toBe(
      '试卷处于“已发布”状态，不能进行此操作（已发布的试卷可复制后修改）',
    );
    expect((await call('DELETE', `${papers}/${paper.id}`)).status).toBe(409);
    const inUse = await call('DELETE', `${questions}/${ready[0].id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('question.inUse');
    paper = published.body;
  });

  it('clones a published paper into a draft to change it, and closes the published one', async () => {
    const copy = await call('POST', `${papers}/${paper.id}/clone`, { code: 'P1-2', title: '心血管出科考核（二）' });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
    expect(copy.body).toMatchObject({
      status: 'draft',
      totalScore: 8,
      passScore: 5,
      composeMode: 'random_per_candidate',
    });
    expect(copy.body.sections[0].slots[0].questionVersion).toBeNull();
    const closed = await call('POST', `${papers}/${paper.id}/close`, { version: paper.version });
    expect(closed.body.status).toBe('closed');
  });

  it('draws a random-once paper at publish, the same questions for every candidate', async () => {
    const once = await create(papers, {
      code: 'P-ONCE',
      title: '统一抽题',
      composeMode: 'random_once',
      passScore: 2,
      durationMinutes: 30,
      sections: [{ title: '随机', rules: [{ categoryIds: [cardio.id], count: 2, score: 2 }] }],
    });
    const published = await call('POST', `${papers}/${once.id}/publish`, { version: once.version });
    expect(published.body.sections[0].slots).toHaveLength(2);
    expect(published.body.sections[0].slots.every((slot: Json) => slot.questionVersion !== null)).toBe(true);
    const a = await call('GET', `${papers}/${once.id}/preview?seed=1`);
    const b = await call('GET', `${papers}/${once.id}/preview?seed=99`);
    expect(a.body.sections[0].questions.map((q: Json) => q.id)).toEqual(
      b.body.sections[0].questions.map((q: Json) => q.id),
    );
  });

  it("never shows another tenant's papers", async () => {
    expect((await call('GET', papers, undefined, s.other)).body.total).toBe(0);
    expect((await call('GET', `${papers}/${paper.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${papers}/${paper.id}/preview`, undefined, s.other)).status).toBe(404);
    const foreign = await call(
      'POST',
      papers,
      {
        code: 'X',
        title: '偷题',
        passScore: 1,
        durationMinutes: 10,
        sections: [{ title: 'a', slots: [{ questionId: ready[1].id, score: 1 }] }],
      },
      s.other,
    );
    expect(fieldOf(foreign.body)).toEqual(['sections.0.slots.0.questionId']);
  });

  it('counts how a question is used, and names the draft papers whose rules may draw it', async () => {
    const root = await create(categories, { code: 'stats', name: '统计' });
    const leaf = await create(categories, { code: 'stats-leaf', name: '统计子类', parentId: root.id });
    const q = await readyQuestion(leaf.id, '统计题', { difficulty: 3 });
    const q2 = await readyQuestion(root.id, '统计题二', { difficulty: 5 });
    const random = (code: string, sections: Json[]) =>
      create(papers, {
        code,
        title: code,
        composeMode: 'random_per_candidate',
        passScore: 1,
        durationMinutes: 30,
        sections,
      });
    const rule = (extra: Json) => ({ categoryIds: [root.id], count: 1, score: 1, ...extra });
    // with the sub-categories, at difficulty 3: q
    const d1 = await random('S-D1', [{ title: 'a', rules: [rule({ difficultyMin: 3, difficultyMax: 3 })] }]);
    // the root alone: q2
    const d2 = await random('S-D2', [{ title: 'a', rules: [rule({ includeSubcategories: false })] }]);
    // difficulty 5: q2
    const d3 = await random('S-D3', [{ title: 'a', rules: [rule({ difficultyMin: 5 })] }]);
    // q placed by hand is not drawn again: the rule may draw q2 only
    const d4 = await random('S-D4', [
      { title: 'a', slots: [{ questionId: q.id, score: 1 }] },
      { title: 'b', rules: [rule({})] },
    ]);
    const p = await create(papers, {
      code: 'S-P',
      title: '统计试卷',
      passScore: 1,
      durationMinutes: 30,
      sections: [{ title: 'a', slots: [{ questionId: q.id, score: 1 }] }],
    });
    expect((await call('POST', `${papers}/${p.id}/publish`, { version: p.version })).status).toBe(200);

    const stats = await call('GET', `${questions}/${q.id}/statistics`);
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    expect(stats.body).toMatchObject({
      usageCount: 1,
      versionCount: 1,
      papers: { draft: 1, published: 1, closed: 0 },
      drawableBy: [{ paperId: d1.id, code: 'S-D1', title: 'S-D1' }],
    });
    expect(Date.parse(stats.body.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
    // the rules' own check agrees: d1's rule may draw q alone
    const check = await call('POST', `${papers}/check-rules`, {
      rules: [rule({ difficultyMin: 3, difficultyMax: 3 })],
    });
    expect(check.body[0].available).toBe(1);

    const other = await call('GET', `${questions}/${q2.id}/statistics`);
    expect(other.body).toMatchObject({
      usageCount: 0,
      papers: { draft: 0, published: 0, closed: 0 },
      lastUsedAt: null,
    });
    expect(other.body.drawableBy.map((d: Json) => d.paperId)).toEqual([d4.id, d3.id, d2.id]);
    // a question that is not ready is never drawn
    expect((await call('GET', `${questions}/${draft.id}/statistics`)).body.drawableBy).toEqual([]);
    expect((await call('GET', `${questions}/${q.id}/statistics`, undefined, s.other)).status).toBe(404);
  });

  /** A category of its own with ready questions of these difficulties. */
  const pool = async (code: string, difficulties: number[]) => {
    const category = await create(categories, { code, name: code });
    const made: Json[] = [];
    for (const [i, difficulty] of difficulties.entries())
      made.push(await readyQuestion(category.id, `${code}题${i}`, { difficulty }));
    return { category, made };
  };
  const randomPaper = (code: string, sections: Json[], composeMode = 'random_per_candidate', passScore = 1) =>
    call('POST', papers, { code, title: code, composeMode, passScore, durationMinutes: 30, sections });

  it('names why a fixed question stops a publish: a hidden one is hidden, not "not approved"', async () => {
    const { made } = await pool('hid', [2]);
    const held = await randomPaper('HID', [{ title: 'a', slots: [{ questionId: made[0].id, score: 1 }] }], 'manual');
    await call('POST', `${questions}/bulk-update`, { ids: [made[0].id], status: 'hidden' });
    const refused = await call('POST', `${papers}/${held.body.id}/publish`, { version: held.body.version });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([
      {
        field: 'sections.0.slots.0.questionId',
        message: `question ${made[0].code} is hidden: the paper cannot be published`,
      },
    ]);
  });

  it('checks the rules of a paper together: rules that may draw the same questions share them', async () => {
    const { category, made } = await pool('joint', [1, 2, 3]);
    const rule = (count: number, extra: Json = {}) => ({ categoryIds: [category.id], count, score: 1, ...extra });
    const check = await call('POST', `${papers}/check-rules`, { rules: [rule(3), rule(3)] });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body).toEqual([
      { requested: 3, available: 3, together: { rules: [0, 1], available: 3, requested: 6 } },
      { requested: 3, available: 3, together: { rules: [0, 1], available: 3, requested: 6 } },
    ]);
    // rules that never share a question are met each on its own
    const apart = await call('POST', `${papers}/check-rules`, {
      rules: [rule(1, { difficultyMax: 1 }), rule(2, { difficultyMin: 2 })],
    });
    expect(apart.body.map((r: Json) => r.together)).toEqual([undefined, undefined]);

    // two sections each drawing 3 of the same 3: refused, naming the rule and the other one
    const two = await randomPaper('J-TWO', [
      { title: 'a', rules: [rule(3)] },
      { title: 'b', rules: [rule(3)] },
    ]);
    expect(two.status).toBe(400);
    expect(fieldOf(two.body)).toEqual(['sections.0.rules.0.count']);
    expect(two.body.fields[0].message).toMatch(/rule 1 of section 2.*3.*6/);
    // a question placed by hand is not drawn: it leaves the rules fewer
    const placed = await randomPaper('J-PLACED', [
      { title: 'a', slots: [{ questionId: made[0].id, score: 1 }] },
      { title: 'b', rules: [rule(1), rule(2)] },
    ]);
    expect(fieldOf(placed.body)).toEqual(['sections.1.rules.0.count']);
    // random-once, two rules of 2 over 3: refused (it would publish 3 questions said to be 4)
    const once = await randomPaper('J-ONCE', [{ title: 'a', rules: [rule(2), rule(2)] }], 'random_once');
    expect(fieldOf(once.body)).toEqual(['sections.0.rules.0.count']);

    // a rule of the whole category and one of its hardest question: met together only when the first leaves that
    // question to the second, which every draw does
    const fits = await randomPaper('J-FITS', [
      { title: 'a', rules: [rule(2)] },
      { title: 'b', rules: [rule(1, { difficultyMin: 3 })] },
    ]);
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const drawn = (await call('GET', `${papers}/${fits.body.id}/preview?seed=${seed}`)).body;
      const ids = drawn.sections.flatMap((sec: Json) => sec.questions.map((q: Json) => q.id));
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      expect(drawn.sections[1].questions[0].id).toBe(made[2].id);
    }
    const onceFits = await randomPaper(
      'J-ONCE-FITS',
      [{ title: 'a', rules: [rule(2), rule(1, { difficultyMin: 3 })] }],
      'random_once',
    );
    const published = await call('POST', `${papers}/${onceFits.body.id}/publish`, { version: onceFits.body.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ questionCount: 3, totalScore: 3 });
    expect(new Set(published.body.sections[0].slots.map((slot: Json) => slot.questionId)).size).toBe(3);

    // a draft whose bank has lost a question: its draw is refused by the rule's field, never short
    const hidden = await call('POST', `${questions}/bulk-update`, { ids: [made[0].id], status: 'hidden' });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    // its rules, read again, say they no longer can be met together
    const reread = (await call('GET', `${papers}/${fits.body.id}`)).body;
    expect(reread.sections[0].rules[0].together).toEqual({ rules: [0, 1], available: 2, requested: 3 });
    const short = await call('GET', `${papers}/${fits.body.id}/preview?seed=1`);
    expect(short.status).toBe(400);
    expect(fieldOf(short.body)[0]).toMatch(/^sections\.[01]\.rules\.0\.count$/);
    const publishShort = await call('POST', `${papers}/${fits.body.id}/publish`, { version: fits.body.version });
    expect(publishShort.status).toBe(400);
  });

  it('pins the pool of a published random paper: later edits to the bank never change its draws', async () => {
    const { category, made } = await pool('pin', [2, 2, 3, 3]);
    const paperMade = await randomPaper('PIN', [
      { title: 'a', rules: [{ categoryIds: [category.id], count: 2, score: 1 }] },
    ]);
    const published = await call('POST', `${papers}/${paperMade.body.id}/publish`, { version: paperMade.body.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const id = published.body.id;
    const draws = async () => {
      const out: Json[] = [];
      for (const seed of [1, 2, 3, 4, 5, 6]) out.push((await call('GET', `${papers}/${id}/preview?seed=${seed}`)).body);
      return out;
    };
    const exported = async () => {
      const res = await s.api.fetch('GET', `${papers}/${id}/export-word?seed=3&answers=true`, { token: s.demo });
      const zip = await JSZip.loadAsync(await res.arrayBuffer());
      return ((await zip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    };
    const before = await draws();
    const wordBefore = await exported();
    const drawn = before[2].sections[0].questions.map((q: Json) => q.id);
    const edited = made.find((q) => q.id === drawn[0]) as Json;
    const hiddenOne = made.find((q) => q.id === drawn[1]) as Json;
    const current = (await call('GET', `${questions}/${edited.id}`)).body;
    const edit = await call('PUT', `${questions}/${edited.id}`, { stem: '改过的题干', version: current.version });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await call('POST', `${questions}/bulk-update`, { ids: [hiddenOne.id], status: 'hidden' })).status).toBe(
      200,
    );
    // a question added to the category later is never drawn by it
    await readyQuestion(category.id, 'pin 后加的题', { difficulty: 2 });
    expect(await draws()).toEqual(before);
    expect(await exported()).toBe(wordBefore);
    expect(wordBefore).not.toContain('改过的题干');
    // a question the published paper may draw is kept in the bank
    const removed = await call('DELETE', `${questions}/${made.find((q) => !drawn.includes(q.id))?.id}`);
    expect(removed.status).toBe(409);
  });

  it('draws a mix of difficulties: how many of each level, checked level by level', async () => {
    const { category, made } = await pool('mix', [1, 1, 3, 3, 5]);
    const rule = (count: number, difficultyMix: Json) => ({
      categoryIds: [category.id],
      count,
      score: 1,
      difficultyMix,
    });
    const check = await call('POST', `${papers}/check-rules`, { rules: [rule(3, { 1: 2, 3: 1 }), rule(2, { 5: 2 })] });
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body[0]).toMatchObject({ requested: 3, available: 4, levels: { 1: 2, 3: 2 } });
    expect(check.body[1]).toMatchObject({ requested: 2, available: 1, levels: { 5: 1 } });

    const short = await randomPaper('MIX-SHORT', [{ title: 'a', rules: [rule(2, { 5: 2 })] }]);
    expect(fieldOf(short.body)).toEqual(['sections.0.rules.0.difficultyMix.5']);
    const sum = await randomPaper('MIX-SUM', [{ title: 'a', rules: [rule(3, { 1: 1, 3: 1 })] }]);
    expect(fieldOf(sum.body)).toEqual(['sections.0.rules.0.difficultyMix']);
    // a mix and a range over the same questions share them too
    const shared = await randomPaper('MIX-SHARED', [
      {
        title: 'a',
        rules: [rule(3, { 1: 2, 3: 1 }), { categoryIds: [category.id], count: 2, score: 1, difficultyMax: 1 }],
      },
    ]);
    expect(fieldOf(shared.body)[0]).toMatch(/^sections\.0\.rules\.[01]\.count$/);

    const ok = await randomPaper('MIX', [{ title: 'a', rules: [rule(3, { 1: 2, 3: 1 })] }]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.sections[0].rules[0]).toMatchObject({ difficultyMix: { 1: 2, 3: 1 }, count: 3 });
    expect(ok.body).toMatchObject({ totalScore: 3, questionCount: 3 });
    const easy = made.slice(0, 2).map((q) => q.id);
    const middle = made.slice(2, 4).map((q) => q.id);
    for (const seed of [1, 2, 3, 4]) {
      const ids = (await call('GET', `${papers}/${ok.body.id}/preview?seed=${seed}`)).body.sections[0].questions.map(
        (q: Json) => q.id,
      );
      expect(ids.filter((x: string) => easy.includes(x))).toHaveLength(2);
      expect(ids.filter((x: string) => middle.includes(x))).toHaveLength(1);
    }
  });

  it('shuffles the questions and the options by the seed when the paper says so, the answers following the letters', async () => {
    const { category, made } = await pool('shuffle', [1, 2, 3, 4, 5]);
    const b1 = await create(questions, {
      categoryId: category.id,
      questionType: 'option_group',
      medicalFormat: 'B1',
      stem: '共用备选答案',
      options: five('共用'),
      children: [
        { stem: '第一小题', answer: ['A'] },
        { stem: '第二小题', answer: ['D'] },
      ],
    });
    expect(b1.children).toHaveLength(2);
    const placed = [...made.map((q) => q.id), b1.id];
    const shuffling = await create(papers, {
      code: 'SHUFFLE',
      title: '乱序',
      passScore: 1,
      durationMinutes: 30,
      shuffleQuestions: true,
      shuffleOptions: true,
      sections: [{ title: 'a', slots: placed.map((questionId) => ({ questionId, score: 1 })) }],
    });
    const previewOf = async (seed: number) =>
      (await call('GET', `${papers}/${shuffling.id}/preview?seed=${seed}`)).body.sections[0].questions as Json[];
    const orders: string[][] = [];
    let moved = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const qs = await previewOf(seed);
      expect(await previewOf(seed)).toEqual(qs);
      orders.push(qs.map((q) => q.id));
      expect([...qs.map((q) => q.id)].sort()).toEqual([...placed].sort());
      for (const q of qs) {
        // the options relabelled A, B, C… in their new places; the answer is the same option at its new letter
        expect(q.options.map((o: Json) => o.key)).toEqual(['A', 'B', 'C', 'D', 'E']);
        if (q.questionType === 'option_group') {
          const textOf = (key: string) => q.options.find((o: Json) => o.key === key).text;
          expect(q.children.map((c: Json) => textOf(c.answer[0]))).toEqual(['共用A', '共用D']);
          continue;
        }
        const correct = q.options.find((o: Json) => o.key === q.answer[0]);
        expect(correct.text).toBe(`${q.stem}B`);
        if (q.answer[0] !== 'B') moved++;
      }
    }
    expect(moved).toBeGreaterThan(0);
    expect(orders.some((order) => order.join() !== placed.join())).toBe(true);
    expect(new Set(orders.map((o) => o.join())).size).toBeGreaterThan(1);

    // a question's options are in the same order whatever else the paper holds
    const fewer = await create(papers, {
      code: 'SHUFFLE-2',
      title: '乱序（少题）',
      passScore: 1,
      durationMinutes: 30,
      shuffleOptions: true,
      sections: [{ title: 'a', slots: placed.slice(1, 3).map((questionId) => ({ questionId, score: 1 })) }],
    });
    for (const seed of [1, 2, 3]) {
      const all = await previewOf(seed);
      const some = (await call('GET', `${papers}/${fewer.id}/preview?seed=${seed}`)).body.sections[0]
        .questions as Json[];
      for (const q of some)
        expect(q.options.map((o: Json) => o.text)).toEqual(
          all.find((a) => a.id === q.id)?.options.map((o: Json) => o.text),
        );
    }

    // the exports are the same shuffle: the options at their new letters, the key's answers at them too
    const shown = await previewOf(3);
    const first = shown[0].questionType === 'option_group' ? shown[1] : shown[0];
    const res = await s.api.fetch('GET', `${papers}/${shuffling.id}/export-word?seed=3&answers=true`, {
      token: s.demo,
    });
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const text = ((await zip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    for (const option of first.options) expect(text).toContain(`${option.key}. ${option.text}`);
    expect(text.indexOf(shown[0].stem)).toBeLessThan(text.indexOf(shown[shown.length - 1].stem));
    expect(text).toContain(`答案：${first.answer[0]}`);
  });

  it("keeps a role of an organisation's data scope to the papers its organisation's users made", async () => {
    const hospital = await create('/api/people/organization', { code: 'PH', name: '试卷医院', orgType: 'hospital' });
    const dept = await create('/api/people/organization', {
      code: 'PD',
      name: '试卷科室',
      orgType: 'department',
      parentId: hospital.id,
    });
    const role = await create('/api/system/role', { code: 'paper_office', name: '科室试卷' });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope: 'org' });
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where('code', 'in', [
          'assess:paper:list',
          'assess:paper:create',
          'assess:paper:export-word',
          'assess:paper:clone',
        ])
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: 'paper_office',
      displayName: '科室试卷',
      password: 'Quiet-Otter-42',
      orgId: dept.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    const scoped = (await s.api.tokens('demo', 'paper_office', 'Quiet-Otter-42')).access;
    const mine = await call(
      'POST',
      papers,
      {
        code: 'SCOPE-MINE',
        title: '科室自己的卷',
        passScore: 1,
        durationMinutes: 30,
        sections: [{ title: 'a', slots: [{ questionId: ready[1].id, score: 1 }] }],
      },
      scoped,
    );
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const seen = (await call('GET', `${papers}?pageSize=100`, undefined, scoped)).body;
    expect(seen.data.map((p: Json) => p.code)).toEqual(['SCOPE-MINE']);
    // the others' papers are not found by it, nor previewed, exported or cloned
    expect((await call('GET', `${papers}/${paper.id}`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${papers}/${paper.id}/preview`, undefined, scoped)).status).toBe(404);
    expect((await call('GET', `${papers}/${paper.id}/export-word`, undefined, scoped)).status).toBe(404);
    const copy = await call('POST', `${papers}/${paper.id}/clone`, { code: 'SCOPE-C', title: 'c' }, scoped);
    expect(copy.status).toBe(404);
    expect((await call('GET', `${papers}/${mine.body.id}/preview`, undefined, scoped)).status).toBe(200);
    // a role that sees everything sees its paper too
    expect((await call('GET', `${papers}/${mine.body.id}`)).status).toBe(200);
  });
});
