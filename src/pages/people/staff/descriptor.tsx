import type {
  ChangeStaffStatus,
  CreateStaff,
  CreateStaffAccount,
  LinkStaffAccount,
  Staff,
  StaffHistory,
  TransferStaff,
  UpdateStaff,
} from '@server/modules/people/staff/staff.resource';
import { describeResource } from '@/components/resource/types';
import { organizationPicker } from '@/pages/people/organization/pickers';
import { resourceService } from '@/services/resource';
import request from '@/utils/request';

export type { Staff, StaffHistory };

export const staff = resourceService<Staff, CreateStaff, UpdateStaff>('people/staff');

export const transferStaff = (row: Staff, body: Omit<TransferStaff, 'version'>) =>
  staff.action<Staff>(row.id, 'transfer', { ...body, version: row.version });
export const changeStaffStatus = (row: Staff, body: Omit<ChangeStaffStatus, 'version'>) =>
  staff.action<Staff>(row.id, 'status', { ...body, version: row.version });
export const createStaffAccount = (row: Staff, body: Omit<CreateStaffAccount, 'version'>) =>
  staff.action<{ staff: Staff; temporaryPassword: string }>(row.id, 'account', { ...body, version: row.version });
export const linkStaffAccount = (row: Staff, body: Omit<LinkStaffAccount, 'version'>) =>
  staff.action<Staff>(row.id, 'link-account', { ...body, version: row.version });
export const revealStaffIdNo = (id: string) =>
  staff.action<{ idNo: string | null }>(id, 'reveal-id').then(({ idNo }) => idNo);
export const fetchStaffHistory = (id: string) => request.get<StaffHistory[]>(`/api/people/staff/${id}/history`);

const PERSON = ['name', 'gender', 'idType', 'idNo', 'mobile', 'email', 'birthDate', 'education'] as const;
const OWN = [
  'staffNo',
  'position',
  'professionalTitle',
  'employmentType',
  'hireDate',
  'isTeacher',
  'teacherLevel',
] as const;

/**
 * Staff (docs/domain.md §4.4): /user/staff, API people/staff, permission prefix people:staff. One person each (an ID
 * number already known links its person); the department changes by transfer (kept in the history), not by editing.
 */
export const staffDescriptor = describeResource<Staff, CreateStaff, UpdateStaff>('people/staff', (column) => ({
  auditType: 'staff',
  profile: (row) => `/user/staff/${row.id}/profile`,
  formLayout: 'DrawerForm',
  recordName: (row) => `${row.name} (${row.staffNo})`,
  form: { create: [...PERSON, ...OWN, 'orgId', 'remark'], update: [...PERSON, ...OWN, 'remark'] },
  columns: [
    column('keyword', { titleId: 'people.keyword', searchOnly: true }),
    column('staffNo', { sorter: true, hideInSearch: true, copyable: true, required: true }),
    column('name', { hideInSearch: true, required: true }),
    column('gender', { dict: 'gender', hideInSearch: true }),
    column('idType', { dict: 'id_type', hideInSearch: true, hideInTable: true }),
    column('idNo', { hideInSearch: true, hideInTable: true, hideInDescriptions: true }),
    column('idNoMasked', { hideInSearch: true, hideInForm: true, hideInDescriptions: true }),
    column('mobile', { hideInSearch: true }),
    column('email', { hideInSearch: true, hideInTable: true }),
    column('birthDate', { valueType: 'date', hideInSearch: true, hideInTable: true }),
    column('education', { dict: 'education', hideInSearch: true, hideInTable: true }),
    column('orgId', {
      hideInTable: true,
      hideInDescriptions: true,
      required: true,
      renderFormItem: organizationPicker,
    }),
    column('orgName', { hideInSearch: true, hideInForm: true }),
    column('position', { dict: 'post' }),
    column('professionalTitle', { dict: 'professional_title', hideInSearch: true }),
    column('employmentType', { dict: 'employment_type', hideInTable: true }),
    column('hireDate', { valueType: 'date', sorter: true, hideInSearch: true, hideInTable: true }),
    column('leaveDate', { valueType: 'date', hideInSearch: true, hideInTable: true, hideInForm: true }),
    column('isTeacher', { dict: 'yes_no', valueType: 'switch' }),
    column('teacherLevel', { hideInSearch: true, hideInTable: true }),
    column('adminUserName', { hideInSearch: true, hideInForm: true }),
    column('status', { dict: 'staff_status', sorter: true, hideInForm: true }),
    column('createdAt', { key: 'createdAtRange', valueType: 'dateRange', searchOnly: true }),
    column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
  ],
}));
