import type { ResourceDefinition } from '../../../core/resource/resource';
import { industryList } from './industry.repository';
import { CreateIndustry, Industry, IndustryImportRow, UpdateIndustry } from './industry.schema';

export const industryResource: ResourceDefinition<Industry, CreateIndustry, UpdateIndustry> = {
  path: 'dictionary/industry',
  type: 'industry',
  permission: 'dictionary:industry',
  schemas: { row: Industry, create: CreateIndustry, update: UpdateIndustry, importRow: IndustryImportRow },
  list: industryList,
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', label: { 'zh-CN': '代码', 'en-US': 'Code' }, example: '8411' },
    { key: 'parentCode', label: { 'zh-CN': '上级代码', 'en-US': 'Parent code' }, example: '841' },
    { key: 'name', label: { 'zh-CN': '名称', 'en-US': 'Name' }, example: '综合医院' },
    { key: 'nameEn', label: { 'zh-CN': '英文名称', 'en-US': 'English name' }, example: 'General hospitals' },
    { key: 'level', label: { 'zh-CN': '层级', 'en-US': 'Level' }, only: 'export' },
    { key: 'standardVersion', label: { 'zh-CN': '标准版本', 'en-US': 'Standard' }, example: 'GB/T 4754-2017' },
    { key: 'wechatIndustryId', label: { 'zh-CN': '微信行业 ID', 'en-US': 'WeChat industry id' }, example: '' },
    { key: 'sort', label: { 'zh-CN': '排序', 'en-US': 'Order' }, example: '0' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
  ],
};
