import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { countedList } from '../../../core/resource/counted-list';
import { filterValue } from '../../../core/resource/list-query';
import { type ResourceStore, sameAsCreate, type WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import { currentTenant, readIndexed, type Tx } from '../../../core/tenancy';
import { jsonbParameter } from '../../../db/database';
import { releaseFiles } from '../../file/attachments';
import { authoredInScope } from '../../people/organization/data-scope';
import { papersThatMayDraw } from '../paper/paper.service';
import { subtreeIds } from '../taxonomy/taxonomy';
import { likeAtSimilar, questionFromImport, questionSheetRows, sameAsInBank, similarInImport } from './question.import';
import { checkMedia, heldMedia, holdMedia, mediaIdsOf, QUESTION_MEDIA } from './question.media';
import {
  type BulkUpdateQuestions,
  CreateQuestion,
  type Duplicate,
  type FindDuplicates,
  notUsedWithin,
  type Question,
  type QuestionItem,
  type QuestionStatistics,
  type QuestionUse,
  type QuestionVersion,
  questionResource,
  questionTable,
  type ReviewQuestion,
  type UpdateQuestion,
} from './question.resource';
import {
  CHILD_TYPE,
  checkQuestion,
  contentHash,
  type ItemInput,
  isGroup,
  normalised,
  type QuestionInput,
  type QuestionStatus,
  type QuestionType,
  SPECIALTY,
  withWeights,
} from './question.rules';
import { lockContents } from './question-content.repository';

const texts = {
  'zh-CN': {
    noCategory: '题目分类不存在',
    disabledCategory: '题目分类已停用，不能放入新题',
    noKnowledgePoint: '知识点不存在',
    noSpecialty: '不是专业字典（training_specialty）中启用的专业',
    futureYear: (year: number) => `来源年份不能晚于 ${year} 年`,
    duplicate: (code: string) => `与已有题目 ${code} 内容相同（确认仍要保存请勾选“允许重复”）`,
    commentRequired: '驳回须填写意见',
    typeFixed: '已有版本的题目不能改变题型',
    ownReview: '不能审核自己编写或提交的题目，须由他人审核',
  },
  'en-US': {
    noCategory: 'is not an existing category',
    disabledCategory: 'is a disabled category, which takes no new question',
    noKnowledgePoint: 'names a knowledge point that does not exist',
    noSpecialty: 'is not an enabled specialty of the dictionary training_specialty',
    futureYear: (year: number) => `may not be later than ${year}`,
    duplicate: (code: string) => `is the same as question ${code} (allow duplicates to save it anyway)`,
    commentRequired: 'is required to reject',
    typeFixed: 'a question that has versions keeps its type',
    ownReview: 'is for another reviewer: who wrote or submitted the question may not approve or reject it',
  },
};

/** Where each status may be set from by a bulk change or a step of the review. */
const MOVES = {
  submit: { from: ['draft', 'rejected'], to: 'pending_review' },
  approve: { from: ['pending_review'], to: 'ready' },
  reject: { from: ['pending_review'], to: 'rejected' },
  ready: { from: ['hidden'], to: 'ready' },
  hidden: { from: ['ready'], to: 'hidden' },
  retired: { from: ['draft', 'rejected', 'ready', 'hidden'], to: 'retired' },
} as const satisfies Record<string, { from: readonly QuestionStatus[]; to: QuestionStatus }>;
type Move = keyof typeof MOVES;

/** Statuses in which a question is edited; a ready or hidden one gets a new version, a draft keeps its own. */
const EDITABLE: readonly QuestionStatus[] = ['draft', 'rejected', 'ready', 'hidden'];
const VERSIONED: readonly QuestionStatus[] = ['ready', 'hidden'];

/** How many of the most similar questions a duplicate check lists (from the similarity `likeAtSimilar` sets). */
const DUPLICATES = 5;
/** How many tags the form and the filter are offered at most (typing narrows them). */
const TAGS = 200;

/**
 * The question bank's rules (docs/domain.md §9.1): the structure and answer of each type and format (question.rules);
 * a group's items written with it; the category and knowledge points of the tenant; an exact duplicate refused unless
 * allowed; every save kept as a version snapshot (editing a ready question makes a new version, which papers built
 * later pin); the review (submit → approve / reject with a comment); bulk changes, all or none.
 */
/**
 * The stem holds `text`: LIKE where the text has no letter with a case (Chinese, digits), which spares lowering every
 * stem that ILIKE compares; both are answered by the stem's trigram index.
 */
function stemHas(text: string) {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return text.toLowerCase() === text.toUpperCase()
    ? sql<boolean>`question.stem LIKE ${pattern}`
    : sql<boolean>`question.stem ILIKE ${pattern}`;
}

/** What a question names outside itself, checked before it is written. */
interface References {
  categoryId?: string;
  knowledgePointIds?: string[];
  specialtyCode?: string | null;
  sourceYear?: number | null;
}

/** The questions within the viewer's data scope (docs/domain.md §2.3), by their author; a question the system made is the tenant-wide scope's only. */
const scopedTo = (tx: Tx, viewer: string | undefined): Promise<Narrow> => authoredInScope(tx, viewer, 'question');

export function createQuestionService(deps: ResourceDeps) {
  const repo = questionTable;

  /** The items of the groups `parentIds`, each group's in order. */
  async function childrenOf(tx: Tx, parentIds: string[]): Promise<{ parentId: string; item: QuestionItem }[]> {
    const rows = await tx
      .selectFrom('question')
      .select(['id', 'parent_id', 'sub_order', 'stem', 'stem_media_file_ids', 'options', 'answer', 'analysis'])
      .where(sql<boolean>`parent_id = ANY(${parentIds}::bigint[])`)
      .orderBy('parent_id')
      .orderBy('sub_order')
      .execute();
    return rows.map((r) => ({
      parentId: String(r.parent_id),
      item: {
        id: String(r.id),
        subOrder: r.sub_order,
        stem: r.stem,
        stemMediaFileIds: (r.stem_media_file_ids ?? []).map(String),
        options: (r.options ?? null) as QuestionItem['options'],
        answer: (r.answer ?? null) as QuestionItem['answer'],
        analysis: r.analysis,
      },
    }));
  }
  const children = async (tx: Tx, parentId: string) => (await childrenOf(tx, [parentId])).map((c) => c.item);

  const topLevel: Narrow = (qb) => qb.where('parent_id', 'is', null);

  const find = async (tx: Tx, id: string, viewer?: string): Promise<Question | undefined> => {
    const inScope = await scopedTo(tx, viewer);
    const row = await repo.find(tx, id, (qb) => inScope(topLevel(qb)));
    return row && { ...row, children: row.childCount > 0 ? await children(tx, id) : [] };
  };

  const checkRefs = (tx: Tx, input: References, lang: Lang, placed = false) => checkAllRefs(tx, [input], lang, placed);

  /**
   * The categories and knowledge points that questions name, of the tenant, two statements for a batch: refused when
   * one is not there, else their names (a knowledge point's with its place in the order of paths, a question's order).
   */
  async function checkAllRefs(
    tx: Tx,
    inputs: References[],
    lang: Lang,
    /** The questions are put in their category now (made, or moved): a disabled one takes none. */
    placed = false,
  ) {
    const thisYear = new Date().getUTCFullYear();
    if (inputs.some((i) => (i.sourceYear ?? 0) > thisYear))
      throw invalidField('sourceYear', texts[lang].futureYear(thisYear));
    const specialties = [...new Set(inputs.flatMap((i) => (i.specialtyCode ? [i.specialtyCode] : [])))];
    if (specialties.length > 0) {
      const found = await tx
        .selectFrom('dict_item')
        .select('value')
        .distinct()
        .where('type_code', '=', SPECIALTY)
        .where('status', '=', 'enabled')
        .where(sql<boolean>`value = ANY(${specialties}::text[])`)
        .execute();
      if (found.length !== specialties.length) throw invalidField('specialtyCode', texts[lang].noSpecialty);
    }
    const categoryIds = [...new Set(inputs.flatMap((i) => (i.categoryId ? [i.categoryId] : [])))];
    const categories = new Map<string, string>();
    if (categoryIds.length > 0) {
      const found = await tx
        .selectFrom('question_category')
        .select(['id', 'name', 'status'])
        .where(sql<boolean>`id = ANY(${categoryIds}::bigint[])`)
        .execute();
      if (found.length !== categoryIds.length) throw invalidField('categoryId', texts[lang].noCategory);
      if (placed && found.some((c) => c.status !== 'enabled'))
        throw invalidField('categoryId', texts[lang].disabledCategory);
      for (const { id, name } of found) categories.set(String(id), name);
    }
    const pointIds = [...new Set(inputs.flatMap((i) => i.knowledgePointIds ?? []))];
    const points = new Map<string, { name: string; order: number }>();
    if (pointIds.length > 0) {
      const found = await tx
        .selectFrom('knowledge_point')
        .select(['id', 'name'])
        .where(sql<boolean>`id = ANY(${pointIds}::bigint[])`)
        .orderBy('path')
        .execute();
      if (found.length !== pointIds.length) throw invalidField('knowledgePointIds', texts[lang].noKnowledgePoint);
      for (const [order, { id, name }] of found.entries()) points.set(String(id), { name, order });
    }
    return { categories, points };
  }

  /** The questions (not retired, not items) whose content has one of `hashes`. */
  const sameContent = (tx: Tx, hashes: string[]) =>
    tx
      .selectFrom('question')
      .select(['id', 'code', 'version', 'content_hash'])
      .where(sql<boolean>`content_hash = ANY(${hashes}::bpchar[])`)
      .where('parent_id', 'is', null)
      .where('status', '<>', 'retired')
      .execute();

  /**
   * Refuses a question whose content another question of the bank has. Two transactions writing the same content at
   * once would each look before the other wrote (a unique index cannot say it: a duplicate the writer allowed is
   * kept), so the look-up waits on a lock of the content, held until the writer commits; then it sees that question.
   */
  async function refuseDuplicate(tx: Tx, hash: string, self: string | undefined, lang: Lang) {
    await lockContents(tx, [hash]);
    const same = await tx
      .selectFrom('question')
      .select(['id', 'code'])
      .where('content_hash', '=', hash)
      .where('parent_id', 'is', null)
      .where('status', '<>', 'retired')
      .limit(2)
      .execute();
    const other = same.find((q) => String(q.id) !== self);
    // named on the consent that lifts the refusal, which the form shows beside it
    if (other) throw invalidField('allowDuplicate', texts[lang].duplicate(other.code));
  }

  /** A group's items as rows: in order, each of the group's child type, in its category, format and status. */
  const childRows = (
    parent: Pick<Question, 'id' | 'code' | 'categoryId' | 'questionType'> &
      Partial<Pick<Question, 'medicalFormat' | 'difficulty' | 'status'>>,
    items: ItemInput[],
  ) => {
    const type = CHILD_TYPE[parent.questionType] as QuestionType;
    return items.map((item, i) => ({
      ...item,
      parentId: parent.id,
      subOrder: i + 1,
      code: `${parent.code}-${i + 1}`,
      categoryId: parent.categoryId,
      questionType: type,
      medicalFormat: parent.medicalFormat,
      difficulty: parent.difficulty,
      status: parent.status,
      contentHash: contentHash(item),
    }));
  };

  /** A group's items replace those it had. */
  async function writeChildren(tx: Tx, parent: Question, items: ItemInput[], ctx: WriteContext) {
    await tx.deleteFrom('question').where('parent_id', '=', parent.id).execute();
    for (const row of childRows(parent, items)) await repo.insert(tx, row, ctx);
  }

  /**
   * The tags questions are given join the tenant's tag catalogue (scope `question`, content/tag), which the form and
   * the list's filter offer (`tags`): one statement for a batch, a tag already there left as it is.
   */
  async function catalogueTags(tx: Tx, tags: readonly (string | undefined)[], ctx: WriteContext) {
    const names = [...new Set(tags.filter((t): t is string => Boolean(t)))];
    if (names.length === 0) return;
    await sql`INSERT INTO tag (tenant_id, name, scope, created_by)
      SELECT ${ctx.tenantId}, name, 'question', ${ctx.actorId} FROM unnest(${names}::text[]) AS name
      ON CONFLICT (tenant_id, scope, name) DO NOTHING`.execute(tx);
  }

  /** A question's code, made of its id. */
  const codeOf = (id: string) => `Q${id.padStart(8, '0')}`;

  /**
   * Questions made together (an import's batch), as `create` makes each one, in a few statements for the batch:
   * checked, refused when a duplicate of one before it in the batch is not allowed, written with their items, each
   * with its first version's snapshot. The import that makes the batch looked each question's content up in the bank
   * (its key, `findAllByKey`) as it checked it, in a transaction of its own: another import (or the form) may have
   * written the same content since. So the bank is looked at once more under the contents' locks, which the form's
   * create takes too, and a question written meanwhile is refused as the import refuses a duplicate of the bank.
   */
  async function createMany(tx: Tx, given: CreateQuestion[], ctx: WriteContext): Promise<Question[]> {
    if (given.length === 0) return [];
    for (const input of given) {
      checkQuestion(input as QuestionInput, ctx.lang);
      await checkMedia(tx, undefined, input, ctx.lang);
    }
    const inputs = given.map((input) => withWeights(input as QuestionInput) as CreateQuestion);
    const { categories, points } = await checkAllRefs(tx, inputs, ctx.lang, true);
    await catalogueTags(
      tx,
      inputs.flatMap((input) => input.tags ?? []),
      ctx,
    );
    const hashes = inputs.map((input) => contentHash(input));
    const earlier = new Set<string>();
    for (const [i, hash] of hashes.entries()) {
      if (earlier.has(hash) && !inputs[i]?.allowDuplicate) throw invalidField('stem', texts[ctx.lang].duplicate(''));
      earlier.add(hash);
    }
    const unique = [...new Set(hashes.filter((_, i) => !inputs[i]?.allowDuplicate))];
    await lockContents(tx, unique);
    const [written] = unique.length ? await sameContent(tx, unique) : [];
    if (written) throw sameAsInBank(written, ctx);
    // the ids are taken first: the codes made of them and the items' parent ids go in with the rows
    const groups = inputs.map(groupItems);
    const ids = await repo.nextIds(tx, inputs.length + groups.reduce((n, items) => n + items.length, 0));
    // (a row takes only the fields that are columns: its children and allowDuplicate stay behind)
    const parents = inputs.map((input, i) => ({
      ...input,
      id: ids[i] as string,
      code: codeOf(ids[i] as string),
      contentHash: hashes[i],
      currentVersion: 1,
    }));
    let next = inputs.length;
    const items = parents.flatMap((parent, i) =>
      childRows(parent, groups[i] as ItemInput[]).map((row) => ({ ...row, id: ids[next++] as string })),
    );
    const stored = new Map((await repo.insertMany(tx, parents, ctx, {}, { ids: true })).map((row) => [row.id, row]));
    if (items.length) await repo.insertMany(tx, items, ctx, {}, { ids: true, returning: false });
    const itemsOf = new Map<string, QuestionItem[]>();
    for (const { id, parentId, subOrder, stem, stemMediaFileIds, options, answer, analysis } of items)
      itemsOf.set(parentId, [
        ...(itemsOf.get(parentId) ?? []),
        {
          id,
          subOrder,
          stem,
          stemMediaFileIds: stemMediaFileIds ?? [],
          options: options ?? null,
          answer: answer ?? null,
          analysis: analysis ?? null,
        },
      ]);
    // the groups as `find` reads them: the fields it computes are known here (the names just checked, a new group's
    // items and its review that has not happened), cheaper than a subquery of each for every row
    const questions = parents.map(({ id }, i) => {
      const question = stored.get(id) as Question;
      const children = itemsOf.get(id) ?? [];
      const named = [...new Set(question.knowledgePointIds)].map(
        (p) => points.get(p) as { name: string; order: number },
      );
      question.categoryName = categories.get(question.categoryId) ?? null;
      question.knowledgePointNames = named.sort((a, b) => a.order - b.order).map((p) => p.name);
      question.suggestedScore = inputs[i]?.suggestedScore ?? null;
      question.reviewedByName = null;
      question.reviewedAt = null;
      question.childCount = children.length;
      question.children = children;
      return question;
    });
    // the first versions, in one statement of the questions' JSON: a snapshot is a question without its lock
    await sql`INSERT INTO question_version (tenant_id, question_id, number, snapshot, created_by)
      SELECT ${ctx.tenantId}, (q->>'id')::bigint, (q->>'currentVersion')::int, q - 'version', ${ctx.actorId}
      FROM jsonb_array_elements(${jsonbParameter(JSON.stringify(questions))}) AS q`.execute(tx);
    for (const question of questions)
      if (mediaIdsOf(question).length > 0) await holdMedia(tx, question, true, ctx.lang);
    return questions;
  }

  /** The snapshot of the question as it now is, under its current version (replacing a draft's, adding a new one). */
  async function snapshot(tx: Tx, question: Question, ctx: WriteContext, note?: string) {
    const { version: _lock, ...content } = question;
    await tx
      .insertInto('question_version')
      .values({
        tenant_id: ctx.tenantId,
        question_id: question.id,
        number: question.currentVersion,
        snapshot: JSON.stringify(content),
        change_note: note ?? null,
        created_by: ctx.actorId,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'question_id', 'number']).doUpdateSet({
          snapshot: JSON.stringify(content),
          change_note: note ?? null,
          updated_at: ctx.now,
          updated_by: ctx.actorId,
        }),
      )
      .execute();
  }

  const groupItems = (input: { questionType: QuestionType; children?: ItemInput[] | null }) =>
    isGroup(input.questionType) ? (input.children ?? []) : [];

  const store: ResourceStore<Question, CreateQuestion, UpdateQuestion> = {
    /** A keyword (not a code), a knowledge point or a tag is answered by a GIN index (`countedList`). */
    async list(tx, query) {
      const keyword = filterValue(query, 'keyword');
      const category = filterValue(query, 'categoryId');
      const point = filterValue(query, 'knowledgePointId');
      const tag = filterValue(query, 'tag');
      const unused = filterValue(query, 'notUsedWithinDays');
      const categories =
        category?.kind === 'eq' ? await subtreeIds(tx, 'question_category', [category.value]) : undefined;
      const points = point?.kind === 'eq' ? await subtreeIds(tx, 'knowledge_point', [point.value]) : undefined;
      const text = keyword?.kind === 'keyword' ? keyword.text.trim() : undefined;
      const code = text !== undefined && /^Q\d+(-\d+)?$/i.test(text);
      const inScope = await scopedTo(tx, query.viewer);
      const narrow: Narrow = (qb) => {
        let q = inScope(topLevel(qb));
        if (categories) q = q.where(sql<boolean>`question.category_id = ANY(${categories}::bigint[])`);
        if (points) q = q.where(sql<boolean>`question.knowledge_point_ids && ${points}::bigint[]`);
        if (tag?.kind === 'eq') q = q.where(sql<boolean>`question.tags @> ARRAY[${tag.value}]::text[]`);
        if (unused?.kind === 'eq') q = q.where(notUsedWithin(sql`question`, Number(unused.value)));
        if (text !== undefined) q = code ? q.where('code', '=', text.toUpperCase()) : q.where(stemHas(text));
        return q;
      };
      // "not used lately" holds for most of a bank: its matches are counted up to COUNTED in the list's order, as
      // those of an index are, rather than all of them
      const indexed =
        points !== undefined || tag?.kind === 'eq' || unused !== undefined || (text !== undefined && !code);
      return countedList(tx, repo, query, narrow, indexed);
    },
    find: (tx, id, viewer) => find(tx, id, viewer),

    /** An import's questions by content hash (`importKey`): its exact duplicates in the bank. */
    async findAllByKey(tx, hashes) {
      const rows = await sameContent(tx, hashes);
      return rows.map(
        (r) =>
          ({ id: String(r.id), code: r.code, version: r.version, contentHash: r.content_hash }) as unknown as Question,
      );
    },

    fromImport: (tx, record, existing, ctx) => questionFromImport(tx, record, existing, ctx, CreateQuestion),
    importDuplicate: sameAsInBank,

    /**
     * A dry run lists the likely duplicates of its first questions (`similarInImport`); the import that writes does
     * not look again (its look-ups would cost the bank's large imports their time, and find its own rows).
     */
    importWarnings: (ctx, options) => (options.dryRun ? similarInImport(ctx) : undefined),

    async create(tx, given, ctx) {
      checkQuestion(given as QuestionInput, ctx.lang);
      await checkMedia(tx, undefined, given, ctx.lang);
      const input = withWeights(given as QuestionInput) as CreateQuestion;
      const { children: items, allowDuplicate, ...values } = input;
      await checkRefs(tx, input, ctx.lang, true);
      await catalogueTags(tx, input.tags ?? [], ctx);
      const hash = contentHash(input);
      if (!allowDuplicate) await refuseDuplicate(tx, hash, undefined, ctx.lang);
      // the code is made of the id, known once the row is in
      const made = await repo.insert(
        tx,
        { ...values, code: `new-${ctx.now.getTime()}`, contentHash: hash, currentVersion: 1 },
        ctx,
      );
      const code = `Q${made.id.padStart(8, '0')}`;
      await tx.updateTable('question').set({ code }).where('id', '=', made.id).execute();
      await writeChildren(tx, { ...made, code }, groupItems(input), ctx);
      const question = (await find(tx, made.id)) as Question;
      await snapshot(tx, question, ctx);
      await holdMedia(tx, question, true, ctx.lang);
      return question;
    },

    async update(tx, current, input, ctx) {
      if (!EDITABLE.includes(current.status))
        throw new AppError('question.notAllowed', { code: current.code, status: current.status });
      const { version, children: items, allowDuplicate, changeNote, ...values } = input;
      const versioned = VERSIONED.includes(current.status);
      if (input.questionType && input.questionType !== current.questionType && current.currentVersion > 1)
        throw invalidField('questionType', texts[ctx.lang].typeFixed);
      const merged = {
        questionType: current.questionType,
        medicalFormat: current.medicalFormat,
        stem: current.stem,
        stemMediaFileIds: current.stemMediaFileIds,
        options: current.options,
        answer: current.answer,
        children: current.children,
        ...values,
        ...(items !== undefined && { children: items }),
      } as QuestionInput;
      checkQuestion(merged, ctx.lang);
      await checkMedia(tx, current.id, merged, ctx.lang);
      const weighted = withWeights(merged);
      await checkRefs(tx, input, ctx.lang, input.categoryId !== undefined && input.categoryId !== current.categoryId);
      await catalogueTags(tx, input.tags ?? [], ctx);
      const hash = contentHash(merged);
      if (!allowDuplicate && hash !== (await storedHash(tx, current.id)))
        await refuseDuplicate(tx, hash, current.id, ctx.lang);
      const updated = await repo.update(
        tx,
        current.id,
        { ...values, contentHash: hash, currentVersion: current.currentVersion + (versioned ? 1 : 0) },
        ctx,
        version,
      );
      if (!updated) return undefined;
      if (items !== undefined || values.questionType || values.categoryId || values.medicalFormat !== undefined)
        await writeChildren(tx, updated, groupItems(weighted), ctx);
      const question = (await find(tx, current.id)) as Question;
      await snapshot(tx, question, ctx, changeNote);
      // a save of a ready (or hidden) question adds a version; a draft's replaces its version
      await holdMedia(tx, question, versioned, ctx.lang);
      return question;
    },

    async remove(tx, rows) {
      const ids = rows.map((r) => r.id);
      // a paper holds it, published (usage) or still a draft
      const placed = await tx
        .selectFrom('paper_slot')
        .select('question_id')
        .where('question_id', 'in', ids)
        .executeTakeFirst();
      const used = rows.find((row) => row.usageCount > 0 || row.id === String(placed?.question_id));
      if (used) throw new AppError('question.inUse', { code: used.code });
      await tx.deleteFrom('question').where('parent_id', 'in', ids).execute();
      await tx.deleteFrom('question').where('id', 'in', ids).execute();
      // the images of every version go with the question (orphans, removed after a day)
      await releaseFiles(tx, QUESTION_MEDIA, ids);
    },
  };

  store.createMany = sameAsCreate(createMany, store.create);

  const storedHash = async (tx: Tx, id: string) =>
    (await tx.selectFrom('question').select('content_hash').where('id', '=', id).executeTakeFirst())?.content_hash;

  /** A batch of the list as the import template's rows: each group with its items, categories and points by code. */
  async function exportRows(tx: Tx, rows: Question[]) {
    const groups = rows.filter((r) => r.childCount > 0).map((r) => r.id);
    const items = groups.length ? await childrenOf(tx, groups) : [];
    const categoryIds = [...new Set(rows.map((r) => r.categoryId))];
    const pointIds = [...new Set(rows.flatMap((r) => r.knowledgePointIds))];
    const codes = async (table: 'question_category' | 'knowledge_point', ids: string[]) =>
      new Map(
        ids.length
          ? (
              await tx
                .selectFrom(table)
                .select(['id', 'code'])
                .where(sql<boolean>`id = ANY(${ids}::bigint[])`)
                .execute()
            ).map((n) => [String(n.id), n.code])
          : [],
      );
    const [categories, points] = await Promise.all([
      codes('question_category', categoryIds),
      codes('knowledge_point', pointIds),
    ]);
    return rows.flatMap((row) =>
      questionSheetRows(
        row,
        items.filter((i) => i.parentId === row.id).map((i) => i.item),
        categories.get(row.categoryId),
        row.knowledgePointIds.flatMap((id) => points.get(id) ?? []),
      ),
    );
  }

  const resource = createResourceService(questionResource, store, deps, undefined, undefined, exportRows);

  /** A move of the status (a step of the review, or a bulk change), on the question and its items. */
  async function move(tx: Tx, ctx: WriteContext, row: Question, to: Move, comment?: string) {
    const { from, to: status } = MOVES[to];
    if (!(from as readonly QuestionStatus[]).includes(row.status))
      // named: a bulk change moves several at once
      throw new AppError('question.notAllowed', { code: row.code, status: row.status });
    const decided = to === 'approve' || to === 'reject';
    await tx
      .updateTable('question')
      .set({
        status,
        ...(decided && { reviewed_by: ctx.actorId, reviewed_at: ctx.now, review_comment: comment ?? null }),
        ...(to === 'submit' && { submitted_by: ctx.actorId }),
        updated_at: ctx.now,
        updated_by: ctx.actorId,
        version: sql`version + 1`,
      })
      .where((eb) => eb.or([eb('id', '=', row.id), eb('parent_id', '=', row.id)]))
      .execute();
  }

  const step = (ctx: WriteContext, id: string, action: string, to: Move, version: number, comment?: string) =>
    resource.act(
      ctx,
      id,
      action,
      async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (to === 'reject' && !comment) throw invalidField('comment', texts[ctx.lang].commentRequired);
        if (to === 'approve' || to === 'reject') {
          // a second pair of eyes: neither its author nor who submitted it decides on a question
          const own = await tx
            .selectFrom('question')
            .select(['created_by', 'submitted_by'])
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          if ([own.created_by, own.submitted_by].some((who) => who !== null && String(who) === ctx.actorId))
            throw invalidField('decision', texts[ctx.lang].ownReview);
        }
        await move(tx, ctx, row, to, comment);
        return (await find(tx, id)) as Question;
      },
      comment,
    );

  return {
    resource,

    submit: (ctx: WriteContext, id: string, { version }: { version: number }) =>
      step(ctx, id, 'submit', 'submit', version),

    review: (ctx: WriteContext, id: string, { decision, comment, version }: ReviewQuestion) =>
      step(ctx, id, 'review', decision, version, comment),

    /** Several questions changed at once (category, difficulty, tags, knowledge points, status): all or none. */
    bulkUpdate: (ctx: WriteContext, input: BulkUpdateQuestions) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        await checkRefs(tx, { categoryId: input.categoryId, knowledgePointIds: input.addKnowledgePointIds }, ctx.lang);
        await catalogueTags(tx, input.addTags ?? [], ctx);
        const done: Question[] = [];
        for (const id of new Set(input.ids)) {
          // a question outside the changer's data scope is not found: none of them changes
          const before = await find(tx, id, ctx.actorId);
          if (!before) throw notFound();
          if (input.status) await move(tx, ctx, before, input.status);
          const tags = [...new Set([...before.tags, ...(input.addTags ?? [])])].filter(
            (t) => !input.removeTags?.includes(t),
          );
          const points = [...new Set([...before.knowledgePointIds, ...(input.addKnowledgePointIds ?? [])])].filter(
            (p) => !input.removeKnowledgePointIds?.includes(p),
          );
          const values = {
            ...(input.categoryId && { category_id: input.categoryId }),
            ...(input.difficulty && { difficulty: input.difficulty }),
            tags,
            knowledge_point_ids: points,
          };
          await tx
            .updateTable('question')
            .set({ ...values, updated_at: ctx.now, updated_by: ctx.actorId, version: sql`version + 1` })
            .where('id', '=', id)
            .execute();
          if (input.categoryId)
            await tx
              .updateTable('question')
              .set({ category_id: input.categoryId })
              .where('parent_id', '=', id)
              .execute();
          const after = (await find(tx, id)) as Question;
          await deps.audit.record(tx, ctx, {
            action: 'assess:question:bulk-update',
            resourceType: 'question',
            resourceId: id,
            summary: questionResource.label(after),
            before,
            after,
          });
          done.push(after);
        }
        return done;
      }),

    /** The questions most like the given text: the same normalised text, then by trigram similarity of the stem. */
    duplicates: (tenantId: string, input: FindDuplicates, viewer?: string): Promise<Duplicate[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const hash = contentHash(input);
        const inScope = await scopedTo(tx, viewer);
        const text = normalised(input.stem);
        // `%` finds the similar stems through the trigram index (similarity() alone reads every row), which only the
        // system role may use (`readIndexed`): the likeliest ids are found there, then read as the tenant's
        await likeAtSimilar(tx);
        const exact = sql<boolean>`content_hash = ${hash}`;
        const similarity = sql<number>`similarity(stem, ${input.stem})::float8`;
        const likeliest = await readIndexed(tx, async () => {
          let q = inScope(tx.selectFrom('question'))
            .select('id')
            .where(sql<boolean>`tenant_id = ${currentTenant}`)
            .where('parent_id', 'is', null)
            .where((eb) => eb.or([eb('content_hash', '=', hash), sql<boolean>`stem % ${input.stem}`]));
          if (input.excludeId) q = q.where('id', '<>', input.excludeId);
          const found = await q.orderBy(exact, 'desc').orderBy(similarity, 'desc').limit(DUPLICATES).execute();
          return found.map((r) => String(r.id));
        });
        if (likeliest.length === 0) return [];
        const rows = await tx
          .selectFrom('question')
          .select(['id', 'code', 'stem', 'status', exact.as('exact'), similarity.as('similarity')])
          .where('id', 'in', likeliest)
          .orderBy(exact, 'desc')
          .orderBy('similarity', 'desc')
          .execute();
        return rows.map((r) => ({
          id: String(r.id),
          code: r.code,
          stem: r.stem,
          status: r.status,
          exact: Boolean(r.exact) || normalised(r.stem) === text,
          similarity: Math.round(Number(r.similarity) * 1000) / 1000,
        }));
      }),

    /**
     * The tags a question may be given or found by: the enabled tags of the catalogue's `question` scope (those
     * questions were given join it), those holding `keyword` when given, in the catalogue's order.
     */
    tags: (tenantId: string, keyword?: string): Promise<string[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        let q = tx.selectFrom('tag').select('name').where('scope', '=', 'question').where('status', '=', 'enabled');
        const text = keyword?.trim();
        if (text) q = q.where('name', 'ilike', `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        const rows = await q.orderBy('sort').orderBy('name').limit(TAGS).execute();
        return rows.map((r) => r.name);
      }),

    /** The images the question holds: those any of its versions shows (links signed by the file service). */
    media: (tenantId: string, id: string, viewer?: string): Promise<string[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        return heldMedia(tx, id);
      }),

    /** The papers that hold the question, each with the version it pins. */
    papers: (tenantId: string, id: string, viewer?: string): Promise<QuestionUse[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        const rows = await tx
          .selectFrom('paper_slot as s')
          .innerJoin('exam_paper as p', 'p.id', 's.paper_id')
          .select(['p.id', 'p.code', 'p.title', 'p.status', 's.question_version'])
          .where('s.question_id', '=', id)
          .orderBy('p.id', 'desc')
          .execute();
        return rows.map((r) => ({
          paperId: String(r.id),
          code: r.code,
          title: r.title,
          status: r.status,
          questionVersion: r.question_version,
        }));
      }),

    /** How the question is used (`QuestionStatistics`); attempts are not counted here (domain §10.6). */
    statistics: (tenantId: string, id: string, viewer?: string): Promise<QuestionStatistics> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const row = await find(tx, id, viewer);
        if (!row) throw notFound();
        const { rows } = await sql<{ status: string; n: number }>`SELECT p.status,
            count(DISTINCT p.id)::int AS n
          FROM paper_slot s JOIN exam_paper p ON p.id = s.paper_id
          WHERE s.question_id = ${id} AND p.status <> 'archived' GROUP BY p.status`.execute(tx);
        const versions = await tx
          .selectFrom('question_version')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('question_id', '=', id)
          .executeTakeFirstOrThrow();
        const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
        const used = await tx.selectFrom('question').select('last_used_at').where('id', '=', id).executeTakeFirst();
        return {
          usageCount: row.usageCount,
          versionCount: versions.n,
          papers: { draft: count('draft'), published: count('published'), closed: count('closed') },
          lastUsedAt: used?.last_used_at ? new Date(used.last_used_at).toISOString() : null,
          drawableBy: await papersThatMayDraw(tx, id),
        };
      }),

    /** Every version of a question, newest first, each with its snapshot. */
    versions: (tenantId: string, id: string, viewer?: string): Promise<QuestionVersion[]> =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id, viewer))) throw notFound();
        const rows = await tx
          .selectFrom('question_version as v')
          .leftJoin('admin_user as u', 'u.id', 'v.created_by')
          .select(['v.number', 'v.change_note', 'v.created_at', 'v.updated_at', 'v.snapshot', 'u.display_name'])
          .where('v.question_id', '=', id)
          .orderBy('v.number', 'desc')
          .execute();
        return rows.map((r) => ({
          number: r.number,
          changeNote: r.change_note,
          createdAt: new Date(r.updated_at ?? r.created_at).toISOString(),
          createdByName: r.display_name ?? null,
          snapshot: r.snapshot as Record<string, unknown>,
        }));
      }),
  };
}

export type QuestionService = ReturnType<typeof createQuestionService>;
