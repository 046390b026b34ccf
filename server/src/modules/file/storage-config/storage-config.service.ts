import type { Config } from '../../../config';
import { AppError, invalidField, isUniqueViolation, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { hostOf, isUnreachable, type Outbound } from '../../../core/outbound';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Tx } from '../../../core/tenancy';
import { createStores, type StorageRecord } from '../stores';
import { storageRecordOf } from '../stores.repository';
import {
  type CreateStorageConfig,
  type StorageConfig,
  storageConfigResource,
  type UpdateStorageConfig,
} from './storage-config.resource';

const texts = {
  'zh-CN': {
    required: '使用 S3 存储时必填',
    nameTaken: '已有同名存储配置',
    holdsFiles: (n: number) => `仍存有 ${n} 个文件`,
    isMaster: '是当前的主配置',
    notPublic: '不能是本机、内网或保留地址',
  },
  'en-US': {
    required: 'is required for an S3 store',
    nameTaken: 'another storage configuration has this name',
    holdsFiles: (n: number) => `still holds ${n} files`,
    isMaster: 'is the master',
    notPublic: 'must not be a local, private or reserved address',
  },
};

type Fields = Partial<CreateStorageConfig>;

/**
 * Storage configurations (docs/domain.md §7.1): an S3 store names its bucket, region and keys (the secret sealed at
 * rest, never answered); one enabled master per tenant takes new files; a configuration that holds files or is the
 * master is not deleted; the connection test puts, reads back and deletes a probe object.
 */
export function createStorageConfigService(deps: ResourceDeps & { config: Config; outbound: Outbound }) {
  const stores = createStores(deps);
  const { store: plain, repository } = storageConfigResource;

  function checkS3(merged: Fields & { secretSet?: boolean }, lang: Lang) {
    if (merged.provider !== 's3') return;
    for (const field of ['bucket', 'region', 'accessKeyId'] as const)
      if (!merged[field]) throw invalidField(field, texts[lang].required);
    if (!merged.secretAccessKey && !merged.secretSet) throw invalidField('secretAccessKey', texts[lang].required);
  }

  /** The input as stored: the secret sealed into its write-only column. */
  const sealed = <T extends Fields>({ secretAccessKey, ...rest }: T) => ({
    ...rest,
    ...(secretAccessKey !== undefined && { secretEnc: stores.secrets.seal(secretAccessKey) }),
  });

  const named = async <T>(lang: Lang, write: () => Promise<T>) => {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw invalidField('name', texts[lang].nameTaken);
      throw err;
    }
  };

  /** A row as written, with what is computed (the secret kept, the files held), which a write does not answer. */
  const withCounts = async (tx: Tx, row: StorageConfig) => (await repository.find(tx, row.id)) ?? row;

  const store: ResourceStore<StorageConfig, CreateStorageConfig, UpdateStorageConfig> = {
    ...plain,
    createMany: undefined,
    async create(tx, input, ctx) {
      checkS3(input, ctx.lang);
      const row = await named(ctx.lang, () => plain.create(tx, sealed(input) as CreateStorageConfig, ctx));
      return withCounts(tx, row);
    },
    async update(tx, current, input, ctx) {
      checkS3({ ...current, ...input }, ctx.lang);
      if (current.isMaster && input.status === 'disabled') throw new AppError('storage.masterDisabled');
      const row = await named(ctx.lang, () => plain.update(tx, current, sealed(input) as UpdateStorageConfig, ctx));
      return row && withCounts(tx, row);
    },
    async remove(tx, rows, ctx) {
      for (const row of rows)
        if (row.isMaster) throw new AppError('storage.inUse', { name: row.name, reason: texts[ctx.lang].isMaster });
      await plain.remove(tx, rows, ctx);
    },
  };
  const generic = createResourceService(storageConfigResource, store, deps);

  /**
   * An endpoint the tenant may not reach (core/outbound.ts) is refused when saved, before the write's transaction
   * (it may wait on DNS); it is checked again on every connection, where a name may resolve elsewhere.
   */
  async function checkEndpoint(ctx: WriteContext, endpoint: string | null | undefined) {
    const host = endpoint ? hostOf(endpoint) : undefined;
    if (host && !(await deps.outbound.admits(ctx.tenantId, host)))
      throw invalidField('endpoint', texts[ctx.lang].notPublic);
  }

  /** A configuration that holds files, in any tenant (the platform's serve the others), is not deleted. */
  const resource: typeof generic = {
    ...generic,
    async create(ctx, input) {
      await checkEndpoint(ctx, input.endpoint);
      return generic.create(ctx, input);
    },
    async update(ctx, id, input) {
      await checkEndpoint(ctx, input.endpoint);
      return generic.update(ctx, id, input);
    },
    async remove(ctx, ids) {
      for (const [id, count] of await stores.fileCounts(ids)) {
        if (count === 0) continue;
        const row = await generic.get(ctx.tenantId, id);
        throw new AppError('storage.inUse', { name: row.name, reason: texts[ctx.lang].holdsFiles(count) });
      }
      return generic.remove(ctx, ids);
    },
  };

  const record = async (tx: Tx, id: string): Promise<StorageRecord> => {
    const found = await storageRecordOf(tx, id);
    if (!found) throw new Error(`storage configuration ${id} is gone`);
    return found;
  };

  return {
    resource,

    /**
     * Puts, reads back and deletes a probe object through the saved configuration. What the service answered is
     * said (a refused key, a missing bucket); a service that could not be reached is said in one message, whatever
     * the reason, so that the test tells nothing of the network behind the address.
     */
    async test(ctx: WriteContext, id: string) {
      await resource.get(ctx.tenantId, id);
      const saved = await deps.tenancy.inTenant(ctx.tenantId, (tx) => record(tx, id));
      const started = performance.now();
      try {
        await stores.storeOf(saved).probe();
        return { ok: true, message: 'ok', ms: Math.round(performance.now() - started) };
      } catch (err) {
        const message = isUnreachable(err)
          ? deps.catalog.message('outbound.unreachable', ctx.lang)
          : err instanceof Error
            ? err.message
            : String(err);
        return { ok: false, message, ms: Math.round(performance.now() - started) };
      }
    },

    /** Makes this (enabled) configuration the one new files go to; the previous master stays, as a plain one. */
    async setMaster(ctx: WriteContext, id: string, version: number) {
      return resource.act(ctx, id, 'set-master', async (tx, row) => {
        if (row.version !== version) throw versionConflict();
        if (row.status !== 'enabled') throw new AppError('storage.masterDisabled');
        await tx.updateTable('storage_config').set({ is_master: false }).where('is_master', '=', true).execute();
        await tx
          .updateTable('storage_config')
          .set({ is_master: true, updated_at: ctx.now, updated_by: ctx.actorId, version: row.version + 1 })
          .where('id', '=', id)
          .execute();
        return (await repository.find(tx, id)) as StorageConfig;
      });
    },
  };
}

export type StorageConfigService = ReturnType<typeof createStorageConfigService>;
