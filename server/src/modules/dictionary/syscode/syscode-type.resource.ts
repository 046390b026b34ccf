import { AppError } from '../../../core/errors';
import { type PlatformScope, platformWrites } from '../../../core/platform-scope';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { plainResource } from '../../../core/resource/resource.module';
import type { ResourceDeps } from '../../../core/resource/resource.service';
import { columnsOf } from '../../../core/resource/table.repository';
import { CreateDictType, DictType, DictTypeImportRow, UpdateDictType } from './syscode-type.schema';

export const dictTypeResource = defineResource({
  path: 'dictionary/syscode/types',
  permission: 'dictionary:syscode',
  schemas: { row: DictType, create: CreateDictType, update: UpdateDictType, importRow: DictTypeImportRow },
  table: {
    name: 'dict_type',
    columns: columnsOf(DictType),
  },
  list: {
    sort: ['code', 'name', 'createdAt', 'updatedAt'],
    defaultSort: 'code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name'] },
      status: statusFilter,
      tenantExtensible: { kind: 'eq', column: 'tenant_extensible', values: ['true', 'false'] },
    },
  },
  importKey: 'code',
  labels: 'dictionary.type',
  columns: [
    { key: 'code', example: 'hospital_grade' },
    { key: 'name', example: '医院等级' },
    { key: 'tenantExtensible', example: 'true' },
    { key: 'status', label: 'dictionary.status', example: 'enabled' },
    { key: 'isSystem', only: 'export' },
    { key: 'remark', label: 'dictionary.remark', example: '' },
  ],
});

const isForeignKeyViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23503';

/** Types are platform rows: tenants read them; only the platform writes; system types and types with items stay. */
export const dictTypes = plainResource(dictTypeResource, (plain, deps: ResourceDeps & { platform: PlatformScope }) =>
  platformWrites(
    {
      ...plain,
      async remove(tx, rows, ctx) {
        if (rows.some((r) => r.isSystem)) throw new AppError('dict.systemType');
        try {
          await plain.remove(tx, rows, ctx);
        } catch (err) {
          if (isForeignKeyViolation(err)) throw new AppError('dict.typeInUse');
          throw err;
        }
      },
    },
    deps.platform,
  ),
);
