import type {
  CreateDoctorType,
  DoctorType,
  MoveDoctors,
  UpdateDoctorType,
} from '@server/modules/people/doctor-type/doctor-type.resource';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import type { Options } from '@/utils/request';

export type { DoctorType };

export const doctorTypes = resourceService<DoctorType, CreateDoctorType, UpdateDoctorType>('people/doctor-type');

/** Every doctor of `id` moves to the target type (then `id` may be deleted). */
export const moveDoctors = (id: string, body: MoveDoctors, options?: Options) =>
  doctorTypes.action<DoctorType>(id, 'move-doctors', body, options);

const FORM: (keyof CreateDoctorType & keyof UpdateDoctorType & string)[] = [
  'code',
  'name',
  'description',
  'teacherEligible',
  'licenseRequired',
  'sort',
  'status',
  'remark',
];

/**
 * Doctor types (docs/domain.md §4.5): /user/doctor-type, API people/doctor-type. A type doctors hold is not deleted:
 * the list offers moving its doctors to another type instead.
 */
export const doctorTypeDescriptor = describeResource<DoctorType, CreateDoctorType, UpdateDoctorType>(
  'people/doctor-type',
  (column) => ({
    auditType: 'doctor_type',
    profile: (row) => `/user/doctor-type/${row.id}/detail`,
    form: { create: FORM, update: FORM },
    allows: (row, action) => action !== 'delete' || !row.doctorCount,
    lockReasonId: 'people.doctor-type.move',
    columns: [
      column('keyword', { titleId: 'people.keyword', searchOnly: true }),
      column('code', { sorter: true, hideInSearch: true, required: true, copyable: true }),
      column('name', { sorter: true, hideInSearch: true, required: true }),
      column('description', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
      column('teacherEligible', { dict: 'yes_no', valueType: 'switch', hideInSearch: true }),
      column('licenseRequired', { dict: 'yes_no', valueType: 'switch', hideInSearch: true }),
      column('doctorCount', { hideInSearch: true, hideInForm: true }),
      column('sort', { valueType: 'digit', sorter: true, hideInSearch: true }),
      column('status', { dict: 'common_status' }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
