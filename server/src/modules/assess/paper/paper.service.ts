import { type RawBuilder, sql } from 'kysely';
import { AppError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { COUNTED } from '../../../core/resource/counted-list';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import { currentTenant, readIndexed, type Tx } from '../../../core/tenancy';
import type { QuestionItem } from '../question/question.resource';
import { subtreeIds } from '../taxonomy/taxonomy';
import { paperDocx } from './paper.docx';
import { paperPdf } from './paper.pdf';
import { printedPaper } from './paper.print';
import {
  type Availability,
  type CheckRules,
  type ClonePaper,
  type CreatePaper,
  type Paper,
  type PaperPreview,
  type PaperRule,
  type PaperSection,
  type PaperSlot,
  type PaperStatus,
  type PreviewQuestion,
  paperResource,
  paperTable,
  type RuleInput,
  type SectionInput,
  type UpdatePaper,
} from './paper.resource';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他试卷使用',
    noQuestion: '题目不存在或已停用',
    twice: '同一道题不能在试卷中出现两次',
    manualRules: '固定组卷的试卷不能有随机抽题规则（请选择随机组卷方式）',
    difficulty: '难度下限不能高于上限',
    short: (available: number) => `符合条件的可用题目只有 ${available} 道`,
    noSections: '试卷至少要有一个部分',
    emptySection: '该部分既没有题目也没有抽题规则',
    passOver: (total: number) => `及格分不能高于总分（${total}）`,
    notReady: (code: string) => `题目 ${code} 尚未审核通过，不能发布`,
  },
  'en-US': {
    codeTaken: 'is used by another paper',
    noQuestion: 'is not an existing question of the bank (or it is retired)',
    twice: 'a question is placed in a paper once',
    manualRules: 'a manually composed paper has no random rules (choose a random mode)',
    difficulty: 'the lowest difficulty must not be above the highest',
    short: (available: number) => `only ${available} ready questions match`,
    noSections: 'a paper needs one section at least',
    emptySection: 'the section has neither questions nor rules',
    passOver: (total: number) => `must not be above the total score (${total})`,
    notReady: (code: string) => `question ${code} is not ready (reviewed and approved) to be published`,
  },
};

