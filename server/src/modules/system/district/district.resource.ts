import { defineResource } from '../../../core/resource/define-resource';
import { districtList } from './district.repository';
import { CreateDistrict, District, DistrictImportRow, UpdateDistrict } from './district.schema';

export const districtResource = defineResource({
  path: 'system/district',
  type: 'district',
  permission: 'system:district',
  schemas: { row: District, create: CreateDistrict, update: UpdateDistrict, importRow: DistrictImportRow },
  list: districtList,
  importKey: 'code',
  label: (row) => `${row.code} ${row.name}`,
  columns: [
    { key: 'code', example: '110101' },
    { key: 'name', example: '东城区' },
    { key: 'shortName', example: '东城' },
    { key: 'level', example: 'county' },
    { key: 'parentCode', example: '110100' },
    { key: 'pinyin', example: 'dongcheng' },
    { key: 'sort', example: '0' },
    { key: 'status', example: 'enabled' },
    { key: 'replacedByCode', example: '' },
  ],
});
