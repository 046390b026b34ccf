import type { ResourceDefinition } from '../../../core/resource/resource';
import { dictItemList } from './syscode-item.repository';
import { CreateDictItem, DictItem, DictItemImportRow, UpdateDictItem } from './syscode-item.schema';

export const dictItemResource: ResourceDefinition<DictItem, CreateDictItem, UpdateDictItem> = {
  path: 'dictionary/syscode/items',
  type: 'dict_item',
  permission: 'dictionary:syscode',
  actions: { create: 'dictionary:syscode:item-create', update: 'dictionary:syscode:item-update' },
  schemas: { row: DictItem, create: CreateDictItem, update: UpdateDictItem, importRow: DictItemImportRow },
  list: dictItemList,
  label: (row) => `${row.typeCode}.${row.value}`,
  columns: [
    { key: 'typeCode', label: { 'zh-CN': '类型编码', 'en-US': 'Type code' }, example: 'gender' },
    { key: 'value', label: { 'zh-CN': '值', 'en-US': 'Value' }, example: 'other' },
    { key: 'label', label: { 'zh-CN': '名称', 'en-US': 'Label' }, example: '其他' },
    { key: 'labelEn', label: { 'zh-CN': '英文名称', 'en-US': 'English label' }, example: 'Other' },
    { key: 'color', label: { 'zh-CN': '颜色', 'en-US': 'Colour' }, example: 'default' },
    { key: 'parentValue', label: { 'zh-CN': '上级值', 'en-US': 'Parent value' }, example: '' },
    { key: 'isDefault', label: { 'zh-CN': '默认', 'en-US': 'Default' }, example: 'false' },
    { key: 'sort', label: { 'zh-CN': '排序', 'en-US': 'Order' }, example: '9' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'scope', label: { 'zh-CN': '范围', 'en-US': 'Scope' }, only: 'export' },
  ],
};
