import type { ResourceDefinition } from '../../../core/resource/resource';
import { districtList } from './district.repository';
import { CreateDistrict, District, DistrictImportRow, UpdateDistrict } from './district.schema';

export const districtResource: ResourceDefinition<District, CreateDistrict, UpdateDistrict> = {
  path: 'system/district',
  type: 'district',
  permission: 'system:district',
  schemas: { row: District, create: CreateDistrict, update: UpdateDistrict, importRow: DistrictImportRow },
  list: districtList,
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', label: { 'zh-CN': '区划代码', 'en-US': 'Code' }, example: '110101' },
    { key: 'name', label: { 'zh-CN': '名称', 'en-US': 'Name' }, example: '东城区' },
    { key: 'shortName', label: { 'zh-CN': '简称', 'en-US': 'Short name' }, example: '东城' },
    { key: 'level', label: { 'zh-CN': '级别', 'en-US': 'Level' }, example: 'county' },
    { key: 'parentCode', label: { 'zh-CN': '上级代码', 'en-US': 'Parent code' }, example: '110100' },
    { key: 'pinyin', label: { 'zh-CN': '拼音', 'en-US': 'Pinyin' }, example: 'dongcheng' },
    { key: 'sort', label: { 'zh-CN': '排序', 'en-US': 'Order' }, example: '0' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'replacedByCode', label: { 'zh-CN': '替代代码', 'en-US': 'Replaced by' }, example: '' },
  ],
};
