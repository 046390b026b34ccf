import { sql } from 'kysely';
import { AppError, invalidField, notFound } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { Jobs } from '../../../core/jobs';
import { filterValue } from '../../../core/resource/list-query';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps, versionedAct } from '../../../core/resource/resource.service';
import { writeSheet } from '../../../core/resource/spreadsheet';
import type { Tx } from '../../../core/tenancy';
import { subtreeIds } from '../../assess/taxonomy/taxonomy';
import { cleanRichText } from '../../content/document/rich-text';
import { claimFiles, releaseFiles } from '../../file/attachments';
import { notify } from '../../message/message/outbox';
import { dataScopeOf, inDataScope } from '../../people/organization/data-scope';
import { checkOrganization } from '../../people/organization/organization-ref';
import { refuseTraineesOutOfReach, TRAINEE_BASES } from '../../people/trainee/trainee.scope';
import { namesNoOne, traineesOf } from '../audience';
import { settleEnrolments, whyUnpublishable } from '../course-item/completion';
import {
  type CloneCourse,
  COVER,
  type Course,
  type CourseStatus,
  type CreateCourse,
  courseResource,
  courseTable,
  type Enrolment,
  type EnrolTrainees,
  type RemoveEnrolments,
  SPECIALTY_DICT,
  type UpdateCourse,
} from './course.resource';

/** A trainee is within a data scope by their training or specialty base (as the trainee list). */

const texts = {
  'zh-CN': {
    codeTaken: '该编码已被使用',
    noCategory: '课程分类不存在',
    noOrg: '组织不存在',
    noPaper: '试卷不存在',
    toBeforeFrom: '不能早于开始日期',
    noDoctor: '医师不存在',
    noTeacher: '不是本机构的授课教师（职工须标记为教师）',
    twice: '重复',
    noSpecialty: '不是字典“培训专业”中启用的值',
    notImage: '封面须为图片文件',
    creditsRequired: '有学分类别时须填写大于 0 的学分',
    noItem: '课程须至少有一项已发布的内容（章节除外）才能发布：请先发布其中一项',
    paperNotPublished: '结课试卷尚未发布：请先发布该试卷',
    noFinalQuiz: '学员须通过结课试卷才能完成课程：请先在课程中添加并发布使用该试卷的测验',
    noAudience: '请先指定分配对象（学员类型、培训基地或年级）：分配会让其中在培的学员加入课程',
    noTrainee: '学员不存在、不在培训中或不在你的数据范围内',
    notEnrolled: '不在本课程中',
    completedStays: '已完成本课程，其学习记录（学时）须保留，不能移出',
    sheet: '学习报告',
    header: [
      '学员编号',
      '姓名',
      '学员类型',
      '培训基地',
      '来源',
      '进度（%）',
      '状态',
      '完成时间',
      '学分类别',
      '获得学分',
    ],
    cmeClass: { class_i: 'Ⅰ类', class_ii: 'Ⅱ类', none: '无' },
    source: { assigned: '分配', self: '自选' },
    status: { not_started: '未开始', in_progress: '学习中', completed: '已完成', failed: '未通过' },
  },
  'en-US': {
    codeTaken: 'is already used',
    noCategory: 'is not an existing course category',
    noOrg: 'is not an existing organisation',
    noPaper: 'is not an existing paper',
    toBeforeFrom: 'must not be before the start',
    noDoctor: 'is not an existing doctor',
    noTeacher: 'is not a teacher on the staff (a member of staff is marked as a teacher)',
    twice: 'is listed twice',
    noSpecialty: 'is not an enabled value of the dictionary training_specialty',
    notImage: 'must be an image file',
    creditsRequired: 'is required (above 0) for a CME credit class',
    noItem: 'a course is published with one published item (not a chapter) at least: publish one of its items first',
    paperNotPublished: 'the final paper is not published: publish it first',
    noFinalQuiz:
      'trainees complete the course by passing its final paper: add a quiz on that paper to the course and publish it first',
    noAudience:
      'name its audience first (trainee types, bases or cohorts): assigning enrols the trainees in training it names',
    noTrainee: 'is not an existing trainee in training within your data scope',
    notEnrolled: 'is not on the course',
    completedStays: 'has completed the course: their record (and credit hours) stays, they are not removed',
    sheet: 'Report',
    header: [
      'Trainee no.',
      'Name',
      'Trainee type',
      'Base',
      'Source',
      'Progress (%)',
      'Status',
      'Completed',
      'CME class',
      'CME credits earned',
    ],
    cmeClass: { class_i: 'Class I', class_ii: 'Class II', none: 'None' },
    source: { assigned: 'Assigned', self: 'Self' },
    status: { not_started: 'Not started', in_progress: 'In progress', completed: 'Completed', failed: 'Failed' },
  },
};

