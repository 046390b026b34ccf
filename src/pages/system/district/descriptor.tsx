import type { CreateDistrict, District, UpdateDistrict } from '@server/modules/system/district/district.schema';
import { describeResource } from '@/components/resource/types';

export type { CreateDistrict, District, UpdateDistrict };

/** Administrative divisions (docs/domain.md §2.7): retired codes are disabled, not deleted. */
export const districtDescriptor = describeResource<District, CreateDistrict, UpdateDistrict>(
  'system/district',
  (column) => ({
    auditType: 'district',
    form: {
      create: ['code', 'parentCode', 'name', 'shortName', 'pinyin', 'sort', 'status', 'replacedByCode', 'remark'],
      update: ['name', 'shortName', 'pinyin', 'sort', 'status', 'replacedByCode', 'remark'],
    },
    columns: [
      column('keyword', { searchOnly: true }),
      column('code', { hideInSearch: true, required: true }),
      column('name', { hideInSearch: true, required: true }),
      column('shortName', { hideInSearch: true }),
      column('level', {
        hideInForm: true,
        options: ['province', 'city', 'county', 'township'].map((level) => ({
          value: level,
          labelId: `system.district.level.${level}`,
        })),
      }),
      column('parentCode', { hideInTable: true, hideInSearch: true }),
      column('pinyin', { hideInTable: true, hideInSearch: true }),
      column('sort', { valueType: 'digit', hideInSearch: true, fieldProps: { min: 0, precision: 0 } }),
      column('status', { dict: 'common_status', required: true }),
      column('replacedByCode', { hideInSearch: true }),
      column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
    ],
  }),
);
