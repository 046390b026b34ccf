import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN } from '../../../core/resource/id-param';
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
/** Continuing medical education credit classes (docs/domain.md §8.1 [CME-1]): class I, class II, or none. */
export const CME_CREDIT_CLASSES = ['class_i', 'class_ii', 'none'] as const;
/** The purpose of the file a course holds as its cover, for the file list. */
export const COVER = 'course.cover';
/** The dictionary of the specialties a course is for. */
export const SPECIALTY_DICT = 'training_specialty';

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
  teacher_doctor_ids: Defaulted<string[]>;
  teacher_staff_ids: Defaulted<string[]>;
  cover_file_id: Nullable<Ref>;
  description_html: Nullable<string>;
  cme_credit_class: Defaulted<(typeof CME_CREDIT_CLASSES)[number]>;
  cme_credits: ColumnType<string | null, number | null | undefined, number | null>;
  target_specialties: Defaulted<string[]>;
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
  descriptionHtml: z.string().nullable().openapi({ description: 'Rich text, sanitised by the server' }),
  coverFileId: z.string().nullable().openapi({ description: 'An image file the course holds' }),
  coverFileName: z.string().nullable(),
  teacherDoctorIds: z.array(z.string()).openapi({ description: 'Doctors who teach it' }),
  teacherStaffIds: z.array(z.string()).openapi({ description: 'Staff (teachers) who teach it' }),
  teacherNames: z.array(z.string()).openapi({ description: 'The names of its teachers, doctors first' }),
  targetSpecialties: z.array(z.string()).openapi({ description: 'Dictionary `training_specialty`' }),
  creditHours: z.number(),
  cmeCreditClass: z.enum(CME_CREDIT_CLASSES),
  cmeCredits: z.number().nullable().openapi({ description: 'CME credits of its class (none: null)' }),
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
const ids = (table: 'organization' | 'trainee_type') => z.array(ref(table)).max(100);
const teachers = (table: 'doctor' | 'staff') => z.array(ref(table)).max(50);
const fields = {
  code,
  title: field.requiredText(200),
  categoryId: ref('course_category').nullable().optional().openapi({ description: 'A course category of the tenant' }),
  courseType: z.enum(COURSE_TYPES).optional(),
  purpose: z.enum(PURPOSES).optional(),
  audienceTraineeTypeIds: ids('trainee_type').optional(),
  audienceOrgIds: ids('organization').optional(),
  audienceCohortYears: z.array(z.number().int().min(1950).max(2100)).max(20).optional(),
  ownerOrgId: ref('organization').nullable().optional(),
  summary: field.optionalText(2000),
  descriptionHtml: z
    .string()
    .max(200_000)
    .nullable()
    .optional()
    .openapi({ description: 'Rich text; the server keeps only safe markup (no scripts, no event handlers)' }),
  coverFileId: ref('file')
    .nullable()
    .optional()
    .openapi({ description: 'An uploaded image (an attachment no record holds yet), or the one it holds' }),
  teacherDoctorIds: teachers('doctor').optional().openapi({ description: 'Doctors of the tenant, each once' }),
  teacherStaffIds: teachers('staff').optional().openapi({ description: 'Teaching staff of the tenant, each once' }),
  targetSpecialties: z
    .array(z.string().trim().min(1).max(50))
    .max(20)
    .optional()
    .openapi({ description: 'Enabled values of the dictionary `training_specialty`, each once' }),
  creditHours: z.number().min(0).max(9999).multipleOf(0.5).optional(),
  cmeCreditClass: z.enum(CME_CREDIT_CLASSES).optional(),
  cmeCredits: z
    .number()
    .gt(0)
    .max(999.9)
    .multipleOf(0.1)
    .nullable()
    .optional()
    .openapi({ description: 'Required (above 0) when the class is not `none`; cleared when it is' }),
  availableFrom: z.iso.date().nullable().optional(),
  availableTo: z.iso.date().nullable().optional().openapi({ description: 'Not before `availableFrom`' }),
  enrolMode: z.enum(ENROL_MODES).optional(),
  finalPaperId: ref('exam_paper')
    .nullable()
    .optional()
    .openapi({ description: 'A paper of the tenant; published before the course' }),
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
    .array(ref('trainee'))
    .min(1)
    .max(100)
    .openapi({ description: 'Trainees in training within your data scope (those already on it stay as they are)' }),
});
export type EnrolTrainees = z.infer<typeof EnrolTrainees>;
export const RemoveEnrolments = requestBody('RemoveCourseEnrolments', {
  traineeIds: z
    .array(ref('trainee'))
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
      'coverFileName',
      'teacherNames',
      'cmeCredits',
    ],
  }),
  writeOnly: {
    creditHours: 'credit_hours',
    cmeCredits: 'cme_credits',
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
    cmeCredits: sql`course.cme_credits::float8`,
    coverFileName: sql`(SELECT f.original_name FROM file f WHERE f.id = course.cover_file_id)`,
    teacherNames: sql`ARRAY(SELECT p.name FROM unnest(course.teacher_doctor_ids) WITH ORDINALITY t (id, n)
        JOIN doctor d ON d.id = t.id JOIN person p ON p.id = d.person_id ORDER BY t.n)
      || ARRAY(SELECT p.name FROM unnest(course.teacher_staff_ids) WITH ORDINALITY t (id, n)
        JOIN staff s ON s.id = t.id JOIN person p ON p.id = s.person_id ORDER BY t.n)`,
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
      cmeCreditClass: { kind: 'in', column: 'cme_credit_class', values: CME_CREDIT_CLASSES },
      // the array filters (a specialty, a teacher) are the store's: `value = ANY(column)`
      targetSpecialty: { kind: 'eq', pattern: /^[\w-]{1,50}$/ },
      teacherDoctorId: { kind: 'eq', pattern: ID_PATTERN },
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
    { key: 'cmeCreditClass' },
    { key: 'cmeCredits' },
    { key: 'teacherNames', cell: (row) => row.teacherNames.join(', ') },
    { key: 'targetSpecialties', cell: (row) => row.targetSpecialties.join(', ') },
    { key: 'status' },
    { key: 'itemCount' },
    { key: 'enrolmentCount' },
    { key: 'completedCount' },
    { key: 'createdAt' },
  ],
});