/**
 * Courses (docs/domain.md §8.1): a code unique in the tenant; published once one of its items is (and its final paper,
 * when it has one, with a quiz of the course on it: ../course-item/completion.ts), taken offline, back again; assigned
 * to its audience, which enrols the trainees in training it names (those already on it stay as they are; the new ones
 * are told); cloned with its items; the report of its enrolments as xlsx. Its category is a node of the tenant's course category tree; the list's category takes in its subtree.
 */
export function createCourseService(deps: ResourceDeps & { jobs: Jobs }) {
  const repo = courseTable;
  const { tenancy } = deps;
  const find = (tx: Tx, id: string) => repo.find(tx, id);

  const refuseUnless = (row: Course, ...allowed: CourseStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('course.notAllowed', { status: row.status });
  };

  async function check(tx: Tx, input: Partial<CreateCourse>, current: Course | undefined, lang: Lang) {
    const t = texts[lang];
    if (input.code && input.code !== current?.code) {
      const taken = await tx.selectFrom('course').select('id').where('code', '=', input.code).executeTakeFirst();
      if (taken) throw invalidField('code', t.codeTaken);
    }
    if (input.categoryId) {
      const category = await tx
        .selectFrom('course_category')
        .select('id')
        .where('id', '=', input.categoryId)
        .executeTakeFirst();
      if (!category) throw invalidField('categoryId', t.noCategory);
    }
    if (input.ownerOrgId) await checkOrganization(tx, 'ownerOrgId', input.ownerOrgId, t.noOrg);
    if (input.finalPaperId) {
      const paper = await tx
        .selectFrom('exam_paper')
        .select('id')
        .where('id', '=', input.finalPaperId)
        .executeTakeFirst();
      if (!paper) throw invalidField('finalPaperId', t.noPaper);
    }
    const from = input.availableFrom === undefined ? current?.availableFrom : input.availableFrom;
    const to = input.availableTo === undefined ? current?.availableTo : input.availableTo;
    if (from && to && to < from) throw invalidField('availableTo', t.toBeforeFrom);
    await checkTeachers(tx, 'teacherDoctorIds', input.teacherDoctorIds, current?.teacherDoctorIds ?? [], lang);
    await checkTeachers(tx, 'teacherStaffIds', input.teacherStaffIds, current?.teacherStaffIds ?? [], lang);
    await checkSpecialties(tx, input.targetSpecialties, lang);
    if (input.coverFileId && input.coverFileId !== current?.coverFileId) {
      const file = await tx
        .selectFrom('file')
        .select('mime_type')
        .where('id', '=', input.coverFileId)
        .executeTakeFirst();
      if (file && !file.mime_type?.startsWith('image/')) throw invalidField('coverFileId', t.notImage);
    }
  }

  /**
   * Teachers are doctors, and staff marked as teachers, of this tenant (row-level security hides the others), each
   * once; only those newly named are looked up (one who left since being named stays until removed).
   */
  async function checkTeachers(
    tx: Tx,
    field: 'teacherDoctorIds' | 'teacherStaffIds',
    ids: readonly string[] | undefined,
    before: readonly string[],
    lang: Lang,
  ) {
    if (!ids) return;
    const t = texts[lang];
    const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
    if (twice >= 0) throw invalidField(`${field}.${twice}`, t.twice);
    const named = ids.filter((id) => !before.includes(id));
    if (named.length === 0) return;
    const found =
      field === 'teacherDoctorIds'
        ? await tx.selectFrom('doctor').select('id').where('id', 'in', named).execute()
        : await tx.selectFrom('staff').select('id').where('id', 'in', named).where('is_teacher', '=', true).execute();
    const known = new Set(found.map((r) => String(r.id)));
    const unknown = ids.findIndex((id) => named.includes(id) && !known.has(id));
    if (unknown >= 0)
      throw invalidField(`${field}.${unknown}`, field === 'teacherDoctorIds' ? t.noDoctor : t.noTeacher);
  }

  /** The specialties it is for: enabled values of the dictionary, each once. */
  async function checkSpecialties(tx: Tx, values: readonly string[] | undefined, lang: Lang) {
    if (!values?.length) return;
    const t = texts[lang];
    const twice = values.findIndex((v, i) => values.indexOf(v) !== i);
    if (twice >= 0) throw invalidField(`targetSpecialties.${twice}`, t.twice);
    const found = await tx
      .selectFrom('dict_item')
      .select('value')
      .where('type_code', '=', SPECIALTY_DICT)
      .where('value', 'in', [...values])
      .where('status', '=', 'enabled')
      .execute();
    const known = new Set(found.map((r) => r.value));
    const unknown = values.findIndex((v) => !known.has(v));
    if (unknown >= 0) throw invalidField(`targetSpecialties.${unknown}`, t.noSpecialty);
  }

  /**
   * The input as stored: its description sanitised; CME credits required (above 0) with a credit class, and cleared
   * without one.
   */
  function shaped<T extends Partial<CreateCourse>>(input: T, current: Course | undefined, lang: Lang): T {
    const out = { ...input };
    if (input.descriptionHtml !== undefined) out.descriptionHtml = cleanRichText(input.descriptionHtml).html;
    const creditClass = input.cmeCreditClass ?? current?.cmeCreditClass ?? 'none';
    if (creditClass === 'none') {
      if (input.cmeCreditClass !== undefined || input.cmeCredits !== undefined) out.cmeCredits = null;
    } else {
      const credits = input.cmeCredits === undefined ? current?.cmeCredits : input.cmeCredits;
      if (!credits) throw invalidField('cmeCredits', texts[lang].creditsRequired);
    }
    return out;
  }

  const cover = (id: string) => ({ bizType: COVER, bizId: id });
  /**
   * A cover is held by one course and shown by each course of that file (a clone shows its source's): the covers these
   * courses hold that another course still shows are handed to that course before they let them go.
   */
  const handOverCovers = (tx: Tx, ids: readonly string[]) =>
    sql`UPDATE file f SET biz_id = (SELECT min(c.id) FROM course c
        WHERE c.cover_file_id = f.id AND NOT (c.id = ANY(${ids}::bigint[])))
      WHERE f.biz_type = ${COVER} AND f.biz_id = ANY(${ids}::bigint[])
        AND EXISTS (SELECT 1 FROM course c WHERE c.cover_file_id = f.id AND NOT (c.id = ANY(${ids}::bigint[])))`.execute(
      tx,
    );

  const store: ResourceStore<Course, CreateCourse, UpdateCourse> = {
    async list(tx, query) {
      const category = filterValue(query, 'categoryId');
      const specialty = filterValue(query, 'targetSpecialty');
      const teacher = filterValue(query, 'teacherDoctorId');
      const categories = category?.kind === 'eq' ? await subtreeIds(tx, 'course_category', [category.value]) : null;
      return repo.list(tx, query, (qb) => {
        let q = qb;
        if (categories) q = q.where(sql<boolean>`course.category_id = ANY(${categories}::bigint[])`);
        if (specialty?.kind === 'eq') q = q.where(sql<boolean>`${specialty.value} = ANY(course.target_specialties)`);
        if (teacher?.kind === 'eq')
          q = q.where(sql<boolean>`${teacher.value}::bigint = ANY(course.teacher_doctor_ids)`);
        return q;
      });
    },
    find,
    async create(tx, input, ctx) {
      await check(tx, input, undefined, ctx.lang);
      const made = await repo.insert(tx, shaped(input, undefined, ctx.lang), ctx);
      if (input.coverFileId) await claimFiles(tx, cover(made.id), [input.coverFileId], 'coverFileId', ctx.lang);
      return (await find(tx, made.id)) as Course;
    },
    async update(tx, current, input, ctx) {
      refuseUnless(current, 'draft', 'published', 'offline');
      await check(tx, input, current, ctx.lang);
      const { version, ...values } = shaped(input, current, ctx.lang);
      const updated = await repo.update(tx, current.id, values, ctx, version);
      if (!updated) return undefined;
      // a cover shared with another course (a clone's) stays with the course that holds it
      if (input.coverFileId !== undefined && input.coverFileId !== current.coverFileId) {
        await handOverCovers(tx, [current.id]);
        await claimFiles(tx, cover(current.id), input.coverFileId ? [input.coverFileId] : [], 'coverFileId', ctx.lang);
      }
      const paperChanged = input.finalPaperId !== undefined && input.finalPaperId !== current.finalPaperId;
      // a published course stays publishable: its final paper is not switched to a draft, nor to one it has no quiz on
      if (current.status === 'published' && paperChanged) await refuseUnpublishable(tx, current.id, ctx.lang);
      if (paperChanged || (input.minItemPercent !== undefined && input.minItemPercent !== current.minItemPercent))
        await settleEnrolments(tx, current.id, ctx.now);
      return (await find(tx, current.id)) as Course;
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) refuseUnless(row, 'draft');
      const ids = rows.map((r) => r.id);
      await handOverCovers(tx, ids);
      await releaseFiles(tx, COVER, ids);
      await repo.remove(tx, ids, ctx);
    },
  };

  /** One published item at least; the final paper (if any) published, with a published quiz of the course on it. */
  async function refuseUnpublishable(tx: Tx, id: string, lang: Lang) {
    const why = await whyUnpublishable(tx, id);
    if (why) throw invalidField(why === 'noItem' ? 'items' : 'finalPaperId', texts[lang][why]);
  }

  const resource = createResourceService(courseResource, store, deps);

  const act = versionedAct(resource, repo, (tx, id) => find(tx, id));

  /** The course's enrolments of trainees within the viewer's data scope (of their training or specialty base). */
  async function enrolments(tx: Tx, id: string, viewer: string): Promise<Enrolment[]> {
    const scope = await dataScopeOf(tx, viewer);
    const { rows } = await sql<Enrolment>`SELECT e.id::text AS id, e.trainee_id::text AS "traineeId",
        p.name AS "traineeName", t.trainee_no AS "traineeNo", tt.name AS "traineeTypeName", o.name AS "baseName",
        e.source, e.progress_percent AS "progressPercent", e.status,
        to_char(e.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "completedAt"
      FROM course_enrollment e
      JOIN trainee t ON t.id = e.trainee_id
      JOIN person p ON p.id = t.person_id
      LEFT JOIN trainee_type tt ON tt.id = t.trainee_type_id
      LEFT JOIN organization o ON o.id = t.training_base_id
      WHERE e.course_id = ${id} AND ${inDataScope(scope, TRAINEE_BASES, 't')}
      ORDER BY t.trainee_no`.execute(tx);
    return rows;
  }

  /** Enrols (assigned) those of `trainees` not on the course yet and tells them (`course.assigned`); how many were new. */
  async function enrolAndTell(tx: Tx, ctx: WriteContext, course: Course, trainees: string[]): Promise<number> {
    if (trainees.length === 0) return 0;
    const made = await tx
      .insertInto('course_enrollment')
      .values(trainees.map((traineeId) => ({ tenant_id: ctx.tenantId, course_id: course.id, trainee_id: traineeId })))
      .onConflict((oc) => oc.columns(['tenant_id', 'course_id', 'trainee_id']).doNothing())
      .returning('trainee_id')
      .execute();
    await notify(tx, deps.jobs, {
      businessItemCode: 'course.assigned',
      to: { type: 'trainee', ids: made.map((e) => String(e.trainee_id)) },
      params: { courseName: course.title, creditHours: String(course.creditHours) },
      bizRef: { type: 'course', id: course.id },
      actorId: ctx.actorId,
    });
    return made.length;
  }

  return {
    resource,

    /** Draft or offline → published: one published item at least; its final paper (if any) published, with its quiz. */
    publish: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, async (tx, row) => {
        refuseUnless(row, 'draft', 'offline');
        await refuseUnpublishable(tx, id, ctx.lang);
        return { status: 'published', publishedAt: row.publishedAt ?? ctx.now.toISOString() };
      }),

    offline: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'offline', version, async (_tx, row) => {
        refuseUnless(row, 'published');
        return { status: 'offline' };
      }),

    /**
     * The trainees in training its audience names are enrolled (assigned) and told, in the same transaction; those
     * already on it stay as they are, and are not told again.
     */
    async assign(ctx: WriteContext, id: string, version: number): Promise<{ enrolled: number; course: Course }> {
      let enrolled = 0;
      const course = await act(ctx, id, 'assign', version, async (tx, row) => {
        refuseUnless(row, 'published');
        if (namesNoOne(row)) throw invalidField('audienceTraineeTypeIds', texts[ctx.lang].noAudience);
        const trainees = await traineesOf(tx, row);
        enrolled = await enrolAndTell(tx, ctx, row, trainees);
        return {};
      });
      return { enrolled, course };
    },

    /**
     * Trainees enrolled by hand (assigned), each in training and within the viewer's data scope, or none of them; those
     * already on it stay as they are. The new ones are told, as by the assignment.
     */
    async enrol(ctx: WriteContext, id: string, input: EnrolTrainees): Promise<{ count: number; course: Course }> {
      let count = 0;
      const course = await act(ctx, id, 'enrol', undefined, async (tx, row) => {
        refuseUnless(row, 'published');
        await refuseTraineesOutOfReach(tx, ctx.actorId, input.traineeIds, texts[ctx.lang].noTrainee, [
          'in_training',
          'extended',
        ]);
        count = await enrolAndTell(tx, ctx, row, [...new Set(input.traineeIds)]);
        return {};
      });
      return { count, course };
    },

    /**
     * Trainees taken off the course, with their progress on its items, all of them or none: each on it, within the
     * viewer's data scope, and not completed (a completed enrolment is the trainee's record of the course's credit).
     */
    async unenrol(ctx: WriteContext, id: string, input: RemoveEnrolments): Promise<{ count: number; course: Course }> {
      let count = 0;
      const course = await act(ctx, id, 'unenrol', undefined, async (tx, row) => {
        refuseUnless(row, 'draft', 'published', 'offline');
        const t = texts[ctx.lang];
        const scope = await dataScopeOf(tx, ctx.actorId);
        const on = new Map(
          (
            await tx
              .selectFrom('course_enrollment as e')
              .innerJoin('trainee', 'trainee.id', 'e.trainee_id')
              .select(['e.trainee_id', 'e.status'])
              .where('e.course_id', '=', id)
              .where('e.trainee_id', 'in', input.traineeIds)
              .where(inDataScope(scope, TRAINEE_BASES, 'trainee'))
              .execute()
          ).map((r) => [String(r.trainee_id), r.status]),
        );
        input.traineeIds.forEach((traineeId, i) => {
          const status = on.get(traineeId);
          if (!status) throw invalidField(`traineeIds.${i}`, t.notEnrolled);
          if (status === 'completed') throw invalidField(`traineeIds.${i}`, t.completedStays);
        });
        const ids = [...on.keys()];
        await tx
          .deleteFrom('course_item_progress')
          .where('course_id', '=', id)
          .where('trainee_id', 'in', ids)
          .execute();
        const gone = await tx
          .deleteFrom('course_enrollment')
          .where('course_id', '=', id)
          .where('trainee_id', 'in', ids)
          .executeTakeFirst();
        count = Number(gone.numDeletedRows);
        return {};
      });
      return { count, course };
    },

    /**
     * A new draft with the settings (teachers, cover, description, CME credits, specialties too) and the items (as
     * drafts) of the course, under another code and title; its cover, videos, audio and documents show the same files
     * (shared, not copied: held by the source, handed over to the copy if the source lets them go).
     */
    clone: (ctx: WriteContext, id: string, input: CloneCourse) =>
      tenancy.inTenant(ctx.tenantId, async (tx) => {
        const source = await find(tx, id);
        if (!source) throw notFound();
        const {
          id: _id,
          version: _v,
          createdAt: _c,
          updatedAt: _u,
          status: _s,
          publishedAt: _p,
          categoryName: _n,
          ownerOrgName: _o,
          audienceTraineeTypeNames: _tn,
          audienceOrgNames: _on,
          finalPaperTitle: _f,
          itemCount: _i,
          enrolmentCount: _e,
          completedCount: _d,
          coverFileName: _cf,
          teacherNames: _tt,
          ...settings
        } = source;
        const copy = { ...settings, code: input.code, title: input.title };
        await check(tx, { code: input.code }, undefined, ctx.lang);
        const made = await repo.insert(tx, copy, ctx);
        const items = await tx
          .selectFrom('course_item')
          .selectAll()
          .where('course_id', '=', id)
          .orderBy(sql`parent_id NULLS FIRST`)
          .orderBy('sort')
          .execute();
        const ids = new Map<string, string>();
        for (const item of items) {
          const inserted = await tx
            .insertInto('course_item')
            .values({
              tenant_id: ctx.tenantId,
              course_id: made.id,
              parent_id: item.parent_id ? (ids.get(String(item.parent_id)) ?? null) : null,
              item_type: item.item_type,
              title: item.title,
              description: item.description,
              // the copy shows the same file (held by the source's item, handed over if that one lets it go), address
              // or paper; its media as read, a reading under way is taken up again by the sweep
              file_id: item.file_id,
              media_status:
                item.media_status === 'processing' || item.media_status === 'pending' ? 'pending' : item.media_status,
              media_error: item.media_error,
              media_error_detail: item.media_error_detail,
              media_duration_sec: item.media_duration_sec,
              url: item.url,
              exam_paper_id: item.exam_paper_id,
              document_id: item.document_id,
              content_html: item.content_html,
              live_config: item.live_config === null ? null : JSON.stringify(item.live_config),
              duration_minutes: item.duration_minutes,
              min_view_percent: item.min_view_percent,
              is_required: item.is_required,
              available_from: item.available_from,
              is_preview: item.is_preview,
              sort: item.sort,
              created_at: ctx.now,
              created_by: ctx.actorId,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.set(String(item.id), String(inserted.id));
        }
        const after = (await find(tx, made.id)) as Course;
        await deps.audit.record(tx, ctx, {
          action: 'teaching:course:clone',
          resourceType: 'course',
          resourceId: after.id,
          summary: `${after.code} ${after.title} ← ${source.code}`,
          after,
        });
        return after;
      }),

    enrolments: (tenantId: string, id: string, viewer: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        if (!(await find(tx, id))) throw notFound();
        return enrolments(tx, id, viewer);
      }),

    /**
     * The report of its enrolments (progress, status, completion, the CME credits a completion earns) within the
     * viewer's data scope, as xlsx.
     */
    report: (tenantId: string, id: string, lang: Lang, viewer: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        const course = await find(tx, id);
        if (!course) throw notFound();
        const t = texts[lang];
        const earned = course.cmeCreditClass === 'none' ? null : course.cmeCredits;
        const rows = (await enrolments(tx, id, viewer)).map((e) => [
          e.traineeNo,
          e.traineeName,
          e.traineeTypeName,
          e.baseName,
          t.source[e.source],
          e.progressPercent,
          t.status[e.status],
          e.completedAt ? new Date(e.completedAt) : null,
          t.cmeClass[course.cmeCreditClass],
          e.status === 'completed' ? earned : null,
        ]);
        return { filename: `course-${course.code}.xlsx`, body: await writeSheet(t.sheet, t.header, rows) };
      }),
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
