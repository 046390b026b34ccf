import { AppError } from '../../../core/errors';
import type { ResourceStore } from '../../../core/resource/resource';
import { resourceModule } from '../../../core/resource/resource.module';
import {
  createResourceService,
  type ResourceDeps,
  type ResourceService,
} from '../../../core/resource/resource.service';
import type { DictService } from '../catalog/catalog.service';
import { errorCodeResource } from './errcode.resource';
import type { CreateErrorCode, ErrorCode, UpdateErrorCode } from './errcode.schema';

type Service = ResourceService<ErrorCode, CreateErrorCode, UpdateErrorCode>;

const texts = {
  'zh-CN': { fixed: '系统内置错误码不能修改该项' },
  'en-US': { fixed: 'cannot be changed on a built-in code' },
};

/**
 * The error-code registry. Built-in codes (declared in core/error-codes.ts, upserted at start) keep their key, code,
 * module and HTTP status; their messages may be edited and are then kept across restarts. Every write refreshes the
 * catalogue the error handler answers with, on every instance, so the next error carries the new message.
 */
function createErrorCodeService(deps: ResourceDeps & { onChange: () => Promise<void> }): Service {
  const plain = errorCodeResource.store;
  const store: ResourceStore<ErrorCode, CreateErrorCode, UpdateErrorCode> = {
    ...plain,
    create(tx, input, ctx) {
      const manual = { ...input, source: 'manual' as const };
      return plain.create(tx, manual, ctx);
    },
    async update(tx, current, input, ctx) {
      if (current.source === 'built_in') {
        const fixed = (['module', 'httpStatus'] as const).filter(
          (f) => input[f] !== undefined && input[f] !== current[f],
        );
        if (fixed.length > 0)
          throw new AppError(
            'common.validation',
            {},
            fixed.map((field) => ({ field, message: texts[ctx.lang].fixed })),
          );
        const edited =
          (input.messageZh ?? current.messageZh) !== current.messageZh ||
          (input.messageEn ?? current.messageEn) !== current.messageEn;
        if (edited) {
          const customized = { ...input, messageCustomized: true };
          return plain.update(tx, current, customized, ctx);
        }
      }
      return plain.update(tx, current, input, ctx);
    },
    async remove(tx, rows, ctx) {
      if (rows.some((r) => r.source === 'built_in')) throw new AppError('errcode.builtIn');
      await plain.remove(tx, rows, ctx);
    },
  };
  const resource = createResourceService(errorCodeResource, store, deps);
  const refreshing =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await work(...args);
      await deps.onChange();
      return result;
    };
  return {
    ...resource,
    create: refreshing(resource.create),
    update: refreshing(resource.update),
    remove: refreshing(resource.remove),
    act: refreshing(resource.act),
    importTarget: { ...resource.importTarget, afterImport: deps.onChange },
  };
}

export const errorCodes = resourceModule(errorCodeResource, {
  service: (deps: ResourceDeps & { dict: DictService }) => ({
    resource: createErrorCodeService({ ...deps, onChange: deps.dict.errorCatalogChanged }),
  }),
});
