import type { CreateIndustry, Industry, UpdateIndustry } from '@server/modules/dictionary/industry/industry.schema';
import { describeResource } from '@/components/resource/types';

export type { CreateIndustry, Industry, UpdateIndustry };

/** The industry classification (docs/domain.md §3.2): section → division → group → class. */
export const industryDescriptor = describeResource<Industry, CreateIndustry, UpdateIndustry>(
  'dictionary/industry',
  (column) => ({
    auditType: 'industry',
    form: {
      create: [
        'code',
        'parentCode',
        'name',
        'nameEn',
        'standardVersion',
        'wechatIndustryId',
        'sort',
        'status',
        'remark',
      ],
      update: ['name', 'nameEn', 'standardVersion', 'wechatIndustryId', 'sort', 'status', 'remark'],
    },
    columns: [
      column('keyword', { titleId: 'dictionary.keyword', searchOnly: true }),
      column('code', { hideInSearch: true, required: true }),
      column('name', { hideInSearch: true, required: true }),
      column('nameEn', { hideInTable: true, hideInSearch: true }),
      column('parentCode', { hideInSearch: true }),
      column('level', {
        hideInForm: true,
        options: [1, 2, 3, 4].map((level) => ({ value: level, labelId: `dictionary.industry.level.${level}` })),
      }),
      column('standardVersion', { hideInSearch: true }),
      column('wechatIndustryId', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 1, precision: 0 } }),
      column('sort', {
        titleId: 'dictionary.sort',
        valueType: 'digit',
        hideInSearch: true,
        fieldProps: { min: 0, precision: 0 },
      }),
      column('status', { titleId: 'dictionary.status', dict: 'common_status', required: true }),
      column('remark', { titleId: 'dictionary.remark', valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
