import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { CreateIndustry, Industry, IndustryImportRow, UpdateIndustry } from './industry.schema';

export const industryResource = defineResource({
  path: 'dictionary/industry',
  permission: 'dictionary:industry',
  menu: { parent: 'dictionary', order: 1, platformOnly: true },
  schemas: { row: Industry, create: CreateIndustry, update: UpdateIndustry, importRow: IndustryImportRow },
  table: {
    name: 'industry',
    columns: columnsOf(Industry),
    tree: { key: 'code', parent: 'parent_code' },
  },
  list: {
    sort: ['code', 'name', 'sort', 'level', 'updatedAt'],
    defaultSort: 'code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name', 'name_en'] },
      level: { kind: 'in', column: 'level', values: ['1', '2', '3', '4'] },
      parentCode: { kind: 'eq', column: 'parent_code', pattern: /^([A-Z]|\d{2,4})$/ },
      status: statusFilter,
    },
  },
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', example: '8411' },
    { key: 'parentCode', example: '841' },
    { key: 'name', example: '综合医院' },
    { key: 'nameEn', example: 'General hospitals' },
    { key: 'level', only: 'export' },
    { key: 'standardVersion', example: 'GB/T 4754-2017' },
    { key: 'wechatIndustryId', example: '' },
    { key: 'sort', label: 'dictionary.sort', example: '0' },
    { key: 'status', label: 'dictionary.status', example: 'enabled' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    industries: typeof industryResource;
  }
}
