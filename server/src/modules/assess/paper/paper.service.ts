import { type RawBuilder, sql } from 'kysely';
import { AppError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { COUNTED } from '../../../core/resource/counted-list';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import { currentTenant, readIndexed, type Tx } from '../../../core/tenancy';
import { authoredInScope } from '../../people/organization/data-scope';
import { notUsedWithin, type QuestionItem } from '../question/question.resource';
import { FORMATS_OF, isGroup, type QuestionType } from '../question/question.rules';
import { subtreeIds } from '../taxonomy/taxonomy';
import { paperDocx } from './paper.docx';
import { printedImages } from './paper.images';
import { paperPdf } from './paper.pdf';
import { printedImageIds, printedPaper } from './paper.print';
import {
  type Availability,
  type CheckRules,
  type ClonePaper,
  type CreatePaper,
  type GroupScoring,
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
import { shuffledPreview } from './paper.shuffle';

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被其他试卷使用',
    noQuestion: '题目不存在或已停用',
    twice: '同一道题不能在试卷中出现两次',
    manualRules: '固定组卷的试卷不能有随机抽题规则（请选择随机组卷方式）',
    difficulty: '难度下限不能高于上限',
    short: (available: number) => `符合条件的可用题目只有 ${available} 道`,
    together: (rules: string, available: number, requested: number) =>
      `与规则 ${rules} 共用的可用题目只有 ${available} 道，合计却要抽 ${requested} 道`,
    mixSum: (count: number) => `各难度的题数之和须等于抽题数（${count}）`,
    ruleName: (i: number, j: number) => `第 ${i + 1} 部分第 ${j + 1} 条`,
    drawShort: '题库已变化，该规则抽不够题目',
    noSections: '试卷至少要有一个部分',
    emptySection: '该部分既没有题目也没有抽题规则',
    passOver: (total: number) => `及格分不能高于总分（${total}）`,
    notReady: (code: string, status: string) =>
      `题目 ${code} ${{ hidden: '已隐藏', retired: '已停用' }[status] ?? '尚未审核通过'}，不能发布`,
    sectionType: '该部分限定了题型，这道题不符',
    sectionFormat: '该部分限定了医学题型格式，这道题不符',
    formatOfType: '该格式不属于所选题型',
    sequential: '试卷含案例分析题，须按顺序作答（不能自由跳转）',
    sequentialRule: (rule: string) => `抽题规则 ${rule} 可能抽到案例分析题，试卷须按顺序作答（不能自由跳转）`,
    window: '结束时间须晚于开始时间',
    grace: '选择宽限期时须填写宽限秒数',
  },
  'en-US': {
    codeTaken: 'is used by another paper',
    noQuestion: 'is not an existing question of the bank (or it is retired)',
    twice: 'a question is placed in a paper once',
    manualRules: 'a manually composed paper has no random rules (choose a random mode)',
    difficulty: 'the lowest difficulty must not be above the highest',
    short: (available: number) => `only ${available} ready questions match`,
    together: (rules: string, available: number, requested: number) =>
      `with rule ${rules} it shares ${available} ready questions, fewer than the ${requested} they draw together`,
    mixSum: (count: number) => `the counts of the levels must add up to the rule's count (${count})`,
    ruleName: (i: number, j: number) => `${j + 1} of section ${i + 1}`,
    drawShort: 'the bank has changed: the rule cannot draw as many questions as it asks',
    noSections: 'a paper needs one section at least',
    emptySection: 'the section has neither questions nor rules',
    passOver: (total: number) => `must not be above the total score (${total})`,
    notReady: (code: string, status: string) =>
      `question ${code} ${{ hidden: 'is hidden', retired: 'is retired' }[status] ?? 'is not ready (reviewed and approved)'}: the paper cannot be published`,
    sectionType: "is not of the section's question type",
    sectionFormat: "is not of the section's medical format",
    formatOfType: 'is not a format of the question type',
    sequential: 'a paper holding case-analysis questions is answered in order (sequential)',
    sequentialRule: (rule: string) =>
      `rule ${rule} may draw case-analysis questions: the paper is answered in order (sequential)`,
    window: 'must be after the opening time',
    grace: 'is required with a grace period',
  },
};

/** The levels of a rule's difficulty mix it asks questions of, with how many: none when it asks a range. */
const levelsOf = (rule: RuleInput): [number, number][] =>
  Object.entries(rule.difficultyMix ?? {})
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([level, n]) => [Number(level), n as number] as [number, number])
    .sort((a, b) => a[0] - b[0]);

/**
 * What a paper's rules draw, each a part: a rule of a range is one part, a rule of a mix one part a level (at that
 * level, of its count). `of` is the rule's index among the paper's rules.
 */
interface Part {
  rule: RuleInput;
  of: number;
  level?: number;
}
const partsOf = (rules: readonly RuleInput[]): Part[] =>
  rules.flatMap((rule, of) => {
    const mix = levelsOf(rule);
    if (!mix.length) return [{ rule, of }];
    return mix.map(([level, count]) => ({
      rule: { ...rule, difficultyMix: null, difficultyMin: level, difficultyMax: level, count },
      of,
      level,
    }));
  });

