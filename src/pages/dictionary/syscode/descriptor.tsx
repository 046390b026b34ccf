import type { CreateDictItem, DictItem, UpdateDictItem } from '@server/modules/dictionary/syscode/syscode-item.schema';
import type { CreateDictType, DictType, UpdateDictType } from '@server/modules/dictionary/syscode/syscode-type.schema';
import { Tag } from 'antd';
import type { ResourceDescriptor } from '@/components/resource/types';
import ColorSelect, { ColorSwatch } from './ColorSelect';

export type { CreateDictItem, CreateDictType, DictItem, DictType, UpdateDictItem, UpdateDictType };

/** Dictionary types (docs/domain.md §3.1): platform rows; system types stay. */
export const dictTypeDescriptor: ResourceDescriptor<DictType, CreateDictType, UpdateDictType> = {
  resource: 'dictionary/syscode/types',
  auditType: 'dict_type',
  permission: 'dictionary:syscode',
  titleId: 'dictionary.type.entity',
  platformOwned: true,
  allows: (row, action) => action !== 'delete' || !row.isSystem,
  lockReasonId: 'dictionary.type.locked',
  form: {
    create: ['code', 'name', 'tenantExtensible', 'status', 'remark'],
    update: ['name', 'tenantExtensible', 'status', 'remark'],
  },
  columns: [
    {
      dataIndex: 'code',
      titleId: 'dictionary.type.code',
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'dictionary.type.name',
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'tenantExtensible',
      titleId: 'dictionary.type.tenantExtensible',
      dict: 'yes_no',
      valueType: 'switch',
      hideInTable: true,
    },
    { dataIndex: 'isSystem', titleId: 'dictionary.type.isSystem', dict: 'yes_no', hideInForm: true },
    {
      dataIndex: 'status',
      titleId: 'dictionary.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'remark',
      titleId: 'dictionary.remark',
      valueType: 'textarea',
      hideInTable: true,
    },
  ],
};

/** Items of one type: value, labels in both languages, tag colour, order, status, default. */
export const dictItemDescriptor: ResourceDescriptor<DictItem, CreateDictItem, UpdateDictItem> = {
  resource: 'dictionary/syscode/items',
  auditType: 'dict_item',
  permission: 'dictionary:syscode',
  actions: { create: 'dictionary:syscode:item-create', update: 'dictionary:syscode:item-update' },
  // a tenant adds its own items to extensible types; the platform's are the platform's to change
  allows: (row, _action, access) => row.scope === 'tenant' || Boolean(access.platformOperator),
  lockReasonId: 'dictionary.item.locked',
  titleId: 'dictionary.item.entity',
  form: {
    create: ['typeCode', 'value', 'label', 'labelEn', 'color', 'sort', 'status', 'isDefault', 'parentValue'],
    update: ['label', 'labelEn', 'color', 'sort', 'status', 'isDefault', 'parentValue'],
  },
  columns: [
    {
      dataIndex: 'typeCode',
      titleId: 'dictionary.type.code',
      hideInTable: true,
      hideInDescriptions: true,
      fieldProps: { disabled: true },
    },
    {
      dataIndex: 'value',
      titleId: 'dictionary.item.value',
      sorter: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'label',
      titleId: 'dictionary.item.label',
      sorter: true,
      render: (_dom, row) => <Tag color={row.color ?? undefined}>{row.label}</Tag>,
      formItemProps: { rules: [{ required: true }] },
    },
    { dataIndex: 'labelEn', titleId: 'dictionary.item.labelEn' },
    {
      dataIndex: 'color',
      titleId: 'dictionary.item.color',
      render: (_dom, row) => (row.color ? <ColorSwatch color={row.color} /> : '-'),
      renderFormItem: (_schema, _config, form) => <ColorSelect sample={form?.getFieldValue('label')} />,
    },
    {
      dataIndex: 'sort',
      titleId: 'dictionary.sort',
      valueType: 'digit',
      sorter: true,
      fieldProps: { min: 0, precision: 0 },
    },
    {
      dataIndex: 'status',
      titleId: 'dictionary.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    { dataIndex: 'isDefault', titleId: 'dictionary.item.isDefault', dict: 'yes_no', valueType: 'switch' },
    {
      dataIndex: 'parentValue',
      titleId: 'dictionary.item.parentValue',
      hideInTable: true,
    },
    {
      dataIndex: 'scope',
      titleId: 'dictionary.item.scope',
      hideInForm: true,
      options: [
        { value: 'platform', labelId: 'dictionary.item.scope.platform', color: 'blue' },
        { value: 'tenant', labelId: 'dictionary.item.scope.tenant', color: 'green' },
      ],
    },
  ],
};
