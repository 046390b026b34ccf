import type {
  CloneCourse,
  Course,
  CreateCourse,
  Enrolment,
  UpdateCourse,
} from '@server/modules/teaching/course/course.resource';
import { getIntl } from '@umijs/max';
import FileField from '@/components/file/FileField';
import { describeResource } from '@/components/resource/types';
import { LazyRichTextEditor } from '@/components/richText';
import { TaxonomySelect } from '@/pages/assess/taxonomy/TaxonomyPickers';
import { organizationPicker } from '@/pages/people/organization/pickers';
import { fetchTypes } from '@/pages/people/trainee/descriptor';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import HostSearch from '../activity/HostSearch';
import CourseCover from './CourseCover';
import TeacherPicker from './TeacherPicker';

export type { Course, Enrolment };

export const courses = resourceService<Course, CreateCourse, UpdateCourse>('teaching/course');

const path = '/api/teaching/course';
export const publishCourse = (row: Course) => courses.action<Course>(row.id, 'publish', { version: row.version });
export const offlineCourse = (row: Course) => courses.action<Course>(row.id, 'offline', { version: row.version });
export const assignCourse = (row: Course) =>
  courses.action<{ enrolled: number; course: Course }>(row.id, 'assign', { version: row.version });
export const cloneCourse = (id: string, body: CloneCourse, options?: Options) =>
  request.post<Course>(`${path}/${id}/clone`, { ...options, data: body });
export const fetchEnrolments = (id: string) => request.get<Enrolment[]>(`${path}/${id}/enrolments`);
/** Trainees enrolled by hand, or taken off the course: how many, and the course. */
export const enrolTrainees = (id: string, traineeIds: string[], options?: Options) =>
  request.post<{ count: number; course: Course }>(`${path}/${id}/enrol`, { ...options, data: { traineeIds } });
export const unenrolTrainees = (id: string, traineeIds: string[]) =>
  request.post<{ count: number; course: Course }>(`${path}/${id}/unenrol`, { data: { traineeIds } });

/** Published papers as choices (a course's final paper, a quiz's paper), found by code or title as it is typed. */
export const paperChoices = ({ keyWords }: { keyWords?: string } = {}) =>
  request
    .get<{ data: { id: string; code: string; title: string }[] }>('/api/assess/paper', {
      params: { status: 'published', pageSize: '200', ...(keyWords && { keyword: keyWords }) },
    })
    .then(({ data }) => data.map((p) => ({ value: p.id, label: `${p.code} ${p.title}` })));

const COURSE_TYPES: Course['courseType'][] = ['required', 'elective', 'open'];
const PURPOSES: Course['purpose'][] = ['pre_job', 'general', 'cme'];
const ENROL_MODES: Course['enrolMode'][] = ['assigned', 'self_enrol', 'open'];
const CME_CREDIT_CLASSES: Course['cmeCreditClass'][] = ['class_i', 'class_ii', 'none'];
const STATUS_COLOURS: Record<Course['status'], string> = {
  draft: 'default',
  published: 'success',
  offline: 'warning',
  archived: 'default',
};
const FORM = [
  'code',
  'title',
  'categoryId',
  'courseType',
  'purpose',
  'creditHours',
  'cmeCreditClass',
  'cmeCredits',
  'teacherDoctorIds',
  'teacherStaffIds',
  'targetSpecialties',
  'ownerOrgId',
  'audienceTraineeTypeIds',
  'audienceOrgIds',
  'audienceCohortYears',
  'finalPaperId',
  'minItemPercent',
  'enrolMode',
  'availableFrom',
  'availableTo',
  'summary',
  'coverFileId',
  'descriptionHtml',
  'remark',
] as const;
const thisYear = new Date().getFullYear();
/** Its audience on the profile: every name or year (none: not narrowed by it). */
const listed = (values: readonly (string | number)[]) => (values.length ? values.join(', ') : '-');
/** The names of the teachers a course names, by id (doctors first, as the server lists them). */
const teacherNames = (row: Partial<Course> | undefined) => {
  const ids = [...(row?.teacherDoctorIds ?? []), ...(row?.teacherStaffIds ?? [])];
  const names = row?.teacherNames ?? [];
  return ids.length === names.length ? Object.fromEntries(ids.map((id, i) => [id, names[i] as string])) : {};
};

/**
 * Courses (docs/domain.md §8.1): /teach/course/list, API teaching/course, permission prefix teaching:course; profile
 * /teach/course/:id/profile with its items, enrolments and report. An archived course is not changed.
 */
