import type { CreateDictItem, DictItem, UpdateDictItem } from '@server/modules/dictionary/syscode/syscode-item.schema';
import type { CreateDictType, DictType, UpdateDictType } from '@server/modules/dictionary/syscode/syscode-type.schema';
import { Tag } from 'antd';
import { describeResource } from '@/components/resource/types';
import ColorSelect, { ColorSwatch } from './ColorSelect';

export type { CreateDictItem, CreateDictType, DictItem, DictType, UpdateDictItem, UpdateDictType };

/** Dictionary types (docs/domain.md §3.1): platform rows; system types stay. */
export const dictTypeDescriptor = describeResource<DictType, CreateDictType, UpdateDictType>(
  'dictionary/syscode',
  (column) => ({
    auditType: 'dict_type',
    platformOwned: true,
    allows: (row, action) => action !== 'delete' || !row.isSystem,
    lockReasonId: 'dictionary.type.locked',
    form: {
      create: ['code', 'name', 'tenantExtensible', 'status', 'remark'],
      update: ['name', 'tenantExtensible', 'status', 'remark'],
    },
    columns: [
      column('code', { sorter: true, required: true }),
      column('name', { sorter: true, required: true }),
      column('tenantExtensible', { dict: 'yes_no', valueType: 'switch', hideInTable: true }),
      column('isSystem', { dict: 'yes_no', hideInForm: true }),
      column('status', { titleId: 'dictionary.status', dict: 'common_status', required: true }),
      column('remark', { titleId: 'dictionary.remark', valueType: 'textarea', hideInTable: true }),
    ],
  }),
  { resource: 'dictionary/syscode/types', titles: 'dictionary.type' },
);

/** Items of one type: value, labels in both languages, tag colour, order, status, default. */
export const dictItemDescriptor = describeResource<DictItem, CreateDictItem, UpdateDictItem>(
  'dictionary/syscode',
  (column) => ({
    auditType: 'dict_item',
    actions: { create: 'dictionary:syscode:item-create', update: 'dictionary:syscode:item-update' },
    // a tenant adds its own items to extensible types; the platform's are the platform's to change
    allows: (row, _action, access) => row.scope === 'tenant' || Boolean(access.platformOperator),
    lockReasonId: 'dictionary.item.locked',
    form: {
      create: ['typeCode', 'value', 'label', 'labelEn', 'color', 'sort', 'status', 'isDefault', 'parentValue'],
      update: ['label', 'labelEn', 'color', 'sort', 'status', 'isDefault', 'parentValue'],
    },
    columns: [
      column('typeCode', {
        titleId: 'dictionary.type.code',
        hideInTable: true,
        hideInDescriptions: true,
        fieldProps: { disabled: true },
      }),
      column('value', { sorter: true, required: true }),
      column('label', {
        sorter: true,
        render: (_dom, row) => <Tag color={row.color ?? undefined}>{row.label}</Tag>,
        required: true,
      }),
      column('labelEn'),
      column('color', {
        render: (_dom, row) => (row.color ? <ColorSwatch color={row.color} /> : '-'),
        renderFormItem: (_schema, _config, form) => <ColorSelect sample={form?.getFieldValue('label')} />,
      }),
      column('sort', {
        titleId: 'dictionary.sort',
        valueType: 'digit',
        sorter: true,
        fieldProps: { min: 0, precision: 0 },
      }),
      column('status', { titleId: 'dictionary.status', dict: 'common_status', required: true }),
      column('isDefault', { dict: 'yes_no', valueType: 'switch' }),
      column('parentValue', { hideInTable: true }),
      column('scope', {
        hideInForm: true,
        options: [
          { value: 'platform', labelId: 'dictionary.item.scope.platform', color: 'blue' },
          { value: 'tenant', labelId: 'dictionary.item.scope.tenant', color: 'green' },
        ],
      }),
    ],
  }),
  { resource: 'dictionary/syscode/items', titles: 'dictionary.item' },
);
