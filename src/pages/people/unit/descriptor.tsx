import type { CreateUnit, MergeUnits, Unit, UnitAlias, UpdateUnit } from '@server/modules/people/unit/unit.resource';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';

export type { Unit, UnitAlias };

export const units = resourceService<Unit, CreateUnit, UpdateUnit>('people/unit');

/** Merges duplicates into `id`: their references and names move to it, they are deleted. */
export const mergeUnits = (id: string, body: MergeUnits, options?: Options) =>
  units.action<Unit>(id, 'merge', body, options);

/** The names of the units merged into `id`, newest first. */
export const fetchUnitAliases = (id: string) => request.get<UnitAlias[]>(`/api/people/unit/${id}/aliases`);

const FORM_FIELDS: (keyof CreateUnit)[] = [
  'name',
  'creditCode',
  'unitType',
  'hospitalGrade',
  'hospitalLevel',
  'ownership',
  'industryCode',
  'districtCode',
  'address',
  'contactName',
  'contactPhone',
  'email',
  'website',
  'isPartner',
  'status',
  'remark',
];

/**
 * External work units (docs/domain.md §4.2): /units/list, API people/unit, permission prefix people:unit. The credit
 * code's check character, the coded fields' dictionaries and the uniqueness of name and code are the server's rules:
 * a refusal shows on its field.
 */
export const unitDescriptor = describeResource<Unit, CreateUnit, UpdateUnit>('people/unit', (column) => ({
  auditType: 'unit',
  profile: (row) => `/units/${row.id}/profile`,
  formLayout: 'DrawerForm',
  form: { create: FORM_FIELDS, update: FORM_FIELDS },
  columns: [
    column('keyword', { titleId: 'people.keyword', searchOnly: true }),
    column('name', { sorter: true, hideInSearch: true, required: true }),
    column('creditCode', { sorter: true, hideInSearch: true, copyable: true }),
    column('unitType', { dict: 'unit_type', sorter: true }),
    column('hospitalGrade', { dict: 'hospital_grade', hideInSearch: true, hideInTable: true }),
    column('hospitalLevel', { dict: 'hospital_level', hideInSearch: true, hideInTable: true }),
    column('ownership', { dict: 'unit_ownership', hideInSearch: true, hideInTable: true }),
    column('industryCode', { hideInSearch: true, hideInTable: true }),
    column('districtCode', { hideInTable: true }),
    column('address', { hideInSearch: true, hideInTable: true }),
    column('contactName', { hideInSearch: true }),
    column('contactPhone', { hideInSearch: true }),
    column('email', { hideInSearch: true, hideInTable: true }),
    column('website', { hideInSearch: true, hideInTable: true }),
    column('isPartner', { dict: 'yes_no', valueType: 'switch', hideInSearch: true }),
    column('aliases', { hideInSearch: true, hideInForm: true, hideInTable: true }),
    column('status', { dict: 'common_status', sorter: true, required: true }),
    column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
  ],
}));
