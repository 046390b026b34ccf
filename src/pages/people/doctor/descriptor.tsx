import type { CreateDoctor, Doctor, UpdateDoctor } from '@server/modules/people/doctor/doctor.resource';
import { describeResource } from '@/components/resource/types';
import { organizationPicker, unitPicker } from '@/pages/people/organization/pickers';
import { resourceService } from '@/services/resource';
import { choiceKeyword, choiceLabel } from '@/utils/choices';

export type { Doctor };

export const doctors = resourceService<Doctor, CreateDoctor, UpdateDoctor>('people/doctor');

export const revealDoctorIdNo = (id: string) =>
  doctors.action<{ idNo: string | null }>(id, 'reveal-id').then(({ idNo }) => idNo);

/**
 * Active doctors as choices (an activity's host), labelled `name · organisation` and found by name, pinyin or number
 * (a whole label typed, by its name); `filter` narrows the list.
 */
export const doctorChoices = (typed?: string, filter: Record<string, string> = {}) => {
  const keyword = choiceKeyword(typed);
  return doctors
    .list({ status: 'active', pageSize: '50', ...filter, ...(keyword && { keyword }) })
    .then(({ data }) => data.map((d) => ({ value: d.id, label: choiceLabel(d.name, d.orgName) })));
};

/** Active tutors as choices (a trainee's tutor). */
export const tutorChoices = (keyword?: string) => doctorChoices(keyword, { isTutor: 'true' });

/** What a new doctor's form starts with, wherever it is created (every type's list, a type's detail). */
export const DOCTOR_DEFAULTS = { status: 'active', isTutor: false, idType: 'resident_id' };

const FORM = [
  'name',
  'gender',
  'idType',
  'idNo',
  'mobile',
  'email',
  'doctorNo',
  'doctorTypeId',
  'orgId',
  'unitId',
  'professionalTitle',
  'practiceCategory',
  'practiceScope',
  'qualificationCertNo',
  'licenseNo',
  'licenseIssuedOn',
  'specialtyCode',
  'isTutor',
  'teacherSince',
  'status',
  'remark',
] as const;

/**
 * Doctors (docs/domain.md §4.6): listed on their type's detail (/user/doctor-type/:id/detail), each with a profile
 * (/doctor/:id/profile); API people/doctor, permission prefix people:doctor. Internal ones have a department,
 * external ones a unit; the type says whether a licence is required (the server's rule: a refusal shows on its field).
 */
export const doctorDescriptor = describeResource<Doctor, CreateDoctor, UpdateDoctor>('people/doctor', (column) => ({
  auditType: 'doctor',
  profile: (row) => `/doctor/${row.id}/profile`,
  formLayout: 'DrawerForm',
  recordName: (row) => (row.doctorNo ? `${row.name} (${row.doctorNo})` : row.name),
  form: { create: [...FORM], update: [...FORM] },
  columns: [
    column('keyword', { titleId: 'people.keyword', searchOnly: true }),
    column('doctorNo', { sorter: true, hideInSearch: true, copyable: true }),
    column('name', { hideInSearch: true, required: true }),
    column('gender', { dict: 'gender', hideInSearch: true }),
    column('idType', { dict: 'id_type', hideInSearch: true, hideInTable: true }),
    column('idNo', { hideInSearch: true, hideInTable: true, hideInDescriptions: true }),
    column('idNoMasked', { hideInSearch: true, hideInForm: true, hideInDescriptions: true }),
    column('mobile', { hideInSearch: true }),
    column('email', { hideInSearch: true, hideInTable: true }),
    column('doctorTypeId', {
      hideInTable: true,
      hideInSearch: true,
      hideInDescriptions: true,
      required: true,
      valueType: 'select',
      request: () =>
        resourceService<{ id: string; name: string }>('people/doctor-type')
          .list({ pageSize: '200', sort: 'sort,code' })
          .then(({ data }) => data.map((t) => ({ value: t.id, label: t.name }))),
    }),
    column('doctorTypeName', { hideInSearch: true, hideInForm: true }),
    column('orgId', {
      hideInTable: true,
      hideInDescriptions: true,
      renderFormItem: organizationPicker,
      searchField: (props) => organizationPicker({ fieldProps: props }),
    }),
    column('orgName', { hideInSearch: true, hideInForm: true }),
    column('unitId', {
      hideInTable: true,
      hideInDescriptions: true,
      hideInSearch: true,
      ...unitPicker,
    }),
    column('unitName', { hideInSearch: true, hideInForm: true, hideInTable: true }),
    column('professionalTitle', { dict: 'professional_title' }),
    column('practiceCategory', { dict: 'practice_category', hideInSearch: true, hideInTable: true }),
    column('practiceScope', { hideInSearch: true, hideInTable: true }),
    column('qualificationCertNo', { hideInSearch: true, hideInTable: true }),
    column('licenseNo', { hideInSearch: true, hideInTable: true }),
    column('licenseIssuedOn', { valueType: 'date', hideInSearch: true, hideInTable: true }),
    column('specialtyCode', { hideInSearch: true, hideInTable: true }),
    column('isTutor', { dict: 'yes_no', valueType: 'switch' }),
    column('teacherSince', { valueType: 'date', hideInSearch: true, hideInTable: true }),
    column('traineeCount', { hideInSearch: true, hideInForm: true }),
    column('status', { dict: 'doctor_status', sorter: true }),
    column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
  ],
}));
