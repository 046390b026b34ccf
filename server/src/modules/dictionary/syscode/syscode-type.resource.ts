import type { ResourceDefinition } from '../../../core/resource/resource';
import { dictTypeList } from './syscode-type.repository';
import { CreateDictType, DictType, DictTypeImportRow, UpdateDictType } from './syscode-type.schema';

export const dictTypeResource: ResourceDefinition<DictType, CreateDictType, UpdateDictType> = {
  path: 'dictionary/syscode/types',
  type: 'dict_type',
  permission: 'dictionary:syscode',
  schemas: { row: DictType, create: CreateDictType, update: UpdateDictType, importRow: DictTypeImportRow },
  list: dictTypeList,
  importKey: 'code',
  label: (row) => row.code,
  columns: [
    { key: 'code', label: { 'zh-CN': '类型编码', 'en-US': 'Code' }, example: 'hospital_grade' },
    { key: 'name', label: { 'zh-CN': '类型名称', 'en-US': 'Name' }, example: '医院等级' },
    { key: 'tenantExtensible', label: { 'zh-CN': '租户可扩展', 'en-US': 'Tenant extensible' }, example: 'true' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'isSystem', label: { 'zh-CN': '系统内置', 'en-US': 'System' }, only: 'export' },
    { key: 'remark', label: { 'zh-CN': '备注', 'en-US': 'Remark' }, example: '' },
  ],
};