/**
 * Which questions go to which part, the paper's rules together: each part's candidates in its own (seeded) order,
 * a candidate given to one part only. Each part takes its first free candidates; when one runs out, the parts before
 * it give up one of theirs for another of their own where they can (an augmenting path of a bipartite matching), so
 * that the draw comes up short only when no allocation exists. Then `short` names the parts that compete for too
 * few questions (their candidates in all, `union`, fewer than they ask): Hall's condition, found failing.
 */
export function allocate(
  counts: readonly number[],
  candidates: readonly (readonly string[])[],
): { picked: string[][] } | { short: number[]; union: number; requested: number } {
  const slotPart: number[] = [];
  counts.forEach((n, p) => {
    for (let i = 0; i < n; i++) slotPart.push(p);
  });
  const owner = new Map<string, number>();
  const held: string[] = [];
  const next = counts.map(() => 0);
  const augment = (slot: number, seen: Set<string>, visited: Set<number>): boolean => {
    const p = slotPart[slot] as number;
    visited.add(p);
    for (const id of candidates[p] ?? []) {
      if (seen.has(id)) continue;
      seen.add(id);
      const other = owner.get(id);
      if (other === undefined || augment(other, seen, visited)) {
        owner.set(id, slot);
        held[slot] = id;
        return true;
      }
    }
    return false;
  };
  for (const [slot, p] of slotPart.entries()) {
    const list = candidates[p] ?? [];
    let i = next[p] as number;
    while (i < list.length && owner.has(list[i] as string)) i++;
    next[p] = i;
    if (i < list.length) {
      owner.set(list[i] as string, slot);
      held[slot] = list[i] as string;
      continue;
    }
    const visited = new Set<number>();
    if (!augment(slot, new Set(), visited)) {
      const short = [...visited].sort((a, b) => a - b);
      const union = new Set(short.flatMap((q) => [...(candidates[q] ?? [])]));
      return { short, union: union.size, requested: short.reduce((sum, q) => sum + (counts[q] ?? 0), 0) };
    }
  }
  const picked: string[][] = counts.map(() => []);
  for (const [slot, id] of held.entries()) picked[slotPart[slot] as number]?.push(id);
  // each part's questions in its own order
  return {
    picked: picked.map((ids, p) => {
      const rank = new Map((candidates[p] ?? []).map((id, k) => [id, k]));
      return ids.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
    }),
  };
}

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
  if (rule.excludeUsedWithinDays) conditions.push(notUsedWithin(sql`q`, rule.excludeUsedWithinDays));
  const mix = levelsOf(rule);
  const [low, high] = [rule.difficultyMin ?? 1, rule.difficultyMax ?? 5];
  if (mix.length) conditions.push(sql`q.difficulty = ANY(${mix.map(([level]) => level)}::int[])`);
  else if (low > 1 || high < 5) conditions.push(sql`q.difficulty BETWEEN ${low} AND ${high}`);
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
      AND (r.difficulty_mix IS NULL OR jsonb_exists(r.difficulty_mix, q.difficulty::text))
      AND (r.exclude_used_within_days IS NULL OR ${notUsedWithin(sql`q`, sql`r.exclude_used_within_days`)})
      AND NOT EXISTS (SELECT 1 FROM paper_slot s WHERE s.paper_id = p.id AND s.question_id = q.id)
    GROUP BY p.id, p.code, p.title
    ORDER BY p.id DESC`.execute(tx);
  return rows.map((r) => ({ paperId: r.id, code: r.code, title: r.title }));
}

const excluding = (ids: readonly string[]) =>
  ids.length ? sql<boolean>`NOT (q.id = ANY(${[...ids]}::bigint[]))` : sql<boolean>`true`;

/**
 * How many questions each part may draw, the paper's own questions left out: each counted up to COUNTED, its count or
 * `floor`, whichever is more, through the bank's indexes (`readIndexed`); `capped` when more match. All the parts in
 * one statement, so that a paper of many rules costs one trip to count them.
 */
async function countParts(
  tx: Tx,
  parts: readonly Part[],
  exclude: readonly string[],
  floor: number,
): Promise<Availability[]> {
  if (parts.length === 0) return [];
  const caps = parts.map((part) => Math.max(COUNTED, part.rule.count, floor));
  const conditions: RawBuilder<boolean>[] = [];
  for (const part of parts) conditions.push(await matching(tx, part.rule));
  const counts = await readIndexed(tx, async () => {
    const { rows } = await sql<Record<string, number>>`SELECT ${sql.join(
      conditions.map(
        (condition, i) => sql`(SELECT count(*)::int FROM (SELECT 1 FROM question q WHERE q.tenant_id = ${currentTenant}
          AND ${condition} AND ${excluding(exclude)} LIMIT ${(caps[i] ?? COUNTED) + 1}) m) AS ${sql.ref(`n${i}`)}`,
      ),
    )}`.execute(tx);
    return parts.map((_, i) => rows[0]?.[`n${i}`] ?? 0);
  });
  return counts.map((n, i) => {
    const cap = caps[i] ?? COUNTED;
    return n > cap ? { available: cap, availableCapped: true } : { available: n };
  });
}

/** A part's candidates as a draw reads them: the question, the version it pins (a pool's), its place in the order. */
interface Candidate {
  part: number;
  id: string;
  version: number | null;
  o: string;
}

/**
 * Up to `limit` candidates of each part, in the order of `seed` (one for each part): from the bank as it is now, the
 * paper's own questions left out, or from the pools pinned at publication (`pools`: the rule id of each part).
 */
async function candidatesOf(
  tx: Tx,
  parts: readonly Part[],
  exclude: readonly string[],
  limit: number,
  seed: number,
  pools?: readonly string[],
): Promise<{ ids: string[][]; versions: Map<string, number> }> {
  const ids: string[][] = parts.map(() => []);
  const versions = new Map<string, number>();
  if (parts.length === 0) return { ids, versions };
  const order = (k: number, column: RawBuilder<unknown>) => sql`md5(${`${seed}:${k}:`} || ${column}::text)`;
  let rows: Candidate[];
  if (pools) {
    const selects = parts.map(
      (part, k) => sql`(SELECT ${k}::int AS part, p.question_id::text AS id, p.question_version AS version,
        ${order(k, sql`p.question_id`)} AS o FROM paper_rule_pool p WHERE p.rule_id = ${pools[part.of] ?? '0'}
        ${part.level ? sql`AND p.difficulty = ${part.level}` : sql``} ORDER BY o LIMIT ${limit})`,
    );
    rows = (await sql<Candidate>`${sql.join(selects, sql` UNION ALL `)}`.execute(tx)).rows;
  } else {
    const conditions: RawBuilder<boolean>[] = [];
    for (const part of parts) conditions.push(await matching(tx, part.rule));
    const selects = conditions.map(
      (condition, k) => sql`(SELECT ${k}::int AS part, q.id::text AS id, NULL::int AS version,
        ${order(k, sql`q.id`)} AS o FROM question q WHERE q.tenant_id = ${currentTenant} AND ${condition}
        AND ${excluding(exclude)} ORDER BY o LIMIT ${limit})`,
    );
    rows = await readIndexed(
      tx,
      async () => (await sql<Candidate>`${sql.join(selects, sql` UNION ALL `)}`.execute(tx)).rows,
    );
  }
  rows.sort((a, b) => a.part - b.part || (a.o < b.o ? -1 : a.o > b.o ? 1 : 0));
  for (const row of rows) {
    ids[row.part]?.push(String(row.id));
    if (row.version !== null) versions.set(String(row.id), Number(row.version));
  }
  return { ids, versions };
}

/**
 * Whether each rule may draw a case-analysis question, the paper's own questions left out: one asking that type (or
 * its format) does; one asking no type nor format does when a ready case-analysis question of the bank matches it now
 * (what its pool would hold were it pinned now). The open rules in one statement.
 */
async function drawsCaseAnalysis(tx: Tx, rules: readonly RuleInput[], exclude: readonly string[]): Promise<boolean[]> {
  const out = rules.map((rule) => rule.questionType === 'case_analysis' || rule.medicalFormat === 'CASE');
  const open = rules.flatMap((rule, i) => (rule.questionType || rule.medicalFormat ? [] : [{ rule, i }]));
  if (open.length === 0) return out;
  const conditions: RawBuilder<boolean>[] = [];
  for (const { rule } of open) conditions.push(await matching(tx, rule));
  const found = await readIndexed(tx, async () => {
    const { rows } = await sql<Record<string, boolean>>`SELECT ${sql.join(
      conditions.map(
        (condition, k) => sql`EXISTS (SELECT 1 FROM question q WHERE q.tenant_id = ${currentTenant}
          AND q.question_type = 'case_analysis' AND ${condition} AND ${excluding(exclude)}) AS ${sql.ref(`c${k}`)}`,
      ),
    )}`.execute(tx);
    return rows[0] ?? {};
  });
  for (const [k, { i }] of open.entries()) out[i] = found[`c${k}`] === true;
  return out;
}

/**
 * How many questions each rule may draw (a mix: at each of its levels), the paper's own questions left out, and
 * whether the rules together can be met: rules that may draw the same questions share them. Only the parts that match
 * fewer questions than the paper's rules draw in all can run short together (one that matches more can always take
 * its own after the others took theirs), so their candidates alone are read, and only when two of them or more are
 * met each on its own; then an allocation of them (`allocate`) says which rules compete for too few questions.
 */
async function availableAll(tx: Tx, rules: readonly RuleInput[], exclude: readonly string[]): Promise<Availability[]> {
  const parts = partsOf(rules);
  const total = parts.reduce((sum, part) => sum + part.rule.count, 0);
  const counted = await countParts(tx, parts, exclude, total);
  const out: Availability[] = rules.map((rule) =>
    levelsOf(rule).length ? { available: 0, levels: {} } : { available: 0 },
  );
  parts.forEach((part, k) => {
    const n = counted[k] as Availability;
    const rule = out[part.of] as Availability;
    if (part.level === undefined) Object.assign(rule, n);
    else {
      rule.available += n.available;
      if (n.availableCapped) rule.availableCapped = true;
      (rule.levels as Record<string, number>)[String(part.level)] = n.available;
    }
  });
  for (const [i, may] of (await drawsCaseAnalysis(tx, rules, exclude)).entries())
    if (may) (out[i] as Availability).caseAnalysis = true;
  const small = parts
    .map((part, k) => ({ part, k, n: (counted[k] as Availability).available }))
    .filter(({ part, n, k }) => !(counted[k] as Availability).availableCapped && n < total && n >= part.rule.count);
  if (small.length < 2) return out;
  const { ids } = await candidatesOf(
    tx,
    small.map((s) => s.part),
    exclude,
    total,
    0,
  );
  const allocated = allocate(
    small.map((s) => s.part.rule.count),
    ids,
  );
  if ('short' in allocated) {
    const involved = [...new Set(allocated.short.map((q) => (small[q] as (typeof small)[number]).part.of))];
    const together = { rules: involved, available: allocated.union, requested: allocated.requested };
    for (const of of involved) (out[of] as Availability).together = together;
  }
  return out;
}

/**
 * The questions the paper's rules draw with `seed`, each rule's in order, all the rules together (a question drawn
 * once; see `allocate`): from the bank as it is now, or from the pools pinned at publication (`pools`: each rule's id),
 * with the version each pins. Never short: when the rules cannot all be met, the first rule short is refused (`at`).
 */
async function drawAll(
  tx: Tx,
  rules: readonly RuleInput[],
  exclude: readonly string[],
  seed: number,
  refuse: (rule: number) => never,
  pools?: readonly string[],
): Promise<{ ids: string[][]; versions: Map<string, number> }> {
  const parts = partsOf(rules);
  const total = parts.reduce((sum, part) => sum + part.rule.count, 0);
  const { ids, versions } = await candidatesOf(tx, parts, exclude, total, seed, pools);
  const allocated = allocate(
    parts.map((part) => part.rule.count),
    ids,
  );
  if ('short' in allocated) refuse((parts[allocated.short.at(-1) as number] as Part).of);
  const perRule: string[][] = rules.map(() => []);
  for (const [k, picked] of allocated.picked.entries()) perRule[(parts[k] as Part).of]?.push(...picked);
  return { ids: perRule, versions };
}

/** A rule's mix of levels, when it asks one. */
const mixed = (rule: RuleInput) => {
  const mix = levelsOf(rule);
  return mix.length ? mix : undefined;
};

/**
 * What a slot is worth in all: a group's items each score the slot's score (`per_item`), or share it (`split`). A
 * question a rule draws is worth the rule's score whatever it is (a group's items share it), so that a random paper's
 * total is the same for every candidate.
 */
export const slotPoints = (score: number, items: number, scoring: GroupScoring) =>
  scoring === 'per_item' && items > 0 ? score * items : score;
/** The score of each item of a group worth `points` in all. */
const itemScore = (points: number, items: number) => (items > 0 ? Math.round((points / items) * 100) / 100 : null);

/** How many items each question placed has (0: not a group). */
type Items = Map<string, number>;
const sectionScore = (section: SectionInput, scoring: GroupScoring, items: Items) =>
  (section.slots ?? []).reduce(
    (sum, slot) => sum + slotPoints(slot.score, items.get(slot.questionId) ?? 0, scoring),
    0,
  ) + (section.rules ?? []).reduce((sum, rule) => sum + rule.count * rule.score, 0);
const sectionCount = (section: SectionInput) =>
  (section.slots ?? []).length + (section.rules ?? []).reduce((sum, rule) => sum + rule.count, 0);

const num = (value: unknown) => Number(value);

/** A section's type and format bind its rules: a rule that names neither draws the section's. */
const bound = (sections: SectionInput[]): SectionInput[] =>
  sections.map((s) =>
    s.questionType || s.medicalFormat
      ? {
          ...s,
          rules: (s.rules ?? []).map((rule) => ({
            ...rule,
            questionType: rule.questionType ?? s.questionType ?? null,
            medicalFormat: rule.medicalFormat ?? s.medicalFormat ?? null,
          })),
        }
      : s,
  );

type Settings = Pick<
  Paper,
  'openAt' | 'closeAt' | 'overdueHandling' | 'graceSeconds' | 'navigation' | 'groupScoring' | 'passScore'
>;

/**
 * Exam papers (docs/domain.md §9.2): settings and sections, each of fixed questions (slots) and random rules. A save
 * checks the questions (the tenant's, ready or not yet, each once) and every rule against the bank (one that cannot be
 * met is refused, naming it); publish needs every section filled, the pass mark within the total and every question
 * ready, and pins the version of each (a random-once paper draws its questions then); a published paper is frozen,
 * closed, or cloned to be changed. The preview draws the random rules with a seed, as a candidate would get them.
 */
export function createPaperService(deps: ResourceDeps) {
  const repo = paperTable;

  async function sectionsOf(
    tx: Tx,
    paper: Pick<Paper, 'id' | 'status' | 'composeMode' | 'groupScoring'>,
  ): Promise<PaperSection[]> {
    const paperId = paper.id;
    const withAvailability = paper.status === 'draft';
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
        // the items of the version it pins, once published
        sql<number>`CASE WHEN v.snapshot IS NULL THEN (SELECT count(*)::int FROM question c WHERE c.parent_id = q.id)
          WHEN jsonb_typeof(v.snapshot->'children') = 'array' THEN jsonb_array_length(v.snapshot->'children')
          ELSE 0 END`.as('child_count'),
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
      difficultyMix: r.difficulty_mix ?? null,
      count: r.count,
      score: num(r.score),
      excludeUsedWithinDays: r.exclude_used_within_days,
    });
    const read = rules.map(asRule);
    // every rule of the paper counted at once
    const counted = withAvailability ? await availableAll(tx, read, placed) : [];
    const shown: PaperRule[] = read.map((rule, k) => ({ ...rule, ...counted[k] }));
    const out: PaperSection[] = [];
    // a published random-once paper's drawn questions are slots after those placed by hand, each of its rule's score
    const drew = paper.composeMode === 'random_once' && paper.status !== 'draft';
    for (const section of sections) {
      const ruleRows = shown.filter((_, k) => String(rules[k]?.section_id) === String(section.id));
      const own = slots.filter((s) => String(s.section_id) === String(section.id));
      const placedByHand = drew ? own.length - ruleRows.reduce((sum, r) => sum + r.count, 0) : own.length;
      out.push({
        id: String(section.id),
        title: section.title,
        instructions: section.instructions,
        defaultScore: num(section.default_score),
        questionType: section.question_type as PaperSection['questionType'],
        medicalFormat: section.medical_format as PaperSection['medicalFormat'],
        shuffleQuestions: section.shuffle_questions,
        sequential: section.sequential,
        slots: own.map(
          (s, j): PaperSlot => ({
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
            points: j < placedByHand ? slotPoints(num(s.score), s.child_count, paper.groupScoring) : num(s.score),
          }),
        ),
        rules: ruleRows,
      });
    }
    return out;
  }

  /**
   * The papers within the viewer's data scope (every paper without a viewer): a paper is its author's, so it is seen
   * by a role whose scope holds the organisation of the user who made it, or (a `self` scope) by that user.
   */
  const scoped = (tx: Tx, viewer: string | undefined) => authoredInScope(tx, viewer, 'exam_paper');

  const find = async (tx: Tx, id: string, viewer?: string): Promise<Paper | undefined> => {
    const row = await repo.find(tx, id, await scoped(tx, viewer));
    return row && { ...row, sections: await sectionsOf(tx, row) };
  };

  /** The sections as a save gives them back (an update without sections keeps those it has). */
  const asInput = (sections: PaperSection[]): SectionInput[] =>
    sections.map((s) => ({
      title: s.title,
      instructions: s.instructions,
      defaultScore: s.defaultScore,
      questionType: s.questionType,
      medicalFormat: s.medicalFormat,
      shuffleQuestions: s.shuffleQuestions,
      sequential: s.sequential,
      slots: s.slots.map((slot) => ({ questionId: slot.questionId, score: slot.score })),
      rules: s.rules.map(({ available: _n, availableCapped: _c, levels: _l, together: _t, ...rule }) => rule),
    }));

  /**
   * The questions placed exist in the tenant's bank (not retired, not an item), each once; every rule can be met, on
   * its own (a mix: at each of its levels) and with the paper's other rules (those that may draw the same questions
   * share them, the questions placed left out); the pass mark is within the total.
   */
  async function check(
    tx: Tx,
    sections: SectionInput[],
    mode: Paper['composeMode'],
    lang: Lang,
    settings?: Partial<Settings>,
  ): Promise<{ total: number; count: number; caseAnalysis: boolean }> {
    const t = texts[lang];
    const seen = new Set<string>();
    const placed = sections.flatMap((s) => (s.slots ?? []).map((slot) => slot.questionId));
    const found = new Map(
      placed.length
        ? (
            await tx
              .selectFrom('question')
              .select([
                'id',
                'question_type',
                'medical_format',
                sql<number>`(SELECT count(*)::int FROM question c WHERE c.parent_id = question.id)`.as('items'),
              ])
              .where('id', 'in', placed)
              .where('parent_id', 'is', null)
              .where('status', '<>', 'retired')
              .execute()
          ).map((q) => [String(q.id), q] as const)
        : [],
    );
    const items: Items = new Map([...found].map(([id, q]) => [id, isGroup(q.question_type) ? q.items : 0]));
    let caseAnalysis = false;
    for (const [i, section] of sections.entries()) {
      if (section.questionType === 'case_analysis') caseAnalysis = true;
      if (
        section.questionType &&
        section.medicalFormat &&
        !FORMATS_OF[section.questionType as QuestionType].includes(section.medicalFormat)
      )
        throw invalidField(`sections.${i}.medicalFormat`, t.formatOfType);
      for (const [j, slot] of (section.slots ?? []).entries()) {
        const at = `sections.${i}.slots.${j}.questionId`;
        const question = found.get(slot.questionId);
        if (!question) throw invalidField(at, t.noQuestion);
        if (seen.has(slot.questionId)) throw invalidField(at, t.twice);
        if (section.questionType && question.question_type !== section.questionType)
          throw invalidField(at, t.sectionType);
        if (section.medicalFormat && question.medical_format !== section.medicalFormat)
          throw invalidField(at, t.sectionFormat);
        if (question.question_type === 'case_analysis') caseAnalysis = true;
        seen.add(slot.questionId);
      }
      for (const [j, rule] of (section.rules ?? []).entries()) {
        const at = `sections.${i}.rules.${j}`;
        if (mode === 'manual') throw invalidField('composeMode', t.manualRules);
        if (section.questionType && rule.questionType !== section.questionType)
          throw invalidField(`${at}.questionType`, t.sectionType);
        if (section.medicalFormat && rule.medicalFormat !== section.medicalFormat)
          throw invalidField(`${at}.medicalFormat`, t.sectionFormat);
        if (rule.questionType === 'case_analysis' || rule.medicalFormat === 'CASE') caseAnalysis = true;
        if ((rule.difficultyMin ?? 1) > (rule.difficultyMax ?? 5))
          throw invalidField(`${at}.difficultyMin`, t.difficulty);
        if (rule.difficultyMix && levelsOf(rule).reduce((sum, [, n]) => sum + n, 0) !== rule.count)
          throw invalidField(`${at}.difficultyMix`, t.mixSum(rule.count));
      }
    }
    if (caseAnalysis && settings?.navigation === 'free') throw invalidField('navigation', t.sequential);
    const total = sections.reduce((sum, s) => sum + sectionScore(s, settings?.groupScoring ?? 'per_item', items), 0);
    const count = sections.reduce((sum, s) => sum + sectionCount(s), 0);
    const passScore = settings?.passScore;
    if (passScore !== undefined && total > 0 && passScore > total) throw invalidField('passScore', t.passOver(total));
    const flat = sections.flatMap((s, i) => (s.rules ?? []).map((rule, j) => ({ rule, i, j })));
    const counted = await availableAll(
      tx,
      flat.map((r) => r.rule),
      placed,
    );
    // a rule naming no type whose pool may hold case-analysis questions makes the paper sequential as well
    const drawing = caseAnalysis ? -1 : counted.findIndex((c) => c.caseAnalysis);
    if (drawing >= 0) {
      caseAnalysis = true;
      const { i, j } = flat[drawing] as (typeof flat)[number];
      if (settings?.navigation === 'free') throw invalidField('navigation', t.sequentialRule(t.ruleName(i, j)));
    }
    for (const [k, { rule, i, j }] of flat.entries()) {
      const at = `sections.${i}.rules.${j}`;
      const { available: n, levels } = counted[k] as Availability;
      for (const [level, asked] of levelsOf(rule)) {
        const found = levels?.[String(level)] ?? 0;
        if (found < asked) throw invalidField(`${at}.difficultyMix.${level}`, t.short(found));
      }
      if (!levels && n < rule.count) throw invalidField(`${at}.count`, t.short(n));
    }
    for (const [k, { i, j }] of flat.entries()) {
      const together = (counted[k] as Availability).together;
      if (!together) continue;
      const others = together.rules.filter((o) => o !== k).map((o) => t.ruleName(flat[o]?.i ?? 0, flat[o]?.j ?? 0));
      throw invalidField(
        `sections.${i}.rules.${j}.count`,
        t.together(others.join(lang === 'zh-CN' ? '、' : ', '), together.available, together.requested),
      );
    }
    return { total, count, caseAnalysis };
  }

  /**
   * The delivery settings as a save leaves them (`current`: what the paper had): the window closes after it opens; a
   * grace period has its seconds (another handling keeps none); a paper holding case-analysis questions is sequential
   * (asking `free` is refused by `check`).
   */
  function settled<T extends Partial<Settings>>(
    values: T,
    current: Partial<Settings>,
    caseAnalysis: boolean,
    lang: Lang,
  ) {
    const t = texts[lang];
    const merged = { ...current, ...values };
    if (merged.openAt && merged.closeAt && Date.parse(merged.closeAt) <= Date.parse(merged.openAt))
      throw invalidField('closeAt', t.window);
    const grace = (merged.overdueHandling ?? 'auto_submit') === 'grace_period';
    if (grace && !merged.graceSeconds) throw invalidField('graceSeconds', t.grace);
    return {
      ...values,
      graceSeconds: grace ? merged.graceSeconds : null,
      ...(caseAnalysis && { navigation: 'sequential' as const }),
    };
  }

  async function checkCode(tx: Tx, code: string, self: string | undefined, lang: Lang) {
    const other = await repo.findBy(tx, 'code', code);
    if (other && other.id !== self) throw invalidField('code', texts[lang].codeTaken);
  }

  /** The sections replace those the paper had; its total and question count (`sum`, as `check` adds them) follow. */
  async function writeSections(
    tx: Tx,
    paperId: string,
    sections: SectionInput[],
    sum: { total: number; count: number },
    ctx: WriteContext,
  ) {
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
          question_type: section.questionType ?? null,
          medical_format: section.medicalFormat ?? null,
          shuffle_questions: section.shuffleQuestions ?? null,
          sequential: section.sequential ?? false,
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
              difficulty_min: mixed(rule)?.[0]?.[0] ?? rule.difficultyMin ?? 1,
              difficulty_max: mixed(rule)?.at(-1)?.[0] ?? rule.difficultyMax ?? 5,
              difficulty_mix: mixed(rule) ? JSON.stringify(rule.difficultyMix) : null,
              count: rule.count,
              score: rule.score,
              exclude_used_within_days: rule.excludeUsedWithinDays ?? null,
              sort: j,
            })),
          )
          .execute();
    }
    await writeTotals(tx, paperId, sum);
  }

  const writeTotals = (tx: Tx, paperId: string, sum: { total: number; count: number }) =>
    tx
      .updateTable('exam_paper')
      .set({ total_score: sum.total, question_count: sum.count })
      .where('id', '=', paperId)
      .execute();

  const refuseUnless = (row: Paper, ...allowed: PaperStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('paper.notAllowed', { status: row.status });
  };

  const store: ResourceStore<Paper, CreatePaper, UpdatePaper> = {
    list: async (tx, query) => repo.list(tx, query, await scoped(tx, query.viewer)),
    find: (tx, id, viewer) => find(tx, id, viewer),
    async create(tx, input, ctx) {
      const { sections: sent = [], ...values } = input;
      const sections = bound(sent);
      await checkCode(tx, input.code, undefined, ctx.lang);
      const sum = await check(tx, sections, input.composeMode ?? 'manual', ctx.lang, values);
      const made = await repo.insert(tx, settled(values, {}, sum.caseAnalysis, ctx.lang), ctx);
      await writeSections(tx, made.id, sections, sum, ctx);
      return (await find(tx, made.id)) as Paper;
    },
    async update(tx, current, input, ctx) {
      refuseUnless(current, 'draft');
      const { version, sections: sent, ...values } = input;
      const sections = sent && bound(sent);
      if (values.code && values.code !== current.code) await checkCode(tx, values.code, current.id, ctx.lang);
      const next = sections ?? asInput(current.sections ?? []);
      const sum = await check(tx, next, values.composeMode ?? current.composeMode, ctx.lang, {
        groupScoring: values.groupScoring ?? current.groupScoring,
        passScore: values.passScore ?? current.passScore,
        navigation: values.navigation,
      });
      const updated = await repo.update(
        tx,
        current.id,
        settled(values, current, sum.caseAnalysis, ctx.lang),
        ctx,
        version,
      );
      if (!updated) return undefined;
      if (sections) await writeSections(tx, current.id, sections, sum, ctx);
      else await writeTotals(tx, current.id, sum);
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
    points: number,
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
            .select(['id', 'sub_order', 'stem', 'stem_media_file_ids', 'options', 'answer', 'analysis'])
            .where('parent_id', '=', questionId)
            .orderBy('sub_order')
            .execute()
        ).map((c) => ({
          id: String(c.id),
          subOrder: c.sub_order,
          stem: c.stem,
          stemMediaFileIds: (c.stem_media_file_ids ?? []).map(String),
          options: c.options as QuestionItem['options'],
          answer: c.answer as QuestionItem['answer'],
          analysis: c.analysis,
        }));
    const pick = (camel: string, snake: string) => (snapshot ? q[camel] : q[snake]);
    return {
      id: questionId,
      code: String(q.code),
      version: Number(version ?? pick('currentVersion', 'current_version')),
      score: points,
      drawn,
      itemScore: children.length ? itemScore(points, children.length) : null,
      questionType: pick('questionType', 'question_type') as PreviewQuestion['questionType'],
      medicalFormat: (pick('medicalFormat', 'medical_format') ?? null) as PreviewQuestion['medicalFormat'],
      stem: String(q.stem),
      stemMediaFileIds: ((pick('stemMediaFileIds', 'stem_media_file_ids') ?? []) as unknown[]).map(String),
      options: (q.options ?? null) as PreviewQuestion['options'],
      answer: (q.answer ?? null) as PreviewQuestion['answer'],
      analysis: (q.analysis ?? null) as string | null,
      children,
    };
  }

  /** The ids of the paper's rules, in the order of its sections and of their rules. */
  const ruleIds = async (tx: Tx, paperId: string) =>
    (
      await tx
        .selectFrom('paper_rule as r')
        .innerJoin('paper_section as s', 's.id', 'r.section_id')
        .select('r.id')
        .where('r.paper_id', '=', paperId)
        .orderBy('s.sort')
        .orderBy('r.sort')
        .execute()
    ).map((r) => String(r.id));

  /**
   * The questions the paper's rules draw with `seed` (see `drawAll`), a published paper's from the pools it pinned
   * at publication; a rule that can no longer be met is refused by its field.
   */
  async function drawPaper(tx: Tx, paper: Paper, seed: number, lang: Lang, fromBank = false) {
    const sections = paper.sections ?? [];
    const flat = sections.flatMap((s, i) => s.rules.map((rule, j) => ({ rule, at: `sections.${i}.rules.${j}.count` })));
    const placed = sections.flatMap((s) => s.slots.map((slot) => slot.questionId));
    // a paper published before pools were pinned (it has none) still draws from the bank
    const pinned =
      paper.status !== 'draft' &&
      !fromBank &&
      (await tx.selectFrom('paper_rule_pool').select('rule_id').where('paper_id', '=', paper.id).limit(1).execute())
        .length > 0;
    const pools = pinned ? await ruleIds(tx, paper.id) : undefined;
    return drawAll(
      tx,
      flat.map((r) => r.rule),
      placed,
      seed,
      (k) => {
        throw invalidField(flat[k]?.at ?? 'sections', texts[lang].drawShort);
      },
      pools,
    );
  }

  async function preview(tx: Tx, paper: Paper, seed: number, lang: Lang): Promise<PaperPreview> {
    const sections = paper.sections ?? [];
    // a random-once paper drew its rules' questions when it was published: they are its slots now
    const drawnAlready = paper.composeMode === 'random_once' && paper.status !== 'draft';
    const drawn = drawnAlready ? undefined : await drawPaper(tx, paper, seed, lang);
    const out: PaperPreview['sections'] = [];
    let k = 0;
    for (const section of sections) {
      const questions: PreviewQuestion[] = [];
      for (const slot of section.slots)
        questions.push(await previewQuestion(tx, slot.questionId, slot.questionVersion, slot.points, false));
      for (const rule of section.rules) {
        const ids = drawn?.ids[k++] ?? [];
        for (const id of ids)
          questions.push(await previewQuestion(tx, id, drawn?.versions.get(id) ?? null, rule.score, true));
      }
      out.push({ title: section.title, instructions: section.instructions, sequential: section.sequential, questions });
    }
    // the questions and options in the order of the seed, when the paper (or a section of its own) shuffles them
    return shuffledPreview({ seed, totalScore: paper.totalScore, sections: out }, seed, {
      ...paper,
      sections: sections.map((s) => s.shuffleQuestions ?? paper.shuffleQuestions),
    });
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
        // the total as the questions are now (their items may have changed since the last save): the versions it pins
        const sum = await check(tx, asInput(sections), row.composeMode, ctx.lang, {
          groupScoring: row.groupScoring,
          navigation: row.navigation,
        });
        if (row.passScore > sum.total) throw invalidField('passScore', t.passOver(sum.total));
        for (const [i, s] of sections.entries())
          for (const [j, slot] of s.slots.entries())
            if (slot.status !== 'ready')
              throw invalidField(`sections.${i}.slots.${j}.questionId`, t.notReady(slot.code, slot.status));
        if (row.composeMode === 'random_once') {
          const drawn = await drawPaper(tx, row, Number(row.id), ctx.lang, true);
          let k = 0;
          for (const s of sections)
            for (const [j, rule] of s.rules.entries()) {
              const ids = drawn.ids[k++] ?? [];
              if (ids.length)
                await tx
                  .insertInto('paper_slot')
                  .values(
                    ids.map((questionId, n) => ({
                      tenant_id: ctx.tenantId,
                      paper_id: row.id,
                      section_id: s.id,
                      question_id: questionId,
                      score: rule.score,
                      sort: s.slots.length + j * 1000 + n,
                    })),
                  )
                  .execute();
            }
        }
        if (row.composeMode === 'random_per_candidate') {
          // each rule's pool as it is now, each question at its version now: what candidates draw from hereafter
          const placed = sections.flatMap((s) => s.slots.map((slot) => slot.questionId));
          const rules = sections.flatMap((s) => s.rules);
          const ids = await ruleIds(tx, row.id);
          for (const [k, rule] of rules.entries())
            await sql`INSERT INTO paper_rule_pool (tenant_id, paper_id, rule_id, question_id, question_version, difficulty)
              SELECT ${ctx.tenantId}, ${row.id}, ${ids[k]}, q.id, q.current_version, q.difficulty FROM question q
              WHERE q.tenant_id = ${ctx.tenantId} AND ${await matching(tx, rule)} AND ${excluding(placed)}`.execute(tx);
        }
        // every question keeps the version it has now: later edits make new versions, which this paper never shows
        await sql`UPDATE paper_slot s SET question_version = q.current_version
          FROM question q WHERE q.id = s.question_id AND s.paper_id = ${row.id}`.execute(tx);
        // a question it may draw is used as one it holds: it is kept (never deleted) while the paper may show it
        // …and is used now: "not used in the last N days" (the bank's filter, a rule's) leaves it out for a while
        await sql`UPDATE question SET usage_count = usage_count + 1, last_used_at = ${ctx.now}
          WHERE id IN (SELECT question_id FROM paper_slot WHERE paper_id = ${row.id}
            UNION SELECT question_id FROM paper_rule_pool WHERE paper_id = ${row.id})`.execute(tx);
        await tx
          .updateTable('exam_paper')
          .set({ status: 'published', published_at: ctx.now, total_score: sum.total })
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
        const source = await find(tx, id, ctx.actorId);
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
            openAt: source.openAt,
            closeAt: source.closeAt,
            maxAttempts: source.maxAttempts,
            gradeMethod: source.gradeMethod,
            navigation: source.navigation,
            overdueHandling: source.overdueHandling,
            graceSeconds: source.graceSeconds,
            showResult: source.showResult,
            reviewOptions: source.reviewOptions,
            antiCheat: source.antiCheat,
            groupScoring: source.groupScoring,
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
    preview: (tenantId: string, id: string, seed: number, lang: Lang, viewer: string) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const paper = await find(tx, id, viewer);
        if (!paper) throw new AppError('common.notFound');
        return preview(tx, paper, seed, lang);
      }),

    /**
     * The paper as a Word document or a PDF (the draw of `seed`), with each answer and analysis when `answers`. The
     * document is made after the transaction, from what it read.
     */
    async print(
      tenantId: string,
      id: string,
      format: 'docx' | 'pdf',
      seed: number,
      answers: boolean,
      lang: Lang,
      viewer: string,
      timeZone?: string,
      /** The bytes of the images the paper shows (the file service's `contents`). */
      read: (ids: string[]) => Promise<Map<string, { data: Buffer; mime: string }>> = async () => new Map(),
    ) {
      const printed = await deps.tenancy.inTenant(tenantId, async (tx) => {
        const paper = await find(tx, id, viewer);
        if (!paper) throw new AppError('common.notFound');
        return {
          code: paper.code,
          paper: printedPaper(paper, await preview(tx, paper, seed, lang), answers, lang, timeZone),
        };
      });
      const images = await printedImages(await read(printedImageIds(printed.paper)));
      const body = format === 'pdf' ? await paperPdf(printed.paper, images) : await paperDocx(printed.paper, images);
      return { filename: `${printed.code}${answers ? '-key' : ''}.${format}`, body };
    },

    /** How many questions each rule may draw now (the paper's own questions left out). */
    checkRules: (tenantId: string, input: CheckRules) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        // the rules together: those that may draw the same questions share them
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
