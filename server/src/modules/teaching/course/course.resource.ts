import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type { Audited, Defaulted, Id as IdColumn, Nullable, NullableTimestamp, Ref } from '../../../db/types';

/** Courses (docs/domain.md §8.1): the tables of a course and its enrolments, the schemas and the definition. */
export const COURSE_TYPES = ['required', 'elective', 'open'] as const;
export const PURPOSES = ['pre_job', 'general', 'cme'] as const;
export const COURSE_STATUSES = ['draft', 'published', 'offline', 'archived'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
export const ENROL_MODES = ['assigned', 'self_enrol', 'open'] as const;
export const ENROLMENT_STATUSES = ['not_started', 'in_progress', 'completed', 'failed'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

interface CourseTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  code: string;
  title: string;
  category_id: Nullable<Ref>;
  course_type: Defaulted<(typeof COURSE_TYPES)[number]>;
  purpose: Defaulted<(typeof PURPOSES)[number]>;
  audience_trainee_type_ids: Defaulted<string[]>;
  audience_org_ids: Defaulted<string[]>;
  audience_cohort_years: Defaulted<number[]>;
  owner_org_id: Nullable<Ref>;
  summary: Nullable<string>;
  credit_hours: ColumnType<string, number | undefined, number>;
  available_from: Nullable<string>;
  available_to: Nullable<string>;
  enrol_mode: Defaulted<(typeof ENROL_MODES)[number]>;
  final_paper_id: Nullable<Ref>;
  min_item_percent: Defaulted<number>;
  status: Defaulted<CourseStatus>;
  published_at: NullableTimestamp;
  remark: Nullable<string>;
}
interface CourseEnrollmentTable {
  id: IdColumn;
  tenant_id: Ref;
  course_id: Ref;
  trainee_id: Ref;
  source: Defaulted<'assigned' | 'self'>;
  progress_percent: Defaulted<number>;
  status: Defaulted<EnrolmentStatus>;
  completed_at: NullableTimestamp;
}
declare module '../../../db/types' {
  interface DB {
    course: CourseTable;
    course_enrollment: CourseEnrollmentTable;
  }
}

export const Course = recordRow({
  code: z.string(),
  title: z.string(),
  categoryId: z.string().nullable().openapi({ description: 'A node of the course category tree' }),
  categoryName: z.string().nullable(),
  courseType: z.enum(COURSE_TYPES),
  purpose: z.enum(PURPOSES),
  audienceTraineeTypeIds: z.array(z.string()),
  audienceOrgIds: z.array(z.string()).openapi({ description: 'Trainees of these training or specialty bases' }),
  audienceCohortYears: z.array(z.number().int()),
  audienceTraineeTypeNames: z.array(z.string()).openapi({ description: 'The names of its trainee types' }),
  audienceOrgNames: z.array(z.string()).openapi({ description: 'The names of its bases' }),
  ownerOrgId: z.string().nullable(),
  ownerOrgName: z.string().nullable(),
  summary: z.string().nullable(),
  creditHours: z.number(),
  availableFrom: z.string().nullable(),
  availableTo: z.string().nullable(),
  enrolMode: z
    .enum(ENROL_MODES)
    .openapi({ description: 'How trainees come onto it: assigned (audience or by hand), self-enrolled, or open' }),
  finalPaperId: z.string().nullable(),
  finalPaperTitle: z.string().nullable(),
  minItemPercent: z
    .number()
    .int()
    .openapi({ description: 'Completion: the share of its required items a trainee completes (with the final paper)' }),
  status: z.enum(COURSE_STATUSES),
  publishedAt: z.string().nullable(),
  itemCount: z.number().int(),
  enrolmentCount: z.number().int(),
  completedCount: z.number().int(),
  remark: z.string().nullable(),
}).openapi('Course');
export type Course = z.infer<typeof Course>;

const code = field.code().openapi({ example: 'PRE-2026' });
const ids = z.array(Id).max(100);
const fields = {
  code,
  title: field.requiredText(200),
  categoryId: Id.nullable().optional().openapi({ description: 'A course category of the tenant' }),
  courseType: z.enum(COURSE_TYPES).optional(),
  purpose: z.enum(PURPOSES).optional(),
  audienceTraineeTypeIds: ids.optional(),
  audienceOrgIds: ids.optional(),
  audienceCohortYears: z.array(z.number().int().min(1950).max(2100)).max(20).optional(),
  ownerOrgId: Id.nullable().optional(),
  summary: field.optionalText(2000),
  creditHours: z.number().min(0).max(9999).multipleOf(0.5).optional(),
  availableFrom: z.iso.date().nullable().optional(),
  availableTo: z.iso.date().nullable().optional().openapi({ description: 'Not before `availableFrom`' }),
  enrolMode: z.enum(ENROL_MODES).optional(),
  finalPaperId: Id.nullable().optional().openapi({ description: 'A paper of the tenant; published before the course' }),
  minItemPercent: z.number().int().min(0).max(100).optional(),
  remark: field.remark,
};
export const CreateCourse = requestBody('CreateCourse', fields);
export type CreateCourse = z.infer<typeof CreateCourse>;
export const UpdateCourse = updateBody('UpdateCourse', {
  ...fields,
  code: code.optional(),
  title: fields.title.optional(),
});
export type UpdateCourse = z.infer<typeof UpdateCourse>;

export const CourseAction = requestBody('CourseAction', { version: Version });
export const CloneCourse = requestBody('CloneCourse', { code, title: field.requiredText(200) });
export type CloneCourse = z.infer<typeof CloneCourse>;
export const EnrolTrainees = requestBody('EnrolCourseTrainees', {
  traineeIds: z
    .array(Id)
    .min(1)
    .max(100)
    .openapi({ description: 'Trainees in training within your data scope (those already on it stay as they are)' }),
});
export type EnrolTrainees = z.infer<typeof EnrolTrainees>;
export const RemoveEnrolments = requestBody('RemoveCourseEnrolments', {
  traineeIds: z
    .array(Id)
    .min(1)
    .max(100)
    .openapi({ description: 'Trainees on the course who have not completed it (their progress on it goes too)' }),
});
export type RemoveEnrolments = z.infer<typeof RemoveEnrolments>;
export const EnrolmentsChanged = z
  .object({
    count: z.number().int().openapi({ description: 'Trainees added or removed' }),
    course: Course,
  })
  .openapi('CourseEnrolmentsChanged');
export const Assigned = z
  .object({ enrolled: z.number().int().openapi({ description: 'Trainees newly on the course' }), course: Course })
  .openapi('CourseAssigned');

export const Enrolment = z
  .object({
    id: z.string(),
    traineeId: z.string(),
    traineeName: z.string(),
    traineeNo: z.string(),
    traineeTypeName: z.string().nullable(),
    baseName: z.string().nullable(),
    source: z.enum(['assigned', 'self']),
    progressPercent: z.number().int(),
    status: z.enum(ENROLMENT_STATUSES),
    completedAt: z.string().nullable(),
  })
  .openapi('CourseEnrolment');
export type Enrolment = z.infer<typeof Enrolment>;

const iso = (column: string) =>
  sql`to_char(${sql.ref(`course.${column}`)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const courseTable = tableRepository<'course', Course>({
  name: 'course',
  columns: columnsOf(Course, {
    except: [
      'categoryName',
      'audienceTraineeTypeNames',
      'audienceOrgNames',
      'ownerOrgName',
      'finalPaperTitle',
      'creditHours',
      'publishedAt',
      'itemCount',
      'enrolmentCount',
      'completedCount',
      'availableFrom',
      'availableTo',
    ],
  }),
  writeOnly: {
    creditHours: 'credit_hours',
    publishedAt: 'published_at',
    availableFrom: 'available_from',
    availableTo: 'available_to',
  },
  tenantOwned: true,
  computed: {
    categoryName: sql`(SELECT c.name FROM course_category c WHERE c.id = course.category_id)`,
    ownerOrgName: sql`(SELECT o.name FROM organization o WHERE o.id = course.owner_org_id)`,
    audienceTraineeTypeNames: sql`ARRAY(SELECT t.name FROM trainee_type t
      WHERE t.id = ANY(course.audience_trainee_type_ids) ORDER BY t.name)`,
    audienceOrgNames: sql`ARRAY(SELECT o.name FROM organization o WHERE o.id = ANY(course.audience_org_ids) ORDER BY o.name)`,
    finalPaperTitle: sql`(SELECT p.title FROM exam_paper p WHERE p.id = course.final_paper_id)`,
    creditHours: sql`course.credit_hours::float8`,
    publishedAt: iso('published_at'),
    availableFrom: sql`to_char(course.available_from, 'YYYY-MM-DD')`,
    availableTo: sql`to_char(course.available_to, 'YYYY-MM-DD')`,
    itemCount: sql`(SELECT count(*)::int FROM course_item i WHERE i.course_id = course.id
      AND i.item_type <> 'chapter')`,
    enrolmentCount: sql`(SELECT count(*)::int FROM course_enrollment e WHERE e.course_id = course.id)`,
    completedCount: sql`(SELECT count(*)::int FROM course_enrollment e WHERE e.course_id = course.id
      AND e.status = 'completed')`,
  },
});

export const courseResource = defineResource({
  path: 'teaching/course',
  type: 'course',
  permission: 'teaching:course',
  schemas: { row: Course, create: CreateCourse, update: UpdateCourse },
  list: {
    sort: { code: 'code', title: 'title', createdAt: 'created_at', updatedAt: 'updated_at' },
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'title'] },
      // the category and its sub-categories (the store's)
      categoryId: { kind: 'eq', pattern: ID_PATTERN },
      courseType: { kind: 'in', column: 'course_type', values: COURSE_TYPES },
      purpose: { kind: 'in', column: 'purpose', values: PURPOSES },
      enrolMode: { kind: 'in', column: 'enrol_mode', values: ENROL_MODES },
      status: { kind: 'in', column: 'status', values: COURSE_STATUSES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.code} ${row.title}`,
  columns: [
    { key: 'code' },
    { key: 'title' },
    { key: 'categoryName' },
    { key: 'courseType' },
    { key: 'purpose' },
    { key: 'creditHours' },
    { key: 'status' },
    { key: 'itemCount' },
    { key: 'enrolmentCount' },
    { key: 'completedCount' },
    { key: 'createdAt' },
  ],
});
