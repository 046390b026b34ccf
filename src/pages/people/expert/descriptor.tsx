import type {
  ChangeExpertStatus,
  CreateExpert,
  Expert,
  PromoteExpert,
  UpdateExpert,
} from '@server/modules/people/expert/expert.resource';
import { describeResource } from '@/components/resource/types';
import { organizationPicker, unitPicker } from '@/pages/people/organization/pickers';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Expert, PromoteExpert };

export const experts = resourceService<Expert, CreateExpert, UpdateExpert>('people/expert');

export const changeExpertStatus = (row: Expert, body: Omit<ChangeExpertStatus, 'version'>) =>
  experts.action<Expert>(row.id, 'status', { ...body, version: row.version });
export const revealExpertIdNo = (id: string) =>
  experts.action<{ idNo: string | null }>(id, 'reveal-id').then(({ idNo }) => idNo);
export const promoteDoctor = (doctorId: string, body: PromoteExpert, options?: Options) =>
  request.post<Expert>(`/api/people/doctor/${doctorId}/promote-expert`, { ...options, data: body });

/** Where an expert's status may go by hand (the server's rule too): activation needs an approved qualification. */
export const EXPERT_NEXT: Record<Expert['status'], Expert['status'][]> = {
  applied: ['in_review', 'retired'],
  in_review: ['active', 'applied', 'retired'],
  active: ['suspended', 'retired'],
  suspended: ['active', 'retired'],
  expired: ['active', 'retired'],
  retired: [],
};

/** The expert's own fields: the form's after the person's, and the whole of a doctor's promotion. */
export const EXPERT_FIELDS = [
  'expertNo',
  'orgId',
  'unitId',
  'professionalTitle',
  'specialties',
  'expertLevel',
  'roles',
  'termStart',
  'termEnd',
  'source',
  'remark',
] as const;
const FORM = ['name', 'gender', 'idType', 'idNo', 'mobile', 'email', ...EXPERT_FIELDS] as const;

/**
 * Experts (docs/domain.md §4.10): /expert/users, each with a profile (/expert/users/:id/profile); API people/expert,
 * permission prefix expert:expert. An external person, or a doctor promoted from the doctor's profile; the status
 * moves by its own action (not the form).
 */
export const expertDescriptor = describeResource<Expert, CreateExpert, UpdateExpert>(
  'expert/expert',
  (column) => ({
    auditType: 'expert',
    profile: (row) => `/expert/users/${row.id}/profile`,
    formLayout: 'DrawerForm',
    recordName: (row) => `${row.name} (${row.expertNo})`,
    allows: (row, action) => action === 'delete' || row.status !== 'retired',
    form: { create: [...FORM], update: [...FORM] },
    columns: [
      column('keyword', { titleId: 'people.expert.keyword', searchOnly: true }),
      column('expertNo', { sorter: true, hideInSearch: true, copyable: true, required: true }),
      column('name', { hideInSearch: true, required: true }),
      column('gender', { dict: 'gender', hideInSearch: true, hideInTable: true }),
      column('idType', { dict: 'id_type', hideInSearch: true, hideInTable: true }),
      column('idNo', { hideInSearch: true, hideInTable: true, hideInDescriptions: true }),
      column('idNoMasked', { hideInSearch: true, hideInForm: true, hideInDescriptions: true, hideInTable: true }),
      column('mobile', { hideInSearch: true }),
      column('email', { hideInSearch: true, hideInTable: true }),
      column('orgId', { hideInTable: true, hideInDescriptions: true, renderFormItem: organizationPicker }),
      column('orgName', { hideInSearch: true, hideInForm: true }),
      column('unitId', {
        hideInTable: true,
        hideInDescriptions: true,
        hideInSearch: true,
        ...unitPicker,
      }),
      column('unitName', { hideInSearch: true, hideInForm: true }),
      column('professionalTitle', { dict: 'professional_title', hideInSearch: true }),
      column('specialties', {
        dict: 'training_specialty',
        hideInSearch: true,
        required: true,
        fieldProps: { mode: 'multiple' },
      }),
      column('specialty', { titleId: 'people.expert.specialty', dict: 'training_specialty', searchOnly: true }),
      column('expertLevel', { dict: 'expert_level' }),
      column('roles', { dict: 'expert_role', hideInSearch: true, fieldProps: { mode: 'multiple' } }),
      column('role', { titleId: 'people.expert.role', dict: 'expert_role', searchOnly: true }),
      column('termStart', { valueType: 'date', hideInSearch: true, hideInTable: true }),
      column('termEnd', { valueType: 'date', hideInSearch: true, sorter: true }),
      column('source', { dict: 'expert_source', hideInSearch: true, hideInTable: true }),
      column('approvedQualifications', { hideInSearch: true, hideInForm: true }),
      column('status', { dict: 'expert_status', sorter: true, hideInForm: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
  { resource: 'people/expert', titles: 'people.expert' },
);