/** The questions a rule may draw: ready questions of the bank (not a group's items) matching all it asks. */
async function matching(tx: Tx, rule: RuleInput): Promise<RawBuilder<boolean>> {
  const conditions: RawBuilder<boolean>[] = [sql`q.parent_id IS NULL`, sql`q.status = 'ready'`];
  const categories = rule.categoryIds ?? [];
  if (categories.length > 0) {
    const ids =
      rule.includeSubcategories === false ? categories : await subtreeIds(tx, 'question_category', categories);
    conditions.push(sql`q.category_id = ANY(${ids}::bigint[])`);
  }
  if (rule.knowledgePointIds?.length)
    conditions.push(
      sql`q.knowledge_point_ids && ${await subtreeIds(tx, 'knowledge_point', rule.knowledgePointIds)}::bigint[]`,
    );
  if (rule.tags?.length)
    conditions.push(
      rule.tagMatch === 'all' ? sql`q.tags @> ${rule.tags}::text[]` : sql`q.tags && ${rule.tags}::text[]`,
    );
  if (rule.questionType) conditions.push(sql`q.question_type = ${rule.questionType}`);
  if (rule.medicalFormat) conditions.push(sql`q.medical_format = ${rule.medicalFormat}`);
  const [low, high] = [rule.difficultyMin ?? 1, rule.difficultyMax ?? 5];
  if (low > 1 || high < 5) conditions.push(sql`q.difficulty BETWEEN ${low} AND ${high}`);
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

/**
 * The draft papers whose random rules may draw question `id` at publication: `matching` read the other way round, for
 * one question and every rule at once. A rule's category (with its sub-categories) is one of the question's category's
 * ancestors or the category itself, a knowledge point one of its points' ancestors; a question placed by hand in the
 * paper is not drawn. Only a ready question of the bank (not a group's item) is drawn at all.
 */
export async function papersThatMayDraw(
  tx: Tx,
  id: string,
): Promise<{ paperId: string; code: string; title: string }[]> {
  const { rows } = await sql<{ id: string; code: string; title: string }>`SELECT p.id::text AS id, p.code, p.title
    FROM question q
    JOIN paper_rule r ON true
    JOIN exam_paper p ON p.id = r.paper_id AND p.status = 'draft'
    WHERE q.id = ${id} AND q.parent_id IS NULL AND q.status = 'ready'
      AND (cardinality(r.category_ids) = 0 OR CASE WHEN r.include_subcategories
        THEN r.category_ids && ARRAY(SELECT a.id FROM question_category c JOIN question_category a
          ON starts_with(c.path, a.path) WHERE c.id = q.category_id)
        ELSE q.category_id = ANY(r.category_ids) END)
      AND (cardinality(r.knowledge_point_ids) = 0 OR r.knowledge_point_ids && ARRAY(SELECT a.id FROM knowledge_point k
        JOIN knowledge_point a ON starts_with(k.path, a.path) WHERE k.id = ANY(q.knowledge_point_ids)))
      AND (cardinality(r.tags) = 0 OR CASE WHEN r.tag_match = 'all' THEN q.tags @> r.tags ELSE q.tags && r.tags END)
      AND (r.question_type IS NULL OR r.question_type = q.question_type)
      AND (r.medical_format IS NULL OR r.medical_format = q.medical_format)
      AND q.difficulty BETWEEN r.difficulty_min AND r.difficulty_max
      AND NOT EXISTS (SELECT 1 FROM paper_slot s WHERE s.paper_id = p.id AND s.question_id = q.id)
    GROUP BY p.id, p.code, p.title
    ORDER BY p.id DESC`.execute(tx);
  return rows.map((r) => ({ paperId: r.id, code: r.code, title: r.title }));
}

const excluding = (ids: readonly string[]) =>
  ids.length ? sql<boolean>`NOT (q.id = ANY(${[...ids]}::bigint[]))` : sql<boolean>`true`;

/**
 * How many questions each rule may draw, the paper's own questions left out: each counted up to COUNTED or the rule's
 * count, whichever is more, through the bank's indexes (`readIndexed`); `capped` when more match. All the rules in
 * one statement, so that a paper of many rules costs one trip to count them.
 */
async function availableAll(tx: Tx, rules: readonly RuleInput[], exclude: readonly string[]): Promise<Availability[]> {
  if (rules.length === 0) return [];
  const caps = rules.map((rule) => Math.max(COUNTED, rule.count));
  const conditions: RawBuilder<boolean>[] = [];
  for (const rule of rules) conditions.push(await matching(tx, rule));
  const counts = await readIndexed(tx, async () => {
    const { rows } = await sql<Record<string, number>>`SELECT ${sql.join(
      conditions.map(
        (condition, i) => sql`(SELECT count(*)::int FROM (SELECT 1 FROM question q WHERE q.tenant_id = ${currentTenant}
          AND ${condition} AND ${excluding(exclude)} LIMIT ${(caps[i] ?? COUNTED) + 1}) m) AS ${sql.ref(`n${i}`)}`,
      ),
    )}`.execute(tx);
    return rules.map((_, i) => rows[0]?.[`n${i}`] ?? 0);
  });
  return counts.map((n, i) => {
    const cap = caps[i] ?? COUNTED;
    return n > cap ? { available: cap, availableCapped: true } : { available: n };
  });
}

const available = async (tx: Tx, rule: RuleInput, exclude: readonly string[]): Promise<Availability> =>
  (await availableAll(tx, [rule], exclude))[0] as Availability;

/** `count` questions of a rule, the same ones for the same seed (until the bank changes). */
async function draw(tx: Tx, rule: RuleInput, exclude: readonly string[], seed: number): Promise<string[]> {
  const condition = await matching(tx, rule);
  return readIndexed(tx, async () => {
    const { rows } = await sql<{ id: string }>`SELECT q.id FROM question q
      WHERE q.tenant_id = ${currentTenant} AND ${condition} AND ${excluding(exclude)}
      ORDER BY md5(${String(seed)} || ':' || q.id::text) LIMIT ${rule.count}`.execute(tx);
    return rows.map((r) => String(r.id));
  });
}

const sectionScore = (section: SectionInput) =>
  (section.slots ?? []).reduce((sum, slot) => sum + slot.score, 0) +
  (section.rules ?? []).reduce((sum, rule) => sum + rule.count * rule.score, 0);
const sectionCount = (section: SectionInput) =>
  (section.slots ?? []).length + (section.rules ?? []).reduce((sum, rule) => sum + rule.count, 0);

const num = (value: unknown) => Number(value);

/**
 * Exam papers (docs/domain.md §9.2): settings and sections, each of fixed questions (slots) and random rules. A save
 * checks the questions (the tenant's, ready or not yet, each once) and every rule against the bank (one that cannot be
 * met is refused, naming it); publish needs every section filled, the pass mark within the total and every question
 * ready, and pins the version of each (a random-once paper draws its questions then); a published paper is frozen,
 * closed, or cloned to be changed. The preview draws the random rules with a seed, as a candidate would get them.
 */
export function createPaperService(deps: ResourceDeps) {
  const repo = paperTable;

  async function sectionsOf(tx: Tx, paperId: string, withAvailability: boolean): Promise<PaperSection[]> {
    const sections = await tx
      .selectFrom('paper_section')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
    const slots = await tx
      .selectFrom('paper_slot as s')
      .innerJoin('question as q', 'q.id', 's.question_id')
      // a published paper shows the version it pins, not the question as it has been edited since
      .leftJoin('question_version as v', (join) =>
        join.onRef('v.question_id', '=', 's.question_id').onRef('v.number', '=', 's.question_version'),
      )
      .select([
        's.section_id',
        's.question_id',
        's.question_version',
        's.score',
        'q.code',
        sql<string>`COALESCE(v.snapshot->>'stem', q.stem)`.as('stem'),
        'q.question_type',
        'q.medical_format',
        'q.difficulty',
        'q.status',
        sql<number>`(SELECT count(*)::int FROM question c WHERE c.parent_id = q.id)`.as('child_count'),
      ])
      .where('s.paper_id', '=', paperId)
      .orderBy('s.sort')
      .execute();
    const rules = await tx
      .selectFrom('paper_rule')
      .selectAll()
      .where('paper_id', '=', paperId)
      .orderBy('sort')
      .execute();
    const placed = slots.map((s) => String(s.question_id));
    const asRule = (r: (typeof rules)[number]): PaperRule => ({
      categoryIds: r.category_ids.map(String),
      includeSubcategories: r.include_subcategories,
      knowledgePointIds: r.knowledge_point_ids.map(String),
      tags: r.tags,
      tagMatch: r.tag_match,
      questionType: r.question_type as PaperRule['questionType'],
      medicalFormat: r.medical_format as PaperRule['medicalFormat'],
      difficultyMin: r.difficulty_min,
      difficultyMax: r.difficulty_max,
      count: r.count,
      score: num(r.score),
    });
    const read = rules.map(asRule);
    // every rule of the paper counted at once
    const counted = withAvailability ? await availableAll(tx, read, placed) : [];
    const shown: PaperRule[] = read.map((rule, k) => ({ ...rule, ...counted[k] }));
    const out: PaperSection[] = [];
    for (const section of sections) {
      const ruleRows = shown.filter((_, k) => String(rules[k]?.section_id) === String(section.id));
      out.push({
        id: String(section.id),
        title: section.title,
        instructions: section.instructions,
        defaultScore: num(section.default_score),
        slots: slots
          .filter((s) => String(s.section_id) === String(section.id))
          .map(
            (s): PaperSlot => ({
              questionId: String(s.question_id),
              questionVersion: s.question_version,
              score: num(s.score),
              code: s.code,
              stem: s.stem,
              questionType: s.question_type,
              medicalFormat: s.medical_format,
              difficulty: s.difficulty,
              status: s.status,
              childCount: s.child_count,
            }),
          ),
        rules: ruleRows,
      });
    }
    return out;
  }

  const find = async (tx: Tx, id: string): Promise<Paper | undefined> => {
    const row = await repo.find(tx, id);
    return row && { ...row, sections: await sectionsOf(tx, id, row.status === 'draft') };
  };

  /** The sections as a save gives them back (an update without sections keeps those it has). */
  const asInput = (sections: PaperSection[]): SectionInput[] =>
    sections.map((s) => ({
      title: s.title,
      instructions: s.instructions,
      defaultScore: s.defaultScore,
      slots: s.slots.map((slot) => ({ questionId: slot.questionId, score: slot.score })),
      rules: s.rules.map(({ available: _n, ...rule }) => rule),
    }));

  /** The questions placed exist in the tenant's bank (not retired, not an item), each once; every rule can be met. */
  async function check(tx: Tx, sections: SectionInput[], mode: Paper['composeMode'], lang: Lang) {
    const t = texts[lang];
    const seen = new Set<string>();
    const placed = sections.flatMap((s) => (s.slots ?? []).map((slot) => slot.questionId));
    const found = new Set(
      placed.length
        ? (
            await tx
              .selectFrom('question')
              .select('id')
              .where('id', 'in', placed)
              .where('parent_id', 'is', null)
              .where('status', '<>', 'retired')
              .execute()
          ).map((q) => String(q.id))
        : [],
    );
    for (const [i, section] of sections.entries()) {
      for (const [j, slot] of (section.slots ?? []).entries()) {
        const at = `sections.${i}.slots.${j}.questionId`;
        if (!found.has(slot.questionId)) throw invalidField(at, t.noQuestion);
        if (seen.has(slot.questionId)) throw invalidField(at, t.twice);
        seen.add(slot.questionId);
      }
      for (const [j, rule] of (section.rules ?? []).entries()) {
        const at = `sections.${i}.rules.${j}`;
        if (mode === 'manual') throw invalidField('composeMode', t.manualRules);
        if ((rule.difficultyMin ?? 1) > (rule.difficultyMax ?? 5))
          throw invalidField(`${at}.difficultyMin`, t.difficulty);
        const { available: n } = await available(tx, rule, placed);
        if (n < rule.count) throw invalidField(`${at}.count`, t.short(n));
      }
    }
  }

  async function checkCode(tx: Tx, code: string, self: string | undefined, lang: Lang) {
    const other = await repo.findBy(tx, 'code', code);
    if (other && other.id !== self) throw invalidField('code', texts[lang].codeTaken);
  }

  /** The sections replace those the paper had; its total and question count follow them. */
  async function writeSections(tx: Tx, paperId: string, sections: SectionInput[], ctx: WriteContext) {
    await tx.deleteFrom('paper_section').where('paper_id', '=', paperId).execute();
    for (const [i, section] of sections.entries()) {
      const made = await tx
        .insertInto('paper_section')
        .values({
          tenant_id: ctx.tenantId,
          paper_id: paperId,
          title: section.title,
          instructions: section.instructions ?? null,
          default_score: section.defaultScore ?? 1,
          sort: i,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const slots = section.slots ?? [];
      if (slots.length)
        await tx
          .insertInto('paper_slot')
          .values(
            slots.map((slot, j) => ({
              tenant_id: ctx.tenantId,
              paper_id: paperId,
              section_id: made.id,
              question_id: slot.questionId,
              score: slot.score,
              sort: j,
            })),
          )
          .execute();
      const rules = section.rules ?? [];
      if (rules.length)
        await tx
          .insertInto('paper_rule')
          .values(
            rules.map((rule, j) => ({
              tenant_id: ctx.tenantId,
              paper_id: paperId,
              section_id: made.id,
              category_ids: rule.categoryIds ?? [],
              include_subcategories: rule.includeSubcategories ?? true,
              knowledge_point_ids: rule.knowledgePointIds ?? [],
              tags: rule.tags ?? [],
              tag_match: rule.tagMatch ?? 'any',
              question_type: rule.questionType ?? null,
              medical_format: rule.medicalFormat ?? null,
              difficulty_min: rule.difficultyMin ?? 1,
              difficulty_max: rule.difficultyMax ?? 5,
              count: rule.count,
              score: rule.score,
              sort: j,
            })),
          )
          .execute();
    }
    await tx
      .updateTable('exam_paper')
      .set({
        total_score: sections.reduce((sum, s) => sum + sectionScore(s), 0),
        question_count: sections.reduce((sum, s) => sum + sectionCount(s), 0),
      })
      .where('id', '=', paperId)
      .execute();
  }

  const refuseUnless = (row: Paper, ...allowed: PaperStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('paper.notAllowed', { status: row.status });
  };

  const store: ResourceStore<Paper, CreatePaper, UpdatePaper> = {
    list: (tx, query) => repo.list(tx, query),
    find: (tx, id) => find(tx, id),
    async create(tx, input, ctx) {
      const { sections = [], ...values } = input;
      await checkCode(tx, input.code, undefined, ctx.lang);
      await check(tx, sections, input.composeMode ?? 'manual', ctx.lang);
      const made = await repo.insert(tx, values, ctx);
      await writeSections(tx, made.id, sections, ctx);
      return (await find(tx, made.id)) as Paper;
    },
    async update(tx, current, input, ctx) {
      refuseUnless(current, 'draft');
      const { version, sections, ...values } = input;
      if (values.code && values.code !== current.code) await checkCode(tx, values.code, current.id, ctx.lang);
      const next = sections ?? asInput(current.sections ?? []);
      await check(tx, next, values.composeMode ?? current.composeMode, ctx.lang);
      const updated = await repo.update(tx, current.id, values, ctx, version);
      if (!updated) return undefined;
      if (sections) await writeSections(tx, current.id, sections, ctx);
      return (await find(tx, current.id)) as Paper;
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) refuseUnless(row, 'draft');
      await repo.remove(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };

  const resource = createResourceService(paperResource, store, deps);

  /** A question of a preview: its pinned version's snapshot, or (a draft, a random draw) as it now is. */
  async function previewQuestion(
    tx: Tx,
    questionId: string,
    version: number | null,
    score: number,
    drawn: boolean,
  ): Promise<PreviewQuestion> {
    const snapshot = version
      ? await tx
          .selectFrom('question_version')
          .select('snapshot')
          .where('question_id', '=', questionId)
          .where('number', '=', version)
          .executeTakeFirst()
      : undefined;
    const q = (snapshot?.snapshot ??
      (await tx.selectFrom('question').selectAll().where('id', '=', questionId).executeTakeFirstOrThrow())) as Record<
      string,
      unknown
    >;
    const children = snapshot
      ? ((q.children as QuestionItem[] | undefined) ?? [])
      : (
          await tx
            .selectFrom('question')
            .select(['id', 'sub_order', 'stem', 'options', 'answer', 'analysis'])
            .where('parent_id', '=', questionId)
            .orderBy('sub_order')
            .execute()
        ).map((c) => ({
          id: String(c.id),
          subOrder: c.sub_order,
          stem: c.stem,
          options: c.options as QuestionItem['options'],
          answer: c.answer as QuestionItem['answer'],
          analysis: c.analysis,
        }));
    const pick = (camel: string, snake: string) => (snapshot ? q[camel] : q[snake]);
    return {
      id: questionId,
      code: String(q.code),
      version: Number(version ?? pick('currentVersion', 'current_version')),
      score,
      drawn,
      questionType: pick('questionType', 'question_type') as PreviewQuestion['questionType'],
      medicalFormat: (pick('medicalFormat', 'medical_format') ?? null) as PreviewQuestion['medicalFormat'],
      stem: String(q.stem),
      options: (q.options ?? null) as PreviewQuestion['options'],
      answer: (q.answer ?? null) as PreviewQuestion['answer'],
      analysis: (q.analysis ?? null) as string | null,
      children,
    };
  }

  async function preview(tx: Tx, paper: Paper, seed: number): Promise<PaperPreview> {
    const sections = paper.sections ?? [];
    const placed = sections.flatMap((s) => s.slots.map((slot) => slot.questionId));
    const taken = [...placed];
    const out: PaperPreview['sections'] = [];
    for (const section of sections) {
      const questions: PreviewQuestion[] = [];
      for (const slot of section.slots)
        questions.push(await previewQuestion(tx, slot.questionId, slot.questionVersion, slot.score, false));
      // a random-once paper drew its rules' questions when it was published: they are its slots now
      const drawnAlready = paper.composeMode === 'random_once' && paper.status !== 'draft';
      if (!drawnAlready)
        for (const [j, rule] of section.rules.entries()) {
          const ids = await draw(tx, rule, taken, seed + j);
          taken.push(...ids);
          for (const id of ids) questions.push(await previewQuestion(tx, id, null, rule.score, true));
        }
      out.push({ title: section.title, instructions: section.instructions, questions });
    }
    return { seed, totalScore: paper.totalScore, sections: out };
  }

  const act = versionedAct(resource, repo, (tx, id) => find(tx, id));

  return {
    resource,

    /** Checked, pinned, frozen: see the service's description. */
    publish: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, async (tx, row) => {
        refuseUnless(row, 'draft');
        const t = texts[ctx.lang];
        const sections = row.sections ?? [];
        if (sections.length === 0) throw invalidField('sections', t.noSections);
        sections.forEach((s, i) => {
          if (s.slots.length === 0 && s.rules.length === 0) throw invalidField(`sections.${i}`, t.emptySection);
        });
        if (row.passScore > row.totalScore) throw invalidField('passScore', t.passOver(row.totalScore));
        await check(tx, asInput(sections), row.composeMode, ctx.lang);
        for (const [i, s] of sections.entries())
          for (const [j, slot] of s.slots.entries())
            if (slot.status !== 'ready')
              throw invalidField(`sections.${i}.slots.${j}.questionId`, t.notReady(slot.code));
        if (row.composeMode === 'random_once') {
          const taken = sections.flatMap((s) => s.slots.map((slot) => slot.questionId));
          for (const s of sections)
            for (const [j, rule] of s.rules.entries()) {
              const ids = await draw(tx, rule, taken, Number(row.id) + j);
              taken.push(...ids);
              if (ids.length)
                await tx
                  .insertInto('paper_slot')
                  .values(
                    ids.map((questionId, k) => ({
                      tenant_id: ctx.tenantId,
                      paper_id: row.id,
                      section_id: s.id,
                      question_id: questionId,
                      score: rule.score,
                      sort: s.slots.length + j * 1000 + k,
                    })),
                  )
                  .execute();
            }
        }
        // every question keeps the version it has now: later edits make new versions, which this paper never shows
        await sql`UPDATE paper_slot s SET question_version = q.current_version
          FROM question q WHERE q.id = s.question_id AND s.paper_id = ${row.id}`.execute(tx);
        await sql`UPDATE question SET usage_count = usage_count + 1
          WHERE id IN (SELECT question_id FROM paper_slot WHERE paper_id = ${row.id})`.execute(tx);
        await tx
          .updateTable('exam_paper')
          .set({ status: 'published', published_at: ctx.now })
          .where('id', '=', row.id)
          .execute();
      }),

    close: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'close', version, async (tx, row) => {
        refuseUnless(row, 'published');
        await tx.updateTable('exam_paper').set({ status: 'closed' }).where('id', '=', row.id).execute();
      }),

    /** A new draft with the paper's settings and structure (its random-once draws left out: it draws anew). */
    clone: (ctx: WriteContext, id: string, input: ClonePaper) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const source = await find(tx, id);
        if (!source) throw new AppError('common.notFound');
        const drawn = source.composeMode === 'random_once' && source.status !== 'draft';
        const sections = asInput(source.sections ?? []).map((s, i) => ({
          ...s,
          // the slots a random-once paper drew at publish follow its manual ones
          slots: drawn ? s.slots?.slice(0, manualSlots(source, i)) : s.slots,
        }));
        const made = await store.create(
          tx,
          {
            code: input.code,
            title: input.title,
            purpose: source.purpose,
            composeMode: source.composeMode,
            passScore: source.passScore,
            durationMinutes: source.durationMinutes,
            shuffleQuestions: source.shuffleQuestions,
            shuffleOptions: source.shuffleOptions,
            multiAnswerScoring: source.multiAnswerScoring,
            instructions: source.instructions,
            remark: source.remark,
            sections,
          },
          ctx,
        );
        await deps.audit.record(tx, ctx, {
          action: 'assess:paper:clone',
          resourceType: 'exam_paper',
          resourceId: made.id,
          summary: `${paperResource.label(made)} ← ${source.code}`,
          before: undefined,
          after: made,
        });
        return made;
      }),

    /** The paper as a candidate would get it with `seed` (its random rules drawn; pinned versions once published). */
    preview: (tenantId: string, id: string, seed: number) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const paper = await find(tx, id);
        if (!paper) throw new AppError('common.notFound');
        return preview(tx, paper, seed);
      }),

    /**
     * The paper as a Word document or a PDF (the draw of `seed`), with each answer and analysis when `answers`. The
     * document is made after the transaction, from what it read.
     */
    async print(tenantId: string, id: string, format: 'docx' | 'pdf', seed: number, answers: boolean, lang: Lang) {
      const printed = await deps.tenancy.inTenant(tenantId, async (tx) => {
        const paper = await find(tx, id);
        if (!paper) throw new AppError('common.notFound');
        return { code: paper.code, paper: printedPaper(paper, await preview(tx, paper, seed), answers, lang) };
      });
      const body = format === 'pdf' ? await paperPdf(printed.paper) : await paperDocx(printed.paper);
      return { filename: `${printed.code}${answers ? '-key' : ''}.${format}`, body };
    },

    /** How many questions each rule may draw now (the paper's own questions left out). */
    checkRules: (tenantId: string, input: CheckRules) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const counted = await availableAll(tx, input.rules, input.excludeQuestionIds ?? []);
        return input.rules.map((rule, i) => ({ requested: rule.count, ...(counted[i] as Availability) }));
      }),
  };
}

/** How many of a published random-once section's slots were placed by hand (the drawn ones sort after them). */
function manualSlots(paper: Paper, index: number): number {
  const section = paper.sections?.[index];
  if (!section) return 0;
  return section.slots.length - section.rules.reduce((sum, rule) => sum + rule.count, 0);
}

export type PaperService = ReturnType<typeof createPaperService>;
