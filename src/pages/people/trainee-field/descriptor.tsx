import type { FieldOption, FieldType } from '@server/modules/people/trainee-field/custom-field';
import type {
  CreateTraineeField,
  ReorderTraineeFields,
  TraineeField,
  UpdateTraineeField,
} from '@server/modules/people/trainee-field/trainee-field.resource';
import type { TraineeType } from '@server/modules/people/trainee-type/trainee-type.resource';
import { getLocale } from '@umijs/max';
import ListEditor from '@/components/ListEditor';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import request, { type Options } from '@/utils/request';
import { getRootState } from '@/utils/store';

export type { TraineeField };

export const traineeFields = resourceService<TraineeField, CreateTraineeField, UpdateTraineeField>(
  'people/trainee-field',
);

/** Sets a type's order of fields (every field of the type, once); answers them in it. */
export const reorderFields = (body: ReorderTraineeFields, options?: Options) =>
  request.post<TraineeField[]>('/api/people/trainee-field/reorder', { ...options, data: body });

/** Archives a field (it leaves forms, lists and sheets; values are kept) or brings it back. */
export const setFieldArchived = (row: TraineeField, archived: boolean) =>
  traineeFields.action<TraineeField>(row.id, archived ? 'archive' : 'restore', { version: row.version });

/** The types a field may belong to, as choices. */
const typeChoices = () =>
  request
    .get<{ data: TraineeType[] }>('/api/people/trainee-type', { params: { pageSize: '200', sort: 'sort' } })
    .then(({ data }) => data.map((type) => ({ value: type.id, label: `${type.name} (${type.code})` })));

/**
 * The dictionaries a field may take its values from: those the console holds (the platform's and the tenant's), each
 * named by its code and its first items, in the current locale.
 */
export function dictionaryChoices(sysCodes = getRootState().sysCodes, english = getLocale() === 'en-US') {
  const items = new Map<string, string[]>();
  for (const item of [...sysCodes].sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))) {
    const labels = items.get(item.type) ?? [];
    labels.push((english && item.labelEn) || item.label);
    items.set(item.type, labels);
  }
  return [...items]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, labels]) => ({
      value: code,
      label: `${code}（${labels.slice(0, 3).join(' / ')}${labels.length > 3 ? ' …' : ''}）`,
    }));
}

/** Every kind of field, once (the type keeps the list whole: a kind the server adds must be added here). */
const KINDS = Object.keys({
  text: 1,
  textarea: 1,
  rich_text: 1,
  number: 1,
  integer: 1,
  date: 1,
  datetime: 1,
  date_range: 1,
  select: 1,
  multi_select: 1,
  radio: 1,
  checkbox: 1,
  switch: 1,
  dict: 1,
  dict_multi: 1,
  district: 1,
  org: 1,
  unit: 1,
  file: 1,
  image: 1,
  id_card: 1,
  mobile: 1,
  email: 1,
  url: 1,
} satisfies Record<FieldType, 1>) as FieldType[];

const FORM: (keyof UpdateTraineeField & keyof CreateTraineeField & string)[] = [
  'key',
  'label',
  'labelEn',
  'groupName',
  'fieldType',
  'dictTypeCode',
  'options',
  'required',
  'uniqueScope',
  'locked',
  'visibility',
  'showInList',
  'filterable',
  'exportable',
  'importable',
  'placeholder',
  'helpText',
];
const flag = { dict: 'yes_no', valueType: 'switch' as const, hideInSearch: true, hideInTable: true };

/**
 * The custom fields of trainee types (docs/domain.md §4.8): /user/trainee-type-field, API people/trainee-field,
 * permission prefix people:trainee-field. Keys unique in their type, options of choice fields, dictionaries and
 * defaults are the server's rules: a refusal shows on its field. A field is archived, never deleted.
 */
export const traineeFieldDescriptor = describeResource<TraineeField, CreateTraineeField, UpdateTraineeField>(
  'people/trainee-field',
  (column) => ({
    auditType: 'trainee_type_field',
    profile: (row) => `/user/trainee-type-field/${row.id}/detail`,
    formLayout: 'DrawerForm',
    recordName: (row) => row.label,
    allows: (_row, action) => action !== 'delete',
    form: { create: ['traineeTypeId', ...FORM], update: FORM },
    columns: [
      column('keyword', { titleId: 'people.keyword', searchOnly: true }),
      column('traineeTypeId', {
        valueType: 'select',
        request: typeChoices,
        required: true,
        hideInTable: true,
        formDisabled: (record) => Boolean(record),
      }),
      column('key', { sorter: true, hideInSearch: true, copyable: true, required: true }),
      column('label', { sorter: true, hideInSearch: true, required: true }),
      column('labelEn', { hideInSearch: true, hideInTable: true }),
      column('groupName', { hideInSearch: true }),
      column('fieldType', {
        sorter: true,
        required: true,
        // 23 kinds: found by typing
        fieldProps: { showSearch: true, optionFilterProp: 'label' },
        options: KINDS.map((value) => ({ value, labelId: `people.trainee-field.fieldType.${value}` })),
      }),
      column('dictTypeCode', {
        hideInSearch: true,
        hideInTable: true,
        valueType: 'select',
        request: async () => dictionaryChoices(),
        fieldProps: { showSearch: true, optionFilterProp: 'label', allowClear: true },
      }),
      column('options', {
        hideInSearch: true,
        hideInTable: true,
        render: (_dom, row) => (row.options ?? []).map((o) => `${o.value}=${o.label}`).join('; ') || '-',
        renderFormItem: () => (
          <ListEditor<FieldOption>
            testId="option"
            blank={{ value: '', label: '' }}
            addLabelId="people.trainee-field.options"
            columns={[
              { key: 'value', placeholderId: 'people.trainee-field.optionValue', width: 140 },
              { key: 'label', placeholderId: 'people.trainee-field.optionLabel', width: 180 },
            ]}
          />
        ),
      }),
      column('required', { ...flag, hideInTable: false }),
      column('uniqueScope', {
        hideInSearch: true,
        hideInTable: true,
        options: ['none', 'type', 'tenant'].map((value) => ({
          value,
          labelId: `people.trainee-field.uniqueScope.${value}`,
        })),
      }),
      column('locked', flag),
      column('visibility', {
        hideInSearch: true,
        hideInTable: true,
        options: ['hidden', 'admin_only', 'self_and_admin', 'public'].map((value) => ({
          value,
          labelId: `people.trainee-field.visibility.${value}`,
        })),
      }),
      column('showInList', flag),
      column('filterable', flag),
      column('exportable', flag),
      column('importable', flag),
      column('defaultValue', {
        hideInSearch: true,
        hideInTable: true,
        hideInForm: true,
        render: (_dom, row) => (row.defaultValue === null ? '-' : JSON.stringify(row.defaultValue)),
      }),
      column('placeholder', { hideInSearch: true, hideInTable: true }),
      column('helpText', { hideInSearch: true, hideInTable: true }),
      column('sort', { valueType: 'digit', sorter: true, hideInSearch: true, hideInForm: true }),
      column('status', {
        hideInForm: true,
        options: [
          { value: 'active', labelId: 'people.trainee-field.status.active', color: 'success' },
          { value: 'archived', labelId: 'people.trainee-field.status.archived', color: 'default' },
        ],
      }),
      column('updatedAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, hideInTable: true }),
    ],
  }),
);
