import type { CreateIndustry, Industry, UpdateIndustry } from '@server/modules/dictionary/industry/industry.schema';
import type { ResourceDescriptor } from '@/components/resource/types';

export type { CreateIndustry, Industry, UpdateIndustry };

/** The industry classification (docs/domain.md §3.2): section → division → group → class. */
export const industryDescriptor: ResourceDescriptor<Industry, CreateIndustry, UpdateIndustry> = {
  resource: 'dictionary/industry',
  auditType: 'industry',
  permission: 'dictionary:industry',
  titleId: 'dictionary.industry.entity',
  form: {
    create: ['code', 'parentCode', 'name', 'nameEn', 'standardVersion', 'wechatIndustryId', 'sort', 'status', 'remark'],
    update: ['name', 'nameEn', 'standardVersion', 'wechatIndustryId', 'sort', 'status', 'remark'],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'dictionary.keyword', searchOnly: true },
    {
      dataIndex: 'code',
      titleId: 'dictionary.industry.code',
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'dictionary.industry.name',
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'nameEn',
      titleId: 'dictionary.industry.nameEn',
      hideInTable: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'parentCode',
      titleId: 'dictionary.industry.parentCode',
      hideInSearch: true,
    },
    {
      dataIndex: 'level',
      titleId: 'dictionary.industry.level',
      hideInForm: true,
      options: [1, 2, 3, 4].map((level) => ({ value: level, labelId: `dictionary.industry.level.${level}` })),
    },
    {
      dataIndex: 'standardVersion',
      titleId: 'dictionary.industry.standardVersion',
      hideInSearch: true,
    },
    {
      dataIndex: 'wechatIndustryId',
      titleId: 'dictionary.industry.wechatIndustryId',
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 1, precision: 0 },
    },
    {
      dataIndex: 'sort',
      titleId: 'dictionary.sort',
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 0, precision: 0 },
    },
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
      hideInSearch: true,
    },
  ],
};
