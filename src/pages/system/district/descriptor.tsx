import type { CreateDistrict, District, UpdateDistrict } from '@server/modules/system/district/district.schema';
import type { ResourceDescriptor } from '@/components/resource/types';

export type { CreateDistrict, District, UpdateDistrict };

/** Administrative divisions (docs/domain.md §2.7): retired codes are disabled, not deleted. */
export const districtDescriptor: ResourceDescriptor<District, CreateDistrict, UpdateDistrict> = {
  resource: 'system/district',
  auditType: 'district',
  permission: 'system:district',
  titleId: 'system.district.entity',
  form: {
    create: ['code', 'parentCode', 'name', 'shortName', 'pinyin', 'sort', 'status', 'replacedByCode', 'remark'],
    update: ['name', 'shortName', 'pinyin', 'sort', 'status', 'replacedByCode', 'remark'],
  },
  columns: [
    { dataIndex: 'keyword', titleId: 'system.district.keyword', searchOnly: true },
    {
      dataIndex: 'code',
      titleId: 'system.district.code',
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'name',
      titleId: 'system.district.name',
      hideInSearch: true,
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'shortName',
      titleId: 'system.district.shortName',
      hideInSearch: true,
    },
    {
      dataIndex: 'level',
      titleId: 'system.district.level',
      hideInForm: true,
      options: ['province', 'city', 'county', 'township'].map((level) => ({
        value: level,
        labelId: `system.district.level.${level}`,
      })),
    },
    {
      dataIndex: 'parentCode',
      titleId: 'system.district.parentCode',
      hideInTable: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'pinyin',
      titleId: 'system.district.pinyin',
      hideInTable: true,
      hideInSearch: true,
    },
    {
      dataIndex: 'sort',
      titleId: 'system.district.sort',
      valueType: 'digit',
      hideInSearch: true,
      fieldProps: { min: 0, precision: 0 },
    },
    {
      dataIndex: 'status',
      titleId: 'system.district.status',
      dict: 'common_status',
      formItemProps: { rules: [{ required: true }] },
    },
    {
      dataIndex: 'replacedByCode',
      titleId: 'system.district.replacedByCode',
      hideInSearch: true,
    },
    {
      dataIndex: 'remark',
      titleId: 'system.district.remark',
      valueType: 'textarea',
      hideInTable: true,
      hideInSearch: true,
    },
  ],
};
