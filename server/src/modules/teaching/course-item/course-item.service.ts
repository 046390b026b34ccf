import { sql } from 'kysely';
import type { Config } from '../../../config';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { Jobs } from '../../../core/jobs';
import type { Outbound } from '../../../core/outbound';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { cleanRichText } from '../../content/document/rich-text';
import { claimFiles, releaseFiles } from '../../file/attachments';
import { dataScopeOf, inDataScope } from '../../people/organization/data-scope';
import { TRAINEE_BASES } from '../../people/trainee/trainee.scope';
import { completesAt, courseStatus, settleEnrolments, whyUnpublishable } from './completion';
import { createMediaProcessing, restartMedia } from './course-item.media';
import {
  type CourseItem,
  type CreateCourseItem,
  courseItemResource,
  courseItemTable,
  HELD,
  HOLDS,
  type ItemProgress,
  type ItemStatus,
  MATERIAL,
  MAX_COURSE_ITEMS,
  MEDIA_TYPES,
  type RecordProgress,
  type ReorderItems,
  type ReplaceMedia,
  type UpdateCourseItem,
} from './course-item.resource';

const texts = {
  'zh-CN': {
    noCourse: '课程不存在或已归档',
    notChapter: '须为同一课程的章节',
    chapterAtTop: '章节不能放在其他章节下',
    required: '此类型的内容须填写',
    noPaper: '试卷不存在',
    paperNotPublished: '测验所用试卷尚未发布：请先发布该试卷',
    paperClosed: '测验所用试卷已关闭，不能再用：请改用已发布的试卷（可复制该试卷后发布）',
    wholeCourse: '须按新顺序列出本课程的全部内容，且各出现一次',
    notEnrolled: '该学员未加入本课程',
    outOfScope: '该学员不在您的数据权限范围内',
    chapterProgress: '章节没有学习进度',
    full: `一门课程最多 ${MAX_COURSE_ITEMS} 项内容`,
    lastItem: '这是已发布课程中最后一项已发布的内容：请先下架课程',
    finalQuiz: '这是已发布课程结课试卷的测验，学员须通过它才能完成课程：请先下架课程或更换结课试卷',
    noFile: '请先上传文件再发布',
    mediaPending: '媒体文件仍在处理中，处理完成后才能发布',
    mediaFailed: '媒体文件无法读取，请重新处理或更换文件后再发布',
    noDocument: '文档不存在',
    documentNotPublished: '文档库中的该文档尚未发布：请先发布该文档',
    fileOrDocument: '文档须为上传的文件或文档库中的文档，二者选一',
    endBeforeStart: '须晚于开始时间',
    notAudio: '须为音频文件',
  },
  'en-US': {
    noCourse: 'is not an existing course, or it is archived',
    notChapter: 'must be a chapter of the same course',
    chapterAtTop: 'a chapter cannot sit in another chapter',
    required: 'is required for this type of item',
    noPaper: 'is not an existing paper',
    paperNotPublished: "the quiz's paper is not published: publish it first",
    paperClosed: "the quiz's paper is closed: choose a published paper (a clone of it, once published, will do)",
    wholeCourse: 'must list every item of the course once, in the new order',
    notEnrolled: 'is not enrolled on this course',
    outOfScope: 'is not a trainee within your data scope',
    chapterProgress: 'a chapter has no progress of its own',
    full: `a course holds ${MAX_COURSE_ITEMS} items at most`,
    lastItem: 'this is the last published item of a published course: take the course offline first',
    finalQuiz:
      "this is the quiz on a published course's final paper, which trainees pass to complete it: take the course offline or change its final paper first",
    noFile: 'upload its file before publishing it',
    mediaPending: 'the media file is still being processed: publish it once it is ready',
    mediaFailed: 'the media file could not be read: process it again or replace it before publishing',
    noDocument: 'is not an existing document',
    documentNotPublished: 'the document is not published in the document base: publish it first',
    fileOrDocument: 'a document is an uploaded file or a document of the document base, one of the two',
    endBeforeStart: 'must be after the start',
    notAudio: 'must be an audio file',
  },
};

