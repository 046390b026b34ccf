import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, questionReviewer, twoTenants } from './helpers';

const categories = '/api/assess/category';
const questions = '/api/assess/question';
const papers = '/api/assess/paper';

const five = (prefix: string) => 'ABCDE'.split('').map((key) => ({ key, text: `${prefix}${key}` }));

/** A paper's delivery settings, section constraints, group scoring and "not used lately" (docs/domain.md §9.2). */
describe.each(engines())('exam paper settings on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let reviewer = '';
  let bank: Json;
  let spare: Json;
  const singles: Json[] = [];
  let group: Json;
  let caseAnalysis: Json;
  let trueFalse: Json;

  const fieldOf = (body: Json) => (body.fields ?? []).map((e: Json) => e.field);

  const ready = async (body: Json) => {
    const made = await create(questions, { difficulty: 3, ...body });
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
  const single = (categoryId: string, stem: string) =>
    ready({ categoryId, questionType: 'single_choice', medicalFormat: 'A1', stem, options: five(stem), answer: ['B'] });

  /** A draft paper of one section; `extra` adds settings, `section` what the section holds. */
  const paperBody = (code: string, section: Json, extra: Json = {}) => ({
    code,
    title: `试卷 ${code}`,
    passScore: 1,
    durationMinutes: 60,
    ...extra,
    sections: [{ title: '第一部分', ...section }],
  });

  beforeAll(async () => {
    reviewer = await questionReviewer(s.api, 'demo', s.demo);
    bank = await create(categories, { code: 'settings', name: '设置题库' });
    spare = await create(categories, { code: 'unused', name: '久未使用' });
    for (let i = 0; i < 3; i++) singles.push(await single(bank.id, `单选题${i}`));
    group = await ready({
      categoryId: bank.id,
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '男，56岁，胸痛3小时。',
      children: [0, 1, 2].map((i) => ({ stem: `小题${i}`, options: five(`小题${i}`), answer: ['A'] })),
    });
    caseAnalysis = await ready({
      categoryId: bank.id,
      questionType: 'case_analysis',
      medicalFormat: 'CASE',
      stem: '女，30岁，发热咳嗽一周。',
      children: [0, 1].map((i) => ({ stem: `第${i + 1}问`, options: five(`问${i}`), answer: ['A', 'C'] })),
    });
    trueFalse = await ready({
      categoryId: bank.id,
      questionType: 'true_false',
      stem: '阿司匹林抗血小板',
      answer: true,
    });
  });

  it('keeps the delivery settings, defaults for the ones left out, and a clone copies them', async () => {
    const plain = await create(papers, paperBody('S-DEFAULT', { slots: [{ questionId: singles[0].id, score: 2 }] }));
    expect(plain).toMatchObject({
      openAt: null,
      closeAt: null,
      maxAttempts: 0,
      gradeMethod: 'highest',
      navigation: 'free',
      overdueHandling: 'auto_submit',
      graceSeconds: null,
      showResult: 'after_close',
      reviewOptions: { answers: false, analysis: false, scores: true },
      antiCheat: { fullscreen: false, maxBlurCount: 0, disableCopyPaste: false, randomizePerCandidate: false },
      groupScoring: 'per_item',
    });

    const settings = {
      openAt: '2026-12-01T08:00:00+08:00',
      closeAt: '2026-12-01T10:00:00+08:00',
      maxAttempts: 2,
      gradeMethod: 'latest',
      navigation: 'sequential',
      overdueHandling: 'grace_period',
      graceSeconds: 120,
      showResult: 'manual',
      reviewOptions: { answers: true, analysis: true, scores: true },
      antiCheat: { fullscreen: true, maxBlurCount: 3, disableCopyPaste: true, randomizePerCandidate: true },
      groupScoring: 'split',
    };
    const made = await create(
      papers,
      paperBody(
        'S-ALL',
        { sequential: true, shuffleQuestions: true, slots: [{ questionId: singles[0].id, score: 2 }] },
        settings,
      ),
    );
    const read = (await call('GET', `${papers}/${made.id}`)).body;
    expect(read).toMatchObject({
      ...settings,
      openAt: '2026-12-01T00:00:00.000Z',
      closeAt: '2026-12-01T02:00:00.000Z',
    });
    expect(read.sections[0]).toMatchObject({ sequential: true, shuffleQuestions: true });

    // another handling than a grace period keeps no seconds
    const changed = await call('PUT', `${papers}/${made.id}`, {
      overdueHandling: 'auto_submit',
      version: read.version,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ overdueHandling: 'auto_submit', graceSeconds: null, maxAttempts: 2 });

    const clone = await call('POST', `${papers}/${made.id}/clone`, { code: 'S-ALL-2', title: '复制' });
    expect(clone.status, JSON.stringify(clone.body)).toBe(201);
    expect(clone.body).toMatchObject({
      ...settings,
      overdueHandling: 'auto_submit',
      graceSeconds: null,
      openAt: '2026-12-01T00:00:00.000Z',
      closeAt: '2026-12-01T02:00:00.000Z',
    });
    expect(clone.body.sections[0]).toMatchObject({ sequential: true, shuffleQuestions: true });
  });

  it("shuffles a section's questions its own way, whatever the paper says", async () => {
    const slots = [...singles, trueFalse].map((q) => ({ questionId: q.id, score: 1 }));
    const order = async (shuffleQuestions: boolean, own: boolean | null) => {
      const made = await create(papers, {
        ...paperBody(`S-SHUF-${shuffleQuestions}-${own}`, { slots, shuffleQuestions: own }),
        shuffleQuestions,
      });
      const seen = new Set<string>();
      for (let seed = 1; seed <= 8; seed++) {
        const preview = (await call('GET', `${papers}/${made.id}/preview?seed=${seed}`)).body;
        seen.add(preview.sections[0].questions.map((q: Json) => q.id).join());
      }
      return seen;
    };
    const placed = slots.map((slot) => slot.questionId).join();
    expect([...(await order(true, false))]).toEqual([placed]);
    expect((await order(false, true)).size).toBeGreaterThan(1);
    expect((await order(true, null)).size).toBeGreaterThan(1);
  });

  it.each([
    [{ openAt: '2026-12-01T10:00:00Z', closeAt: '2026-12-01T10:00:00Z' }, 'closeAt'],
    [{ overdueHandling: 'grace_period' }, 'graceSeconds'],
    [{ overdueHandling: 'grace_period', graceSeconds: 0 }, 'graceSeconds'],
    [{ maxAttempts: -1 }, 'maxAttempts'],
    [{ gradeMethod: 'best' }, 'gradeMethod'],
    [{ showResult: 'sometimes' }, 'showResult'],
    [{ openAt: 'tomorrow' }, 'openAt'],
    [{ reviewOptions: { answers: true } }, 'reviewOptions.analysis'],
    [
      { antiCheat: { fullscreen: true, maxBlurCount: -1, disableCopyPaste: false, randomizePerCandidate: false } },
      'antiCheat.maxBlurCount',
    ],
    [{ groupScoring: 'half' }, 'groupScoring'],
  ])('refuses the settings %j naming %s', async (extra, field) => {
    const res = await call(
      'POST',
      papers,
      paperBody('S-BAD', { slots: [{ questionId: singles[0].id, score: 1 }] }, extra),
    );
    expect(res.status).toBe(400);
    expect(fieldOf(res.body)).toContain(field);
  });

  it('answers a paper holding case-analysis questions in order: free navigation is refused', async () => {
    const section = { slots: [{ questionId: caseAnalysis.id, score: 2 }] };
    const refused = await call('POST', papers, paperBody('S-CASE', section, { navigation: 'free' }));
    expect(refused.status).toBe(400);
    expect(fieldOf(refused.body)).toEqual(['navigation']);

    const made = await create(papers, paperBody('S-CASE', section));
    expect(made.navigation).toBe('sequential');
    const again = await call('PUT', `${papers}/${made.id}`, { navigation: 'free', version: made.version });
    expect(again.status).toBe(400);
    expect(fieldOf(again.body)).toEqual(['navigation']);

    // a rule drawing case analyses makes it sequential as well
    const drawn = await create(
      papers,
      paperBody(
        'S-CASE-R',
        { rules: [{ questionType: 'case_analysis', count: 1, score: 2 }] },
        {
          composeMode: 'random_per_candidate',
        },
      ),
    );
    expect(drawn.navigation).toBe('sequential');
  });

  it('answers in order a paper whose untyped rule may draw a case analysis: refused free at save and at publish', async () => {
    const random = { composeMode: 'random_per_candidate' };
    // the bank's category holds a case analysis: a rule of no type may draw it
    const open = { rules: [{ categoryIds: [bank.id], count: 1, score: 1 }] };
    const refused = await call('POST', papers, paperBody('S-OPEN', open, { ...random, navigation: 'free' }));
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual([
      {
        field: 'navigation',
        message: 'rule 1 of section 1 may draw case-analysis questions: the paper is answered in order (sequential)',
      },
    ]);
    const made = await create(papers, paperBody('S-OPEN', open, random));
    expect(made.navigation).toBe('sequential');
    expect(made.sections[0].rules[0].caseAnalysis).toBe(true);
    const again = await call('PUT', `${papers}/${made.id}`, { navigation: 'free', version: made.version });
    expect(fieldOf(again.body)).toEqual(['navigation']);
    // the form asks the same of the rules as they are typed
    const asked = await call('POST', `${papers}/check-rules`, {
      rules: [open.rules[0], { questionType: 'single_choice', count: 1, score: 1 }],
    });
    expect(asked.body.map((a: Json) => a.caseAnalysis ?? false)).toEqual([true, false]);

    // a category without any: free is taken…
    const plain = await create(categories, { code: 'plain', name: '单选题库' });
    await single(plain.id, '单选题P');
    const none = { rules: [{ categoryIds: [plain.id], count: 1, score: 1 }] };
    const free = await create(papers, paperBody('S-PLAIN', none, { ...random, navigation: 'free' }));
    expect(free.navigation).toBe('free');
    expect(free.sections[0].rules[0].caseAnalysis).toBeUndefined();
    // …until one comes into its pool: publishing (which pins the pool) refuses free then
    await ready({
      categoryId: plain.id,
      questionType: 'case_analysis',
      medicalFormat: 'CASE',
      stem: '男，45岁，腹痛。',
      children: [0, 1].map((i) => ({ stem: `第${i + 1}问`, options: five(`问${i}`), answer: ['B'] })),
    });
    const published = await call('POST', `${papers}/${free.id}/publish`, { version: free.version });
    expect(published.status).toBe(400);
    expect(fieldOf(published.body)).toEqual(['navigation']);
    const sequential = await call('PUT', `${papers}/${free.id}`, { navigation: 'sequential', version: free.version });
    expect(sequential.status).toBe(200);
    const now = await call('POST', `${papers}/${free.id}/publish`, { version: sequential.body.version });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
  });

  it('holds a section to its type and format: a slot or rule that does not match is refused by its field', async () => {
    const only = { questionType: 'single_choice', medicalFormat: 'A1' };
    const slot = await call(
      'POST',
      papers,
      paperBody('S-TYPE', {
        ...only,
        slots: [
          { questionId: singles[0].id, score: 1 },
          { questionId: trueFalse.id, score: 1 },
        ],
      }),
    );
    expect(slot.status).toBe(400);
    expect(fieldOf(slot.body)).toEqual(['sections.0.slots.1.questionId']);

    const rule = await call(
      'POST',
      papers,
      paperBody(
        'S-TYPE',
        { ...only, rules: [{ questionType: 'true_false', count: 1, score: 1 }] },
        {
          composeMode: 'random_per_candidate',
        },
      ),
    );
    expect(rule.status).toBe(400);
    expect(fieldOf(rule.body)).toEqual(['sections.0.rules.0.questionType']);

    const format = await call(
      'POST',
      papers,
      paperBody('S-TYPE', { questionType: 'single_choice', medicalFormat: 'B1', slots: [] }),
    );
    expect(format.status).toBe(400);
    expect(fieldOf(format.body)).toEqual(['sections.0.medicalFormat']);

    // a rule that names no type draws the section's: the true/false question is never among its candidates
    const bound = await create(
      papers,
      paperBody(
        'S-TYPE',
        { ...only, rules: [{ categoryIds: [bank.id], count: 3, score: 1 }] },
        {
          composeMode: 'random_per_candidate',
        },
      ),
    );
    expect(bound.sections[0]).toMatchObject(only);
    expect(bound.sections[0].rules[0]).toMatchObject({ ...only, available: 3 });
    const tooMany = await call('PUT', `${papers}/${bound.id}`, {
      sections: [{ title: 'A1', ...only, rules: [{ categoryIds: [bank.id], count: 4, score: 1 }] }],
      version: bound.version,
    });
    expect(tooMany.status).toBe(400);
    expect(fieldOf(tooMany.body)).toEqual(['sections.0.rules.0.count']);
  });

  it.each([
    ['per_item', 3 * 2 + 1, 2],
    ['split', 2 + 1, 0.67],
  ])('scores a group slot %s: the total, the preview and the answer key follow', async (groupScoring, total, each) => {
    const made = await create(
      papers,
      paperBody(
        `S-GROUP-${groupScoring}`,
        {
          slots: [
            { questionId: group.id, score: 2 },
            { questionId: singles[1].id, score: 1 },
          ],
        },
        { groupScoring },
      ),
    );
    expect(made.totalScore).toBe(total);
    expect(made.sections[0].slots[0]).toMatchObject({ score: 2, childCount: 3, points: total - 1 });
    const preview = (await call('GET', `${papers}/${made.id}/preview`)).body;
    expect(preview.totalScore).toBe(total);
    expect(preview.sections[0].questions[0]).toMatchObject({ score: total - 1, itemScore: each });
    expect(preview.sections[0].questions[1]).toMatchObject({ score: 1, itemScore: null });

    const res = await s.api.fetch('GET', `${papers}/${made.id}/export-word?answers=true`, { token: s.demo });
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const text = ((await zip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    expect(text).toContain(`男，56岁，胸痛3小时。（${total - 1} 分）`);
    expect(text).toContain(`小题0（${each} 分）`);
    expect(text).toContain(`总分 ${total}`);
    // the English copy is punctuated in English, a point in the singular
    const en = await s.api.fetch('GET', `${papers}/${made.id}/export-word?answers=true`, {
      token: s.demo,
      headers: { 'accept-language': 'en-US' },
    });
    const enZip = await JSZip.loadAsync(await en.arrayBuffer());
    const enText = ((await enZip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    expect(enText).toContain(`男，56岁，胸痛3小时。 (${total - 1} points)`);
    expect(enText).toContain('(1 point)');
    expect(enText).toContain('Answer: ');
    expect(enText).not.toMatch(/[（）：]|1 points/);

    // switching the setting moves the total
    const other = groupScoring === 'split' ? 'per_item' : 'split';
    const switched = await call('PUT', `${papers}/${made.id}`, { groupScoring: other, version: made.version });
    expect(switched.body.totalScore).toBe(other === 'split' ? 3 : 7);
  });

  it("prints the window, the attempts and the navigation in the paper's header", async () => {
    const made = await create(
      papers,
      paperBody(
        'S-PRINT',
        { sequential: true, slots: [{ questionId: singles[2].id, score: 5 }] },
        { openAt: '2026-12-01T00:00:00Z', closeAt: '2026-12-01T02:00:00Z', maxAttempts: 2, navigation: 'sequential' },
      ),
    );
    const res = await s.api.fetch('GET', `${papers}/${made.id}/export-word?timeZone=Asia%2FShanghai`, {
      token: s.demo,
    });
    expect(res.status).toBe(200);
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const text = ((await zip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    expect(text).toContain('考试时间 2026-12-01 08:00 至 2026-12-01 10:00');
    expect(text).toContain('可作答 2 次');
    expect(text).toContain('按顺序作答，答过的题不能返回');
    expect(text).toContain('本部分按顺序作答');
    const bad = await call('GET', `${papers}/${made.id}/export-word?timeZone=Mars%2FOlympus`);
    expect(bad.status).toBe(400);
    expect(fieldOf(bad.body)).toEqual(['timeZone']);
  });

  it('leaves out the questions used lately: the bank filter, a rule, and a rule that can no longer be met', async () => {
    const fresh = [];
    for (let i = 0; i < 3; i++) fresh.push(await single(spare.id, `久未用题${i}`));
    const unusedIds = async () =>
      (await call('GET', `${questions}?categoryId=${spare.id}&notUsedWithinDays=30&pageSize=50`)).body.data
        .map((q: Json) => q.id)
        .sort();
    expect(await unusedIds()).toEqual(fresh.map((q) => q.id).sort());
    expect((await call('GET', `${questions}?notUsedWithinDays=0`)).status).toBe(400);

    // a draft whose rule needs every one of them, not used in 30 days
    const rule = { categoryIds: [spare.id], excludeUsedWithinDays: 30, count: 3, score: 1 };
    const waiting = await create(papers, paperBody('S-WAIT', { rules: [rule] }, { composeMode: 'random_once' }));
    expect(waiting.sections[0].rules[0]).toMatchObject({ excludeUsedWithinDays: 30, available: 3 });

    // a paper published with one of them uses it now
    const user = await create(papers, paperBody('S-USE', { slots: [{ questionId: fresh[0].id, score: 1 }] }));
    const published = await call('POST', `${papers}/${user.id}/publish`, { version: user.version });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await call('GET', `${questions}/${fresh[0].id}/statistics`)).body.lastUsedAt).not.toBeNull();

    expect(await unusedIds()).toEqual([fresh[1].id, fresh[2].id].sort());
    const check = await call('POST', `${papers}/check-rules`, {
      rules: [rule, { ...rule, excludeUsedWithinDays: null }],
    });
    expect(check.body.map((r: Json) => r.available)).toEqual([2, 3]);

    // the draft's rule can no longer be met: its publish is refused by the rule's field
    const read = (await call('GET', `${papers}/${waiting.id}`)).body;
    expect(read.sections[0].rules[0].available).toBe(2);
    const refused = await call('POST', `${papers}/${waiting.id}/publish`, { version: read.version });
    expect(refused.status).toBe(400);
    expect(fieldOf(refused.body)).toEqual(['sections.0.rules.0.count']);

    // a random-per-candidate paper's pool leaves them out, and uses those it holds
    const pooled = await create(
      papers,
      paperBody('S-POOL', { rules: [{ ...rule, count: 2 }] }, { composeMode: 'random_per_candidate' }),
    );
    const out = await call('POST', `${papers}/${pooled.id}/publish`, { version: pooled.version });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const drawn = (await call('GET', `${papers}/${pooled.id}/preview?seed=3`)).body.sections[0].questions;
    expect(drawn.map((q: Json) => q.id).sort()).toEqual([fresh[1].id, fresh[2].id].sort());
    expect(await unusedIds()).toEqual([]);
  });
});