export const courseDescriptor = describeResource<Course, CreateCourse, UpdateCourse>('teaching/course', (column) => ({
  auditType: 'course',
  profile: (row) => `/teach/course/${row.id}/profile`,
  recordName: (row) => row.title,
  formLayout: 'DrawerForm',
  allows: (row, action) => (action === 'delete' ? row.status === 'draft' : row.status !== 'archived'),
  lockReasonId: { update: 'teaching.course.locked', delete: 'teaching.course.locked.delete' },
  form: { create: [...FORM], update: [...FORM] },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, copyable: true, required: true }),
    column('title', { hideInSearch: true, sorter: true, required: true }),
    // a node of the tree, its name shown until its level is read (the list's filter is the page's, beside the table)
    column('categoryId', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (schema, _config, form) => {
        const id = form?.getFieldValue('categoryId');
        const name = form?.getFieldValue('categoryName');
        return (
          <TaxonomySelect
            kind="course"
            nullable
            testId="course-category"
            labels={id && name ? { [id]: name } : {}}
            {...(schema.fieldProps as object)}
          />
        );
      },
    }),
    column('categoryName', { hideInSearch: true, hideInForm: true }),
    column('courseType', {
      options: COURSE_TYPES.map((value) => ({ value, labelId: `teaching.course.courseType.${value}` })),
    }),
    column('purpose', {
      options: PURPOSES.map((value) => ({ value, labelId: `teaching.course.purpose.${value}` })),
      hideInTable: true,
    }),
    column('creditHours', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 0, step: 0.5 } }),
    column('cmeCreditClass', {
      options: CME_CREDIT_CLASSES.map((value) => ({ value, labelId: `teaching.course.cmeCreditClass.${value}` })),
    }),
    // required with a credit class, cleared without one (the server's rule)
    column('cmeCredits', {
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 0.1, max: 999.9, step: 0.5, precision: 1, 'data-testid': 'form-cmeCredits' },
      formItemProps: {
        dependencies: ['cmeCreditClass'],
        rules: [
          ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
            required: ![undefined, null, 'none'].includes(getFieldValue('cmeCreditClass') as string),
          }),
        ],
      },
    }),
    column('teacherNames', {
      hideInSearch: true,
      hideInForm: true,
      render: (_, row) => listed(row.teacherNames),
    }),
    column('teacherDoctorId', {
      searchOnly: true,
      searchField: (props) => <HostSearch {...props} testId="search-teacherDoctorId" />,
    }),
    column('teacherDoctorIds', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (_schema, _config, form) => (
        <TeacherPicker kind="doctor" names={teacherNames(form?.getFieldsValue(true))} />
      ),
    }),
    column('teacherStaffIds', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (_schema, _config, form) => (
        <TeacherPicker kind="staff" names={teacherNames(form?.getFieldsValue(true))} />
      ),
    }),
    column('targetSpecialties', {
      dict: 'training_specialty',
      hideInSearch: true,
      hideInTable: true,
      fieldProps: { mode: 'multiple' },
    }),
    column('targetSpecialty', { dict: 'training_specialty', searchOnly: true }),
    column('ownerOrgId', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: organizationPicker,
    }),
    column('ownerOrgName', { hideInSearch: true, hideInTable: true, hideInForm: true }),
    column('audienceTraineeTypeIds', {
      valueType: 'select',
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      fieldProps: { mode: 'multiple' },
      request: () => fetchTypes().then((types) => types.map((type) => ({ value: type.id, label: type.name }))),
    }),
    column('audienceOrgIds', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      fieldProps: { multiple: true },
      renderFormItem: organizationPicker,
    }),
    column('audienceTraineeTypeNames', {
      hideInTable: true,
      hideInSearch: true,
      hideInForm: true,
      render: (_, row) => listed(row.audienceTraineeTypeNames),
    }),
    column('audienceOrgNames', {
      hideInTable: true,
      hideInSearch: true,
      hideInForm: true,
      render: (_, row) => listed(row.audienceOrgNames),
    }),
    column('audienceCohortYears', {
      valueType: 'select',
      hideInTable: true,
      hideInSearch: true,
      render: (_, row) => listed(row.audienceCohortYears),
      fieldProps: {
        mode: 'multiple',
        options: Array.from({ length: 8 }, (_, i) => thisYear - i).map((year) => ({ value: year, label: year })),
      },
    }),
    column('finalPaperId', {
      valueType: 'select',
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      fieldProps: { showSearch: true },
      request: paperChoices,
    }),
    column('finalPaperTitle', { hideInSearch: true, hideInTable: true, hideInForm: true }),
    column('minItemPercent', {
      valueType: 'digit',
      hideInTable: true,
      hideInSearch: true,
      fieldProps: { min: 0, max: 100 },
    }),
    column('enrolMode', {
      hideInTable: true,
      options: ENROL_MODES.map((value) => ({ value, labelId: `teaching.course.enrolMode.${value}` })),
    }),
    column('availableFrom', { valueType: 'date', hideInSearch: true }),
    column('availableTo', { valueType: 'date', hideInSearch: true }),
    column('status', {
      hideInForm: true,
      options: (Object.keys(STATUS_COLOURS) as Course['status'][]).map((value) => ({
        value,
        labelId: `teaching.course.status.${value}`,
        color: STATUS_COLOURS[value],
      })),
    }),
    column('itemCount', { hideInSearch: true, hideInForm: true }),
    column('enrolmentCount', { hideInSearch: true, hideInForm: true }),
    column('completedCount', { hideInSearch: true, hideInForm: true }),
    column('summary', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    column('coverFileId', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (_schema, _config, form) => (
        <FileField
          name={form?.getFieldValue('coverFileName')}
          accept="image/*"
          label={getIntl().formatMessage({ id: 'teaching.course.cover.upload' })}
          testId="form-cover-upload"
        />
      ),
    }),
    column('coverFileName', {
      hideInTable: true,
      hideInSearch: true,
      hideInForm: true,
      render: (_, row) => <CourseCover course={row} />,
    }),
    column('descriptionHtml', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      renderFormItem: (schema) => <LazyRichTextEditor {...(schema.fieldProps as object)} />,
    }),
    column('publishedAt', { valueType: 'dateTime', hideInSearch: true, hideInTable: true, hideInForm: true }),
    column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
  ],
}));
