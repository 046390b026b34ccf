import { AppError, invalidField, isUniqueViolation } from '../../../core/errors';
import type { PlatformScope } from '../../../core/platform-scope';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { resourceModule } from '../../../core/resource/resource.module';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import * as repo from './syscode-item.repository';
import { dictItemResource } from './syscode-item.resource';
import type { CreateDictItem, DictItem, UpdateDictItem } from './syscode-item.schema';
import { findDictTypeByCode } from './syscode-type.repository';

const texts = {
  'zh-CN': { unknownType: '字典类型不存在' },
  'en-US': { unknownType: 'is not an existing dictionary type' },
};

/**
 * Items are hybrid: the platform's are shared by every tenant and written only from the platform tenant; a tenant
 * adds its own values to types that are tenant-extensible. RLS hides other tenants' items.
 */
function createDictItemService(deps: ResourceDeps & { platform: PlatformScope }) {
  const { platform } = deps;

  const ownOrPlatform = async (tx: Tx, row: DictItem, ctx: WriteContext) => {
    if (row.scope === 'platform') await platform.assertPlatform(tx, ctx.tenantId);
  };

  const store: ResourceStore<DictItem, CreateDictItem, UpdateDictItem> = {
    list: repo.listDictItems,
    find: repo.findDictItem,

    async create(tx, input, ctx) {
      const type = await findDictTypeByCode(tx, input.typeCode);
      if (!type) throw invalidField('typeCode', texts[ctx.lang].unknownType);
      const isPlatform = await platform.isPlatform(tx, ctx.tenantId);
      if (!isPlatform) {
        if (!type.tenant_extensible) throw new AppError('dict.notExtensible');
        if (await repo.platformValueExists(tx, input.typeCode, input.value)) {
          throw new AppError('common.duplicate', {}, [{ field: 'value', message: '' }]);
        }
      }
      try {
        return await repo.insertDictItem(tx, { ...input, tenantId: ctx.tenantId }, ctx);
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('common.duplicate', {}, [{ field: 'value', message: '' }]);
        throw err;
      }
    },

    async update(tx, current, { version, ...values }, ctx) {
      await ownOrPlatform(tx, current, ctx);
      return repo.updateDictItem(tx, current.id, values, ctx, version);
    },

    async remove(tx, rows, ctx) {
      for (const row of rows) await ownOrPlatform(tx, row, ctx);
      await repo.deleteDictItems(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };

  return createResourceService(dictItemResource, store, deps);
}

export const dictItems = resourceModule(dictItemResource, {
  service: (deps: ResourceDeps & { platform: PlatformScope }) => ({ resource: createDictItemService(deps) }),
});
