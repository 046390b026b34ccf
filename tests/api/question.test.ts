import JSZip from 'jszip';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, type Json, questionReviewer, readXlsx, twoTenants } from './helpers';

const categories = '/api/assess/category';
const points = '/api/assess/knowledge-point';
const questions = '/api/assess/question';

const five = (texts = ['阿司匹林', '肝素', '华法林', '氯吡格雷', '尿激酶']) =>
  texts.map((text, i) => ({ key: 'ABCDE'[i], text }));

describe.each(engines())('the question bank on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;
  let internal: Json;
  let cardio: Json;
  let surgery: Json;
  let ami: Json;

  const fieldOf = (body: Json) => (body.fields ?? []).map((e: Json) => e.field);

  beforeAll(async () => {
    internal = await create(categories, { code: 'internal', name: '内科学' });
    cardio = await create(categories, { code: 'cardio', name: '心血管', parentId: internal.id });
    surgery = await create(categories, { code: 'surgery', name: '外科学' });
    ami = await create(points, { code: 'ami', name: '急性心肌梗死' });
  });

  it('keeps categories as a tree: levels, a move that re-paths the subtree, never under itself', async () => {
    expect(cardio.path).toBe(`/${internal.id}/${cardio.id}/`);
    const roots = await call('GET', `${categories}/tree`);
    expect(roots.body.map((n: Json) => n.code)).toEqual(expect.arrayContaining(['internal', 'surgery']));
    expect(roots.body.find((n: Json) => n.code === 'internal').hasChildren).toBe(true);
    const under = await call('PUT', `${categories}/${internal.id}`, { parentId: cardio.id, version: internal.version });
    expect(under.status).toBe(400);
    expect(fieldOf(under.body)).toEqual(['parentId']);
    const sameCode = await call('POST', categories, { code: 'cardio', name: '另一个' });
    expect(fieldOf(sameCode.body)).toEqual(['code']);

    const leaf = await create(categories, { code: 'arrhythmia', name: '心律失常', parentId: cardio.id });
    const inLeaf = await create(questions, {
      categoryId: leaf.id,
      questionType: 'true_false',
      stem: '房颤是最常见的持续性心律失常',
      answer: true,
    });
    /** The questions a category's filter finds: its own and those of every level under it. */
    const listed = async (category: Json) =>
      (await call('GET', `${questions}?categoryId=${category.id}&keyword=${encodeURIComponent('房颤')}`)).body.data.map(
        (q: Json) => q.id,
      );
    expect(await listed(internal)).toEqual([inLeaf.id]);
    const moved = await call('PUT', `${categories}/${cardio.id}`, { parentId: surgery.id, version: cardio.version });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.path).toBe(`/${surgery.id}/${cardio.id}/`);
    const leafNow = await call('GET', `${categories}/${leaf.id}`);
    expect(leafNow.body).toMatchObject({ path: `/${surgery.id}/${cardio.id}/${leaf.id}/`, depth: 2 });
    // the grandchild's question moved with its subtree
    expect(await listed(surgery)).toEqual([inLeaf.id]);
    expect(await listed(internal)).toEqual([]);
    expect((await call('DELETE', `${questions}/${inLeaf.id}`)).status).toBe(204);
    const back = await call('PUT', `${categories}/${cardio.id}`, {
      parentId: internal.id,
      version: moved.body.version,
    });
    expect(back.status).toBe(200);
    cardio = back.body;
    const refused = await call('DELETE', `${categories}/${cardio.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('taxonomy.hasChildren');
  });

  it('refuses each medical format whose structure or answer is wrong, naming the field', async () => {
    const base = { categoryId: cardio.id };
    const cases: [Json, string][] = [
      // an A3 group without items
      [{ questionType: 'case_group', medicalFormat: 'A3', stem: '男，56岁，胸痛3小时。', children: [] }, 'children'],
      // a B1 item answering outside the shared options
      [
        {
          questionType: 'option_group',
          medicalFormat: 'B1',
          stem: '共用选项',
          options: five(),
          children: [
            { stem: '抗血小板', answer: ['A'] },
            { stem: '溶栓', answer: ['F'] },
          ],
        },
        'children.1.answer',
      ],
      // an X item with one answer
      [
        {
          questionType: 'multiple_choice',
          medicalFormat: 'X',
          stem: '急性心肌梗死的治疗包括',
          options: five(),
          answer: ['A'],
        },
        'answer',
      ],
      // an A1 item with four options
      [
        {
          questionType: 'single_choice',
          medicalFormat: 'A1',
          stem: '首选药物是',
          options: five().slice(0, 4),
          answer: ['A'],
        },
        'options',
      ],
      // a format the type cannot carry
      [{ questionType: 'true_false', medicalFormat: 'A1', stem: '对吗', answer: true }, 'medicalFormat'],
      // fill in the blanks: two blanks, one answer
      [{ questionType: 'fill_blank', stem: '{{blank}} 和 {{blank}}', answer: [['甲']] }, 'answer'],
      // an essay without its reference answer
      [{ questionType: 'essay', stem: '论述', answer: { reference: '' } }, 'answer'],
      // a single-choice item with two keys
      [{ questionType: 'single_choice', stem: '选一个', options: five(), answer: ['A', 'B'] }, 'answer'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', questions, { ...base, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(fieldOf(res.body), JSON.stringify(body)).toEqual([field]);
    }
    const listed = await call('GET', `${questions}?pageSize=50`);
    expect(listed.body.total).toBe(0);
  });

  let group: Json;
  it('writes an A3 case group with its items, coded and versioned, and finds it by category, tag and a Chinese word', async () => {
    group = await create(questions, {
      categoryId: cardio.id,
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '男，56岁。持续胸骨后疼痛3小时，心电图示V1–V4导联ST段抬高。',
      children: [
        {
          stem: '最可能的诊断是',
          options: five(['急性前壁心肌梗死', '心绞痛', '主动脉夹层', '肺栓塞', '心包炎']),
          answer: ['A'],
        },
        { stem: '首选的治疗是', options: five(), answer: ['E'], analysis: '发病 12 小时内溶栓' },
      ],
      difficulty: 4,
      knowledgePointIds: [ami.id],
      tags: ['执业医师', '心内'],
      suggestedScore: 2,
    });
    expect(group).toMatchObject({
      code: `Q${group.id.padStart(8, '0')}`,
      status: 'draft',
      currentVersion: 1,
      childCount: 2,
      knowledgePointNames: ['急性心肌梗死'],
      suggestedScore: 2,
      categoryName: '心血管',
    });
    const got = await call('GET', `${questions}/${group.id}`);
    expect(got.body.children.map((c: Json) => [c.subOrder, c.answer])).toEqual([
      [1, ['A']],
      [2, ['E']],
    ]);

    // the items are not questions of the list; the parent category finds the sub-category's questions
    for (const query of [
      `categoryId=${internal.id}`,
      'tag=心内',
      `keyword=${encodeURIComponent('胸骨后疼痛')}`,
      `knowledgePointId=${ami.id}`,
      'questionType=case_group&medicalFormat=A3&difficulty=4',
      `keyword=${group.code}`,
    ]) {
      const res = await call('GET', `${questions}?${query}`);
      expect(res.status, query).toBe(200);
      expect(
        res.body.data.map((q: Json) => q.id),
        query,
      ).toEqual([group.id]);
    }
    for (const query of [`categoryId=${surgery.id}`, 'tag=外科', 'questionType=option_group']) {
      const res = await call('GET', `${questions}?${query}`);
      expect(res.body.total, query).toBe(0);
    }
  });

  it('refuses an exact duplicate unless allowed, and lists likely duplicates of a text being written', async () => {
    const again = await call('POST', questions, {
      categoryId: surgery.id,
      questionType: 'case_group',
      medicalFormat: 'A3',
      stem: '男，56岁。持续胸骨后疼痛 3 小时，心电图示 V1–V4 导联 ST 段抬高！',
      children: [
        {
          stem: '最可能的诊断是',
          options: five(['急性前壁心肌梗死', '心绞痛', '主动脉夹层', '肺栓塞', '心包炎']),
          answer: ['A'],
        },
        { stem: '首选的治疗是', options: five(), answer: ['E'] },
      ],
    });
    expect(again.status).toBe(400);
    expect(fieldOf(again.body)).toEqual(['allowDuplicate']);
    expect(again.body.fields[0].message).toContain(group.code);

    const similar = await call('POST', `${questions}/duplicates`, {
      stem: '男，56岁。持续胸骨后疼痛3小时，心电图示V1–V3导联ST段抬高。',
    });
    expect(similar.status).toBe(200);
    expect(similar.body[0]).toMatchObject({ id: group.id, exact: false });
    expect(similar.body[0].similarity).toBeGreaterThan(0.5);
    const unrelated = await call('POST', `${questions}/duplicates`, { stem: '维生素C缺乏可导致坏血病' });
    expect(unrelated.body).toEqual([]);
  });

  it('reviews (reject needs a comment), versions an edit of a ready question and keeps the old snapshot', async () => {
    const sent = await call('POST', `${questions}/${group.id}/submit`, { version: group.version });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.status).toBe('pending_review');
    const trail = await call('GET', `/api/system/audit-log?resourceType=question&resourceId=${group.id}`);
    expect(trail.body.data[0].action).toBe('assess:question:submit');
    const locked = await call('PUT', `${questions}/${group.id}`, { difficulty: 2, version: sent.body.version });
    expect(locked.status).toBe(409);
    const reviewer = await questionReviewer(s.api, 'demo', s.demo);
    const review = (body: Json, token = reviewer) => call('POST', `${questions}/${group.id}/review`, body, token);
    const bare = await review({ decision: 'reject', version: sent.body.version });
    expect(fieldOf(bare.body)).toEqual(['comment']);
    // who wrote and submitted it neither approves nor rejects it
    for (const decision of ['approve', 'reject']) {
      const own = await review({ decision, comment: '自审', version: sent.body.version }, s.demo);
      expect(own.status, decision).toBe(400);
      expect(fieldOf(own.body), decision).toEqual(['decision']);
    }
    expect((await call('GET', `${questions}/${group.id}`)).body.status).toBe('pending_review');
    const approved = await review({ decision: 'approve', version: sent.body.version });
    expect(approved.body).toMatchObject({ status: 'ready', currentVersion: 1, reviewedByName: '审核专家' });

    const edited = await call('PUT', `${questions}/${group.id}`, {
      stem: '男，60岁。持续胸骨后疼痛5小时。',
      changeNote: '改年龄',
      version: approved.body.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ status: 'ready', currentVersion: 2, childCount: 2 });
    const stale = await call('PUT', `${questions}/${group.id}`, { difficulty: 1, version: approved.body.version });
    expect(stale.status).toBe(409);

    const versions = await call('GET', `${questions}/${group.id}/versions`);
    expect(versions.body.map((v: Json) => [v.number, v.changeNote])).toEqual([
      [2, '改年龄'],
      [1, null],
    ]);
    expect(versions.body[1].snapshot.stem).toContain('56岁');
    expect(versions.body[1].snapshot.children).toHaveLength(2);
    expect(versions.body[0].snapshot.stem).toContain('60岁');
    group = edited.body;
  });

  it('changes many questions at once, all or none', async () => {
    const draft = await create(questions, {
      categoryId: surgery.id,
      questionType: 'true_false',
      stem: '阑尾炎首选手术治疗',
      answer: true,
    });
    const refused = await call('POST', `${questions}/bulk-update`, {
      ids: [group.id, draft.id],
      status: 'hidden',
      addTags: ['批量'],
    });
    expect(refused.status).toBe(409);
    // which of them is refused
    expect(refused.body.message).toContain(draft.code);
    const unchanged = await call('GET', `${questions}/${group.id}`);
    expect(unchanged.body).toMatchObject({ status: 'ready', tags: ['执业医师', '心内'] });

    const done = await call('POST', `${questions}/bulk-update`, {
      ids: [group.id, draft.id],
      addTags: ['批量'],
      removeTags: ['心内'],
      difficulty: 3,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.map((q: Json) => [q.tags, q.difficulty])).toEqual([
      [['执业医师', '批量'], 3],
      [['批量'], 3],
    ]);
    // knowledge points added to some and taken from others at once
    const other = await create(points, { code: 'bulk-kp', name: '批量改的知识点' });
    const pointed = await call('POST', `${questions}/bulk-update`, {
      ids: [group.id, draft.id],
      addKnowledgePointIds: [other.id],
      removeKnowledgePointIds: [ami.id],
    });
    expect(pointed.status, JSON.stringify(pointed.body)).toBe(200);
    expect(pointed.body.map((q: Json) => q.knowledgePointIds)).toEqual([[other.id], [other.id]]);
    const restored = await call('POST', `${questions}/bulk-update`, {
      ids: [group.id],
      addKnowledgePointIds: [ami.id],
      removeKnowledgePointIds: [other.id],
    });
    expect(restored.body[0].knowledgePointNames).toEqual(['急性心肌梗死']);
    const unknown = await call('POST', `${questions}/bulk-update`, { ids: [draft.id], removeKnowledgePointIds: ['x'] });
    expect(unknown.status).toBe(400);
    const hidden = await call('POST', `${questions}/bulk-update`, { ids: [group.id], status: 'hidden' });
    expect(hidden.body[0].status).toBe('hidden');
  });

  /** A user of `org` whose one role has `dataScope` and the question bank's permissions `actions`. */
  async function scopedUser(name: string, org: Json, dataScope: string, actions: string[]) {
    const role = await create('/api/system/role', { code: `q_${name}`, name: `题库-${name}` });
    await call('PUT', `/api/system/role/${role.id}/data-scope`, { dataScope });
    const permissionIds = (
      await s.api.db
        .selectFrom('permission')
        .select('id')
        .where(
          'code',
          'in',
          actions.map((a) => `assess:question:${a}`),
        )
        .execute()
    ).map((p) => String(p.id));
    await call('PUT', `/api/system/role/${role.id}/permissions`, { permissionIds });
    await create('/api/system/admin', {
      userName: name,
      displayName: name,
      password: 'Quiet-Otter-42',
      orgId: org.id,
      roleIds: [role.id],
      mustChangePassword: false,
    });
    return (await s.api.tokens('demo', name, 'Quiet-Otter-42')).access;
  }

  it("keeps a role's data scope: a 'self' author neither sees nor changes another's question, an office sees its organisation's authors'", async () => {
    const hospital = await create('/api/people/organization', { code: 'QH', name: '题库医院', orgType: 'hospital' });
    const ward = await create('/api/people/organization', {
      code: 'QD',
      name: '题库心内科',
      orgType: 'department',
      parentId: hospital.id,
    });
    const all = ['list', 'create', 'update', 'delete', 'bulk-update', 'export'];
    const author = await scopedUser('q_author', ward, 'self', all);
    const colleague = await scopedUser('q_colleague', ward, 'self', all);
    const office = await scopedUser('q_office', ward, 'org', ['list', 'export']);
    const stem = (who: string) => `数据范围-${who}：心房颤动的首选抗凝药物`;
    const write = async (who: string, token: string) => {
      const res = await call(
        'POST',
        questions,
        { categoryId: surgery.id, questionType: 'true_false', stem: stem(who), answer: true, tags: ['范围'] },
        token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as Json;
    };
    const mine = await write('mine', author);
    const theirs = await write('theirs', colleague);
    const admins = await write('admin', s.demo);

    const listed = async (token: string) =>
      (await call('GET', `${questions}?tag=${encodeURIComponent('范围')}&pageSize=50`, undefined, token)).body.data
        .map((q: Json) => q.id)
        .sort();
    expect(await listed(author)).toEqual([mine.id]);
    expect(await listed(office)).toEqual([mine.id, theirs.id].sort());
    expect(await listed(s.demo)).toEqual([mine.id, theirs.id, admins.id].sort());
    // the keyword's indexed search keeps to the scope too
    const searched = await call('GET', `${questions}?keyword=${encodeURIComponent('数据范围')}`, undefined, author);
    expect(searched.body.data.map((q: Json) => q.id)).toEqual([mine.id]);

    // another author's question is not found: read, its versions and papers, changed, deleted
    for (const path of ['', '/versions', '/papers', '/statistics'])
      expect((await call('GET', `${questions}/${theirs.id}${path}`, undefined, author)).status, path).toBe(404);
    expect((await call('GET', `${questions}/${mine.id}/versions`, undefined, author)).status).toBe(200);
    const edit = await call('PUT', `${questions}/${theirs.id}`, { difficulty: 5, version: theirs.version }, author);
    expect(edit.status).toBe(404);
    expect((await call('DELETE', `${questions}/${admins.id}`, undefined, author)).status).toBe(404);
    // a bulk change naming one out of scope changes none
    const bulk = await call('POST', `${questions}/bulk-update`, { ids: [mine.id, theirs.id], difficulty: 5 }, author);
    expect(bulk.status).toBe(404);
    expect((await call('GET', `${questions}/${mine.id}`)).body.difficulty).toBe(mine.difficulty);
    expect((await call('GET', `${questions}/${theirs.id}`)).body.difficulty).toBe(theirs.difficulty);
    const own = await call('POST', `${questions}/bulk-update`, { ids: [mine.id], difficulty: 5 }, author);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    // the likely duplicates name only questions within the scope
    const dup = await call('POST', `${questions}/duplicates`, { stem: stem('theirs') }, author);
    expect(dup.body.map((d: Json) => d.id)).not.toContain(theirs.id);
    expect(dup.body.map((d: Json) => d.id)).toContain(mine.id);
    // the export holds what the list shows
    const sheet = await s.api.fetch('GET', `${questions}/export?tag=${encodeURIComponent('范围')}`, { token: author });
    expect(sheet.status).toBe(200);
    const rows = await readXlsx(await sheet.arrayBuffer());
    expect(rows.slice(1).map((r) => r[4])).toEqual([mine.stem]);
  });

  it("offers the tags questions were given, from the tag catalogue's question scope, found by a part", async () => {
    const tags = async (query = '', token = s.demo) =>
      (await call('GET', `${questions}/tags${query}`, undefined, token)).body;
    // the group's tags (written above) and the bulk change's joined the catalogue
    expect(await tags()).toEqual(expect.arrayContaining(['执业医师', '心内', '批量']));
    expect(await tags(`?keyword=${encodeURIComponent('执业')}`)).toEqual(['执业医师']);
    // a tag in the catalogue is not made twice, and another tenant's are not offered
    await create(questions, {
      categoryId: surgery.id,
      questionType: 'true_false',
      stem: '标签题',
      answer: true,
      tags: ['心内'],
    });
    expect((await tags()).filter((t: string) => t === '心内')).toHaveLength(1);
    expect(await tags('', s.other)).toEqual([]);
    const catalogued = await call('GET', `/api/content/tag?scope=question&pageSize=100`);
    expect(catalogued.body.data.map((t: Json) => t.name)).toContain('执业医师');
  });

  it('finds a deep category by a typed part, with the levels on its way; a disabled one takes no new question', async () => {
    const deep = await create(categories, { code: 'valve', name: '心脏瓣膜病', parentId: cardio.id });
    const old = await create(categories, { code: 'old-valve', name: '旧瓣膜分类', parentId: cardio.id });
    const off = await call('PUT', `${categories}/${old.id}`, { status: 'disabled', version: old.version });
    expect(off.status, JSON.stringify(off.body)).toBe(200);

    const found = await call('GET', `${categories}/tree?keyword=${encodeURIComponent('瓣膜')}`);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    const byId = new Map(found.body.map((n: Json) => [n.id, n]));
    // the roots, the level under 内科学 and the level under 心血管 (whole), each node once
    expect(byId.get(internal.id)).toMatchObject({ parentId: null, hasChildren: true });
    expect(byId.get(cardio.id)).toMatchObject({ parentId: internal.id });
    expect(byId.get(deep.id)).toMatchObject({ parentId: cardio.id, name: '心脏瓣膜病' });
    expect(byId.has(old.id)).toBe(true);
    expect(byId.size).toBe(found.body.length);
    const enabled = await call('GET', `${categories}/tree?status=enabled&keyword=${encodeURIComponent('瓣膜')}`);
    expect(enabled.body.map((n: Json) => n.id)).toContain(deep.id);
    expect(enabled.body.map((n: Json) => n.id)).not.toContain(old.id);
    expect((await call('GET', `${categories}/tree?keyword=${encodeURIComponent('没有这个')}`)).body).toEqual([]);

    const refused = await call('POST', questions, {
      categoryId: old.id,
      questionType: 'true_false',
      stem: '停用分类里的新题',
      answer: true,
    });
    expect(refused.status).toBe(400);
    expect(fieldOf(refused.body)).toEqual(['categoryId']);
  });

  it('keeps a used knowledge point and category from deletion', async () => {
    const res = await call('DELETE', `${points}/${ami.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('taxonomy.inUse');
    const cat = await call('GET', `${categories}/${cardio.id}`);
    expect(cat.body.questionCount).toBe(1);
    // a parent counts its sub-categories' questions
    const parent = await call('GET', `${categories}/${internal.id}`);
    expect(parent.body.questionCount).toBe(cat.body.questionCount);
  });

  /** A case analysis: a case and two stages of four options, the first weighed (`weights`), the second not. */
  const caseAnalysis = (weights?: (number | undefined)[], answer = ['A', 'B'], extra: Json = {}) => ({
    categoryId: cardio.id,
    questionType: 'case_analysis',
    medicalFormat: 'CASE',
    stem: '男，62岁，突发胸痛2小时，大汗。',
    children: [
      {
        stem: '首先应进行的检查是',
        options: ['心电图', '心肌标志物', '冠脉造影', '腹部CT'].map((text, i) => ({
          key: 'ABCD'[i],
          text,
          ...(weights?.[i] !== undefined && { weight: weights[i] }),
        })),
        answer,
      },
      {
        stem: '心电图示 ST 段抬高，应给予',
        options: ['阿司匹林', '急诊PCI', '口服抗生素'].map((text, i) => ({ key: 'ABC'[i], text })),
        answer: ['A', 'B'],
      },
    ],
    ...extra,
  });

  it("weighs a case analysis' stage options: correct ones add, wrong ones deduct; refused when they disagree, naming the field", async () => {
    const cases: [Json, string][] = [
      // a stage whose correct option carries no positive weight
      [caseAnalysis([0, 0, 0, -1], ['A']), 'children.0.options.0.weight'],
      // a correct option weighing 0 beside one that adds
      [caseAnalysis([2, 0, 0, 0]), 'children.0.options.1.weight'],
      // a wrong option that adds
      [caseAnalysis([2, 1, 1, 0]), 'children.0.options.2.weight'],
      // weights on a question that is not a case analysis
      [
        {
          categoryId: cardio.id,
          questionType: 'single_choice',
          medicalFormat: 'A1',
          stem: '首选药物是',
          options: five().map((o, i) => ({ ...o, weight: i === 0 ? 1 : 0 })),
          answer: ['A'],
        },
        'options.0.weight',
      ],
      // on an A3 item
      [
        {
          categoryId: cardio.id,
          questionType: 'case_group',
          medicalFormat: 'A3',
          stem: '男，56岁，胸痛。',
          children: [
            { stem: '诊断', options: five().map((o) => ({ ...o, weight: 1 })), answer: ['A'] },
            { stem: '检查', options: five(), answer: ['B'] },
          ],
        },
        'children.0.options.0.weight',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', questions, body);
      expect(res.status, field).toBe(400);
      expect(fieldOf(res.body), JSON.stringify(res.body)).toEqual([field]);
      expect(res.body.fields[0].message).toMatch(/weigh/);
    }

    // saved with its weights; a stage given none scores each correct option 1, each other 0
    const made = await create(questions, caseAnalysis([2, 1, 0, -1.5]));
    const read = (await call('GET', `${questions}/${made.id}`)).body;
    expect(read.children.map((c: Json) => c.options.map((o: Json) => o.weight))).toEqual([
      [2, 1, 0, -1.5],
      [1, 1, 0],
    ]);
    // an edit changes them, and the version's snapshot keeps them
    const stages = read.children.map(({ stem, options, answer }: Json) => ({ stem, options, answer }));
    stages[1].options[2].weight = -1;
    const edited = await call('PUT', `${questions}/${made.id}`, { children: stages, version: read.version });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.children[1].options.map((o: Json) => o.weight)).toEqual([1, 1, -1]);
    const versions = (await call('GET', `${questions}/${made.id}/versions`)).body;
    expect(versions[0].snapshot.children[1].options[2].weight).toBe(-1);

    // the paper's answer key gives each stage's weights and what it is worth
    const paper = await create('/api/assess/paper', {
      code: 'CASE-P',
      title: '案例分析考核',
      composeMode: 'manual',
      passScore: 1,
      durationMinutes: 30,
      sections: [{ title: '案例分析', slots: [{ questionId: made.id, score: 10 }] }],
    });
    const docx = await s.api.fetch('GET', `/api/assess/paper/${paper.id}/export-word?answers=true`, {
      token: s.demo,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(docx.status).toBe(200);
    const zip = await JSZip.loadAsync(await docx.arrayBuffer());
    const text = ((await zip.file('word/document.xml')?.async('string')) ?? '').replace(/<[^>]+>/g, '');
    expect(text).toContain('答案：AB（分值 A +2，B +1，D −1.5；本步满分 3，错选扣分，最低 0 分）');
    expect(text).toContain('答案：AB（分值 A +1，B +1，C −1；本步满分 2');
    expect((await call('DELETE', `/api/assess/paper/${paper.id}`)).status).toBe(204);
  });

  it('files a question by specialty, exam-outline item, source year and expected time: saved, filtered, refused when wrong', async () => {
    const fields = {
      specialtyCode: 'internal_medicine',
      syllabusRef: '心血管-急性冠脉综合征',
      sourceYear: 2022,
      estimatedSeconds: 90,
    };
    const made = await create(questions, {
      categoryId: cardio.id,
      questionType: 'true_false',
      stem: '硝酸甘油可缓解典型心绞痛（专业）',
      answer: true,
      ...fields,
    });
    expect(made).toMatchObject(fields);
    const other = await create(questions, {
      categoryId: cardio.id,
      questionType: 'true_false',
      stem: '阑尾炎首选手术治疗（专业）',
      answer: true,
      specialtyCode: 'surgery',
    });
    const found = async (query: string) =>
      (await call('GET', `${questions}?keyword=${encodeURIComponent('（专业）')}&${query}`)).body.data.map(
        (q: Json) => q.id,
      );
    expect(await found('specialtyCode=internal_medicine')).toEqual([made.id]);
    expect((await found('specialtyCode=internal_medicine,surgery')).sort()).toEqual([made.id, other.id].sort());
    expect((await call('GET', `${questions}?specialtyCode=${encodeURIComponent("x'")}`)).status).toBe(400);

    const refused: [Json, string][] = [
      [{ specialtyCode: 'no_such_specialty' }, 'specialtyCode'],
      [{ sourceYear: new Date().getUTCFullYear() + 1 }, 'sourceYear'],
      [{ sourceYear: 1800 }, 'sourceYear'],
      [{ estimatedSeconds: 0 }, 'estimatedSeconds'],
      [{ syllabusRef: 'x'.repeat(101) }, 'syllabusRef'],
    ];
    for (const [body, field] of refused) {
      const res = await call('PUT', `${questions}/${made.id}`, { ...body, version: made.version });
      expect(res.status, field).toBe(400);
      expect(fieldOf(res.body)).toEqual([field]);
    }
    // cleared, and the version's diff has what it was
    const cleared = await call('PUT', `${questions}/${made.id}`, {
      specialtyCode: null,
      sourceYear: 2020,
      version: made.version,
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body).toMatchObject({ specialtyCode: null, sourceYear: 2020, estimatedSeconds: 90 });
    expect(await found('specialtyCode=internal_medicine')).toEqual([]);
    const [now] = (await call('GET', `${questions}/${made.id}/versions`)).body;
    expect(now.snapshot).toMatchObject({ specialtyCode: null, sourceYear: 2020, syllabusRef: fields.syllabusRef });
  });

  it("never shows or takes another tenant's questions, categories or knowledge points", async () => {
    const theirs = await call('GET', questions, undefined, s.other);
    expect(theirs.body.total).toBe(0);
    expect((await call('GET', `${questions}/${group.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('GET', `${categories}/tree`, undefined, s.other)).body).toEqual([]);
    const foreign = await call(
      'POST',
      questions,
      { categoryId: cardio.id, questionType: 'true_false', stem: '对吗', answer: true },
      s.other,
    );
    expect(foreign.status).toBe(400);
    expect(fieldOf(foreign.body)).toEqual(['categoryId']);
    const dup = await call('POST', `${questions}/duplicates`, { stem: group.stem }, s.other);
    expect(dup.body).toEqual([]);
  });

  it('counts a search of many questions up to 1,000 and says more match, newest first, within its tenant', async () => {
    const bulk = await create(categories, { code: 'bulk', name: '批量' });
    const point = await create(points, { code: 'bulk', name: '批量知识点' });
    const theirs = (await call('POST', categories, { code: 'bulk', name: '批量' }, s.other)).body;
    const tenantOf = async (code: string) =>
      String((await s.api.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
    const insert = async (tenant: string, category: string, kp: string | null, n: number, prefix: string) =>
      sql`INSERT INTO question (tenant_id, code, category_id, question_type, stem, answer, difficulty,
          knowledge_point_ids, status, content_hash, created_at)
        SELECT ${tenant}, ${prefix} || g, ${category}, 'true_false', '第' || g || '题：主动脉夹层的诊断', 'true'::jsonb, 3,
          ${kp === null ? sql`'{}'::bigint[]` : sql`ARRAY[${kp}::bigint]`}, 'ready', md5(${prefix} || g) || md5(g::text),
          now() - g * interval '1 second'
        FROM generate_series(1, ${n}) g`.execute(s.api.db);
    await insert(await tenantOf('demo'), bulk.id, point.id, 1005, 'BULK');
    await insert(await tenantOf('demo2'), theirs.id, null, 30, 'THEIRS');

    for (const query of [`keyword=${encodeURIComponent('主动脉夹层')}`, `knowledgePointId=${point.id}`]) {
      const res = await call('GET', `${questions}?pageSize=20&current=2&${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toMatchObject({ total: 1000, totalCapped: true });
      // the second page of the newest: questions 21 to 40 by their time
      expect(
        res.body.data.map((q: Json) => q.code),
        query,
      ).toEqual(Array.from({ length: 20 }, (_, i) => `BULK${21 + i}`));
    }
    // narrowed below the cap: counted exactly, and another tenant's matches never count
    const few = await call('GET', `${questions}?keyword=${encodeURIComponent('第7题')}`);
    expect(few.body.totalCapped).toBeUndefined();
    expect(few.body.data.map((q: Json) => q.code).sort()).toEqual(['BULK7']);
    const other = await call('GET', `${questions}?keyword=${encodeURIComponent('主动脉夹层')}`, undefined, s.other);
    expect(other.body).toMatchObject({ total: 30 });
    expect(other.body.totalCapped).toBeUndefined();
    expect(other.body.data.every((q: Json) => q.code.startsWith('THEIRS'))).toBe(true);

    // a paper's rule says so too; another tenant's category is no category of a rule
    const check = await call('POST', '/api/assess/paper/check-rules', {
      rules: [{ knowledgePointIds: [point.id], count: 5, score: 1 }],
    });
    expect(check.status).toBe(200);
    expect(check.body).toEqual([{ requested: 5, available: 1000, availableCapped: true }]);
    const across = await call('POST', '/api/assess/paper/check-rules', {
      rules: [{ categoryIds: [theirs.id], count: 1, score: 1 }],
    });
    expect(across.body.fields.map((f: Json) => f.field)).toEqual(['rules.0.categoryIds.0']);
  });
});
