import { defineResource } from '../../../core/resource/define-resource';
import { dictItemList } from './syscode-item.repository';
import { CreateDictItem, DictItem, DictItemImportRow, UpdateDictItem } from './syscode-item.schema';

export const dictItemResource = defineResource({
  path: 'dictionary/syscode/items',
  type: 'dict_item',
  permission: 'dictionary:syscode',
  actions: { create: 'dictionary:syscode:item-create', update: 'dictionary:syscode:item-update' },
  schemas: { row: DictItem, create: CreateDictItem, update: UpdateDictItem, importRow: DictItemImportRow },
  list: dictItemList,
  label: (row) => `${row.typeCode}.${row.value}`,
  labels: 'dictionary.item',
  columns: [
    { key: 'typeCode', label: 'dictionary.type.code', example: 'gender' },
    { key: 'value', example: 'other' },
    { key: 'label', example: '其他' },
    { key: 'labelEn', example: 'Other' },
    { key: 'color', example: 'default' },
    { key: 'parentValue', example: '' },
    { key: 'isDefault', example: 'false' },
    { key: 'sort', label: 'dictionary.sort', example: '9' },
    { key: 'status', label: 'dictionary.status', example: 'enabled' },
    { key: 'scope', only: 'export' },
  ],
});
