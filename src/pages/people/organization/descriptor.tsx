import type {
  CreateOrganization,
  Organization,
  UpdateOrganization,
} from '@server/modules/people/organization/organization.resource';
import type { OrgType } from '@server/modules/people/organization/organization.rules';
import { describeResource } from '@/components/resource/types';

export type { CreateOrganization, Organization, UpdateOrganization };

const ORG_TYPES: OrgType[] = ['hospital', 'training_base', 'specialty_base', 'department', 'teaching_group', 'office'];
const TYPE_COLOURS: Record<OrgType, string> = {
  hospital: 'blue',
  training_base: 'geekblue',
  specialty_base: 'purple',
  department: 'cyan',
  teaching_group: 'green',
  office: 'default',
};

/** The fields a form edits (a new node also says where it sits; "move to" changes that later). */
const FORM: (keyof CreateOrganization & keyof UpdateOrganization & string)[] = [
  'code',
  'name',
  'shortName',
  'orgType',
  'baseLevel',
  'specialtyCode',
  'standardDeptCode',
  'phone',
  'email',
  'districtCode',
  'address',
  'annualCapacity',
  'accreditationNo',
  'sort',
  'status',
  'remark',
];

/**
 * The tenant's organisation tree (docs/domain.md §4.1): /user/organization, API people/organization, permission
 * prefix people:organization. Where a type may sit is the server's rule (organization.rules.ts); a refusal shows on
 * the type field.
 */
export const organizationDescriptor = describeResource<Organization, CreateOrganization, UpdateOrganization>(
  'people/organization',
  (column) => ({
    auditType: 'organization',
    profile: (row) => `/user/organization/${row.id}/profile`,
    formLayout: 'DrawerForm',
    form: { create: ['parentId', ...FORM], update: FORM },
    columns: [
      column('keyword', { titleId: 'people.keyword', searchOnly: true }),
      column('name', { hideInSearch: true, required: true }),
      column('code', { hideInSearch: true, required: true }),
      column('orgType', {
        required: true,
        options: ORG_TYPES.map((value) => ({
          value,
          labelId: `people.organization.orgType.${value}`,
          color: TYPE_COLOURS[value],
        })),
      }),
      column('ancestry', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      // a parent is chosen on the tree (add child) or by "move to"; the form carries it without showing it
      column('parentId', {
        hideInSearch: true,
        hideInTable: true,
        hideInDescriptions: true,
        formItemProps: { hidden: true },
      }),
      column('shortName', { hideInSearch: true, hideInTable: true }),
      column('baseLevel', {
        hideInSearch: true,
        hideInTable: true,
        options: ['national', 'provincial', 'institutional'].map((value) => ({
          value,
          labelId: `people.organization.baseLevel.${value}`,
        })),
      }),
      column('specialtyCode', { hideInSearch: true, hideInTable: true }),
      column('standardDeptCode', { hideInSearch: true, hideInTable: true }),
      column('phone', { hideInSearch: true }),
      column('email', { hideInSearch: true, hideInTable: true }),
      column('districtCode', { hideInSearch: true, hideInTable: true }),
      column('address', { hideInSearch: true, hideInTable: true }),
      column('annualCapacity', {
        valueType: 'digit',
        hideInSearch: true,
        hideInTable: true,
        fieldProps: { min: 0, precision: 0 },
      }),
      column('accreditationNo', { hideInSearch: true, hideInTable: true }),
      column('sort', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 0, precision: 0 } }),
      column('status', { dict: 'common_status', required: true }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