/**
 * Course items (docs/domain.md §8.2): a course's chapters (at the top) and content (videos and documents of stored
 * files, links, quizzes of a paper), each in its chapter or beside them, in an order changed as a whole; published,
 * hidden (a video or document with its file, a video once read; a quiz on a published paper). Progress per trainee on
 * an item (reported by the learning client, or recorded by hand) completes it at its threshold (a quiz: at its paper's
 * pass mark); the course's enrolments are settled again (./completion.ts) when it is recorded and when what counts
 * changes, and a published course keeps one published item and its final quiz. A video's file, set or replaced,
 * is read for its length in the background (./course-item.media.ts), and read again when that failed.
 */
export function createCourseItemService(deps: ResourceDeps & { jobs: Jobs; config: Config; outbound: Outbound }) {
  const repo = courseItemTable;
  const { tenancy } = deps;
  const media = createMediaProcessing(deps);
  const find = (tx: Tx, id: string) => repo.find(tx, id);
  const holder = (id: string) => ({ bizType: MATERIAL, bizId: id });
  /**
   * A file is held by one item, and shown by every item of that file (a cloned course's items share its source's): the
   * files these items hold that another item still shows are handed to that item before they let them go, so that
   * a file is never left an orphan while an item shows it.
   */
  const handOver = (tx: Tx, ids: readonly string[]) =>
    sql`UPDATE file f SET biz_id = (SELECT min(i.id) FROM course_item i
        WHERE i.file_id = f.id AND NOT (i.id = ANY(${ids}::bigint[])))
      WHERE f.biz_type = ${MATERIAL} AND f.biz_id = ANY(${ids}::bigint[])
        AND EXISTS (SELECT 1 FROM course_item i WHERE i.file_id = f.id AND NOT (i.id = ANY(${ids}::bigint[])))`.execute(
      tx,
    );

  const refuseUnless = (row: CourseItem, ...allowed: ItemStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('courseItem.notAllowed', { status: row.status });
  };

  async function check(tx: Tx, input: Partial<CreateCourseItem>, current: CourseItem | undefined, lang: Lang) {
    const t = texts[lang];
    const courseId = input.courseId ?? current?.courseId;
    const type = input.itemType ?? current?.itemType;
    if (input.courseId) {
      const course = await tx.selectFrom('course').select('status').where('id', '=', input.courseId).executeTakeFirst();
      if (!course || course.status === 'archived') throw invalidField('courseId', t.noCourse);
      if (!current) {
        const held = await tx
          .selectFrom('course_item')
          .select(sql<number>`count(*)::int`.as('count'))
          .where('course_id', '=', input.courseId)
          .executeTakeFirstOrThrow();
        if (held.count >= MAX_COURSE_ITEMS) throw invalidField('courseId', t.full);
      }
    }
    if (input.parentId) {
      if (type === 'chapter') throw invalidField('parentId', t.chapterAtTop);
      const parent = await tx
        .selectFrom('course_item')
        .select(['course_id', 'item_type'])
        .where('id', '=', input.parentId)
        .executeTakeFirst();
      if (!parent || String(parent.course_id) !== courseId || parent.item_type !== 'chapter')
        throw invalidField('parentId', t.notChapter);
    }
    const holds = type ? HOLDS[type] : [];
    const held = (key: (typeof HELD)[number]) => (input[key] === undefined ? current?.[key] : input[key]);
    if (holds.length > 0 && !holds.some((key) => held(key))) throw invalidField(holds[0] as string, t.required);
    if (input.fileId && input.documentId) throw invalidField('documentId', t.fileOrDocument);
    if (input.documentId) {
      const doc = await tx.selectFrom('document').select('id').where('id', '=', input.documentId).executeTakeFirst();
      if (!doc) throw invalidField('documentId', t.noDocument);
    }
    if (input.fileId && type === 'audio' && input.fileId !== current?.fileId)
      await refuseUnlessAudio(tx, input.fileId, lang);
    const live = input.liveConfig;
    if (live && Date.parse(live.endAt) <= Date.parse(live.startAt))
      throw invalidField('liveConfig.endAt', t.endBeforeStart);
    if (input.examPaperId) {
      const paper = await tx
        .selectFrom('exam_paper')
        .select('id')
        .where('id', '=', input.examPaperId)
        .executeTakeFirst();
      if (!paper) throw invalidField('examPaperId', t.noPaper);
    }
  }

  async function refuseUnlessAudio(tx: Tx, fileId: string, lang: Lang) {
    const file = await tx.selectFrom('file').select('mime_type').where('id', '=', fileId).executeTakeFirst();
    if (file && !file.mime_type?.startsWith('audio/')) throw invalidField('fileId', texts[lang].notAudio);
  }

  /**
   * What a type does not hold is cleared (a link keeps no file); a document set from the base lets go of its file, and
   * the other way round; rich text is sanitised.
   */
  const shaped = <T extends Partial<CreateCourseItem>>(input: T, type: CourseItem['itemType']): T => {
    const kept = HOLDS[type];
    const out = { ...input };
    for (const key of HELD) if (!kept.includes(key) && key in out) out[key] = null;
    if (type === 'document' && input.documentId && !input.fileId) out.fileId = null;
    if (type === 'document' && input.fileId && !input.documentId) out.documentId = null;
    if (out.contentHtml !== undefined) out.contentHtml = cleanRichText(out.contentHtml).html;
    return out;
  };

  const store: ResourceStore<CourseItem, CreateCourseItem, UpdateCourseItem> = {
    list: (tx, query) => repo.list(tx, query),
    find,
    async create(tx, raw, ctx) {
      const input = shaped(raw, raw.itemType);
      await check(tx, input, undefined, ctx.lang);
      const last = await tx
        .selectFrom('course_item')
        .select(sql<number>`coalesce(max(sort), -1)::int`.as('sort'))
        .where('course_id', '=', input.courseId)
        .executeTakeFirstOrThrow();
      const made = await repo.insert(tx, { ...input, sort: last.sort + 1 }, ctx);
      if (input.fileId && HOLDS[input.itemType].includes('fileId')) {
        await claimFiles(tx, holder(made.id), [input.fileId], 'fileId', ctx.lang);
        if (MEDIA_TYPES.includes(input.itemType)) await restartMedia(tx, made.id);
      }
      return (await find(tx, made.id)) as CourseItem;
    },
    async update(tx, current, raw, ctx) {
      const input = shaped(raw, current.itemType);
      await check(tx, input, current, ctx.lang);
      const { version, ...values } = input;
      const updated = await repo.update(tx, current.id, values, ctx, version);
      if (!updated) return undefined;
      const counts =
        (input.isRequired !== undefined && input.isRequired !== current.isRequired) ||
        (input.examPaperId !== undefined && input.examPaperId !== current.examPaperId);
      // a published item keeps what it needs to be published (a published document of the base, a ready file)
      if (current.status === 'published' && (input.documentId || input.fileId) && current.itemType === 'document')
        await refuseUnpublishable(tx, { ...current, ...input } as CourseItem, ctx.lang);
      // a published quiz stays on a published paper
      if (current.status === 'published' && current.itemType === 'quiz' && input.examPaperId)
        await refuseUnpublishable(tx, { ...current, examPaperId: input.examPaperId }, ctx.lang);
      if (current.status === 'published' && counts) await changed(tx, current.courseId, ctx);
      // a file shared with another item (a clone's) stays with the item that holds it
      if (input.fileId !== undefined && input.fileId !== current.fileId && HOLDS[current.itemType].includes('fileId')) {
        await handOver(tx, [current.id]);
        await claimFiles(tx, holder(current.id), input.fileId ? [input.fileId] : [], 'fileId', ctx.lang);
        if (input.fileId && input.fileId !== current.fileId && MEDIA_TYPES.includes(current.itemType))
          await restartMedia(tx, current.id);
      }
      return (await find(tx, current.id)) as CourseItem;
    },
    async remove(tx, rows, ctx) {
      const ids = rows.map((r) => r.id);
      for (const row of rows) {
        if (row.itemType !== 'chapter') continue;
        const inside = await tx
          .selectFrom('course_item')
          .select('id')
          .where('parent_id', '=', row.id)
          .where('id', 'not in', ids)
          .executeTakeFirst();
        if (inside) throw new AppError('courseItem.hasChildren', { name: row.title });
      }
      await handOver(tx, ids);
      await releaseFiles(tx, MATERIAL, ids);
      // the chapters go last: an item in a chapter deleted with it goes before it
      const inChapters = rows.filter((r) => r.itemType !== 'chapter').map((r) => r.id);
      await repo.remove(tx, inChapters, ctx);
      await repo.remove(
        tx,
        ids.filter((id) => !inChapters.includes(id)),
        ctx,
      );
      const touched = new Set(
        rows.filter((r) => r.status === 'published' && r.itemType !== 'chapter').map((r) => r.courseId),
      );
      for (const courseId of touched) await changed(tx, courseId, ctx);
    },
  };

  const generic = createResourceService(courseItemResource, store, deps);
  /** A write that left the item's media pending queues its reading, once committed. */
  const kicked = async (tenantId: string, row: CourseItem) => {
    if (row.mediaStatus === 'pending') await media.kick(tenantId, row.id);
    return row;
  };
  const resource: typeof generic = {
    ...generic,
    create: async (ctx, input) => kicked(ctx.tenantId, await generic.create(ctx, input)),
    update: async (ctx, id, input) => kicked(ctx.tenantId, await generic.update(ctx, id, input)),
  };

  const versioned = versionedAct(resource, repo, (tx, id) => find(tx, id));

  /**
   * What an item needs to be published: what its type holds (a file, a document of the base, an address, a paper, its
   * text or its live session); a quiz's paper published, a document of the base published, a media file read.
   */
  async function refuseUnpublishable(tx: Tx, row: CourseItem, lang: Lang) {
    const t = texts[lang];
    const holds = HOLDS[row.itemType];
    if (holds.length > 0 && !holds.some((key) => row[key]))
      throw invalidField(holds[0] as string, holds[0] === 'fileId' ? t.noFile : t.required);
    if (row.itemType === 'document' && row.documentId) {
      const doc = await tx.selectFrom('document').select('status').where('id', '=', row.documentId).executeTakeFirst();
      if (doc?.status !== 'published') throw invalidField('documentId', t.documentNotPublished);
    }
    if (row.itemType === 'quiz') {
      const paper = await tx
        .selectFrom('exam_paper')
        .select('status')
        .where('id', '=', row.examPaperId as string)
        .executeTakeFirst();
      if (paper?.status !== 'published')
        throw invalidField('examPaperId', paper?.status === 'closed' ? t.paperClosed : t.paperNotPublished);
    }
    if (MEDIA_TYPES.includes(row.itemType) && row.mediaStatus !== 'ready')
      throw invalidField('fileId', row.mediaStatus === 'failed' ? t.mediaFailed : t.mediaPending);
  }

  /**
   * After what counts in a course changed: a published course stays publishable (its last published item, or the
   * quiz on its final paper, is not taken from it: it is taken offline first), and its enrolments are settled again.
   */
  async function changed(tx: Tx, courseId: string, ctx: WriteContext) {
    if ((await courseStatus(tx, courseId)) === 'published') {
      const why = await whyUnpublishable(tx, courseId);
      if (why === 'noItem') throw invalidField('courseId', texts[ctx.lang].lastItem);
      if (why) throw invalidField('examPaperId', texts[ctx.lang].finalQuiz);
    }
    await settleEnrolments(tx, courseId, ctx.now);
  }

  const act = (ctx: WriteContext, id: string, action: string, version: number, to: ItemStatus, from: ItemStatus[]) =>
    resource.act(ctx, id, action, async (tx, row) => {
      if (row.version !== version) throw versionConflict();
      refuseUnless(row, ...from);
      if (to === 'published') await refuseUnpublishable(tx, row, ctx.lang);
      await repo.update(tx, id, { status: to }, ctx);
      if (row.itemType !== 'chapter') await changed(tx, row.courseId, ctx);
      return (await find(tx, id)) as CourseItem;
    });

  return {
    resource,

    publish: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, 'published', ['draft', 'hidden']),
    hide: (ctx: WriteContext, id: string, version: number) => act(ctx, id, 'hide', version, 'hidden', ['published']),

    /**
     * A video's file replaced by another uploaded one: the old file is let go (an orphan, removed after a day), and
     * the new one is read from the start.
     */
    replaceMedia: async (ctx: WriteContext, id: string, input: ReplaceMedia) =>
      kicked(
        ctx.tenantId,
        await versioned(ctx, id, 'replace-media', input.version, async (tx, row) => {
          if (!MEDIA_TYPES.includes(row.itemType)) throw new AppError('courseItem.notMedia');
          if (row.itemType === 'audio') await refuseUnlessAudio(tx, input.fileId, ctx.lang);
          await handOver(tx, [id]);
          await claimFiles(tx, holder(id), [input.fileId], 'fileId', ctx.lang);
          await restartMedia(tx, id);
          return { fileId: input.fileId };
        }),
      ),

    /** A video whose file could not be read is read again (its file may be back in its store). */
    retryMedia: async (ctx: WriteContext, id: string, version: number) =>
      kicked(
        ctx.tenantId,
        await versioned(ctx, id, 'retry-media', version, async (tx, row) => {
          if (!MEDIA_TYPES.includes(row.itemType)) throw new AppError('courseItem.notMedia');
          if (row.mediaStatus !== 'failed')
            throw new AppError('courseItem.mediaNotFailed', { status: row.mediaStatus ?? '-' });
          await restartMedia(tx, id);
        }),
      ),

    /** The background reading (tests drive it): the job of one item, and the sweep. */
    media,

    /** The course's items in a new order, each in its chapter (or at the top): every item once, or nothing moves. */
    reorder: (ctx: WriteContext, input: ReorderItems) =>
      tenancy.inTenant(ctx.tenantId, async (tx) => {
        const t = texts[ctx.lang];
        const items = await tx
          .selectFrom('course_item')
          .select(['id', 'item_type'])
          .where('course_id', '=', input.courseId)
          .execute();
        if (items.length === 0) throw notFound();
        const types = new Map(items.map((i) => [String(i.id), i.item_type]));
        const listed = new Set(input.items.map((i) => i.id));
        if (
          listed.size !== input.items.length ||
          listed.size !== types.size ||
          ![...listed].every((id) => types.has(id))
        )
          throw invalidField('items', t.wholeCourse);
        input.items.forEach((item, i) => {
          if (!item.parentId) return;
          if (types.get(item.id) === 'chapter') throw invalidField(`items.${i}.parentId`, t.chapterAtTop);
          if (types.get(item.parentId) !== 'chapter') throw invalidField(`items.${i}.parentId`, t.notChapter);
        });
        for (const [sort, item] of input.items.entries())
          await tx
            .updateTable('course_item')
            .set({ sort, parent_id: item.parentId, updated_at: ctx.now, updated_by: ctx.actorId })
            .where('id', '=', item.id)
            .execute();
        await deps.audit.record(tx, ctx, {
          action: 'teaching:course-item:update',
          resourceType: 'course',
          resourceId: input.courseId,
          summary: '',
          after: input.items,
        });
        return { moved: input.items.length };
      }),

    /** Every item of a course in its order (a course holds MAX_COURSE_ITEMS at most): what its outline shows. */
    outline: (tenantId: string, courseId: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        const course = await tx.selectFrom('course').select('id').where('id', '=', courseId).executeTakeFirst();
        if (!course) throw notFound();
        const { rows } = await repo.list(
          tx,
          { page: null, filters: [], sort: [{ column: 'sort', desc: false }] },
          (q) => q.where('course_id', '=', courseId),
        );
        return rows;
      }),

    /** Each trainee on the course within the viewer's data scope, with their progress on this item (none yet: 0). */
    progress: (tenantId: string, id: string, viewer: string) =>
      tenancy.inTenant(tenantId, async (tx): Promise<ItemProgress[]> => {
        const item = await find(tx, id);
        if (!item) throw notFound();
        const scope = await dataScopeOf(tx, viewer);
        const { rows } = await sql<ItemProgress>`SELECT e.trainee_id::text AS "traineeId", p.name AS "traineeName",
            t.trainee_no AS "traineeNo", coalesce(g.percent, 0)::int AS percent, g.score::float8 AS score,
            g.completed_at IS NOT NULL AS completed,
            to_char(g.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "completedAt",
            to_char(g.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"
          FROM course_enrollment e
          JOIN trainee t ON t.id = e.trainee_id
          JOIN person p ON p.id = t.person_id
          LEFT JOIN course_item_progress g ON g.item_id = ${id} AND g.trainee_id = e.trainee_id
          WHERE e.course_id = ${item.courseId} AND ${inDataScope(scope, TRAINEE_BASES, 't')}
          ORDER BY t.trainee_no`.execute(tx);
        return rows;
      }),

    /**
     * A trainee's progress on the item (what the learning client reports, or what staff record by hand): complete at
     * the item's threshold, a quiz at its paper's pass mark; never undone by a lower figure later.
     */
    recordProgress: (ctx: WriteContext, id: string, input: RecordProgress) =>
      resource.act(ctx, id, 'progress', async (tx, item) => {
        const t = texts[ctx.lang];
        if (item.itemType === 'chapter') throw invalidField('traineeId', t.chapterProgress);
        refuseUnless(item, 'published');
        const enrolled = await tx
          .selectFrom('course_enrollment')
          .select('id')
          .where('course_id', '=', item.courseId)
          .where('trainee_id', '=', input.traineeId)
          .executeTakeFirst();
        if (!enrolled) throw invalidField('traineeId', t.notEnrolled);
        const inScope = await tx
          .selectFrom('trainee')
          .select('id')
          .where('id', '=', input.traineeId)
          .where(inDataScope(await dataScopeOf(tx, ctx.actorId), TRAINEE_BASES, 'trainee'))
          .executeTakeFirst();
        if (!inScope) throw invalidField('traineeId', t.outOfScope);
        let done = input.percent >= completesAt(item);
        if (item.itemType === 'quiz') {
          const paper = await tx
            .selectFrom('exam_paper')
            .select(sql<number>`pass_score::float8`.as('pass'))
            .where('id', '=', item.examPaperId as string)
            .executeTakeFirst();
          done = input.score !== undefined && input.score !== null && paper !== undefined && input.score >= paper.pass;
        }
        await tx
          .insertInto('course_item_progress')
          .values({
            tenant_id: ctx.tenantId,
            item_id: id,
            course_id: item.courseId,
            trainee_id: input.traineeId,
            percent: input.percent,
            score: input.score ?? null,
            completed_at: done ? ctx.now : null,
            updated_at: ctx.now,
          })
          .onConflict((oc) =>
            oc.columns(['tenant_id', 'item_id', 'trainee_id']).doUpdateSet({
              percent: sql`greatest(course_item_progress.percent, excluded.percent)`,
              score: sql`coalesce(greatest(course_item_progress.score, excluded.score), excluded.score, course_item_progress.score)`,
              completed_at: sql`coalesce(course_item_progress.completed_at, excluded.completed_at)`,
              updated_at: ctx.now,
            }),
          )
          .execute();
        await settleEnrolments(tx, item.courseId, ctx.now, input.traineeId);
        return (await find(tx, id)) as CourseItem;
      }),
  };
}

export type CourseItemService = ReturnType<typeof createCourseItemService>;
