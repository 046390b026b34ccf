import { AppError } from '../../../core/errors';
import { type PlatformScope, platformWrites } from '../../../core/platform-scope';
import { type ResourceStore, tableStore } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { dictTypes } from './syscode-type.repository';
import { dictTypeResource } from './syscode-type.resource';
import type { CreateDictType, DictType, UpdateDictType } from './syscode-type.schema';

const isForeignKeyViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23503';

/** Types are platform rows: tenants read them; only the platform writes; system types and types with items stay. */
export function createDictTypeService(deps: ResourceDeps & { platform: PlatformScope }) {
  const plain = tableStore<DictType, CreateDictType, UpdateDictType>(dictTypes, 'code');
  const store: ResourceStore<DictType, CreateDictType, UpdateDictType> = {
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
  };
  return createResourceService(dictTypeResource, platformWrites(store, deps.platform), deps);
}
