import { AppError } from './errors';
import { bulkCreate, type ResourceRow, type ResourceStore, sameAsCreate, type WriteContext } from './resource/resource';
import { PLATFORM_TENANT, type Tx } from './tenancy';

/**
 * Platform rows (global tables, the platform tenant's rows of hybrid ones) are written only from inside the platform
 * tenant; row-level security enforces it too (migration 0005), this answers with a clear 403 first.
 * It reads through the caller's transaction (tenant is a global table): a second connection could wait on the first.
 */
export function createPlatformScope() {
  let platformId: string | undefined;
  const id = async (tx: Tx) => {
    platformId ??= (await tx.selectFrom('tenant').select('id').where('code', '=', PLATFORM_TENANT).executeTakeFirst())
      ?.id;
    return platformId;
  };
  return {
    async isPlatform(tx: Tx, tenantId: string): Promise<boolean> {
      return tenantId === (await id(tx));
    },
    async assertPlatform(tx: Tx, tenantId: string): Promise<void> {
      if (tenantId !== (await id(tx))) throw new AppError('config.platformOnly');
    },
  };
}

export type PlatformScope = ReturnType<typeof createPlatformScope>;

/** A store whose writes only the platform tenant may make (global rows of an entity whose codes tenants also hold). */
export function platformWrites<Row extends ResourceRow, Create, Update extends { version: number }>(
  store: ResourceStore<Row, Create, Update>,
  scope: PlatformScope,
): ResourceStore<Row, Create, Update> {
  const create: ResourceStore<Row, Create, Update>['create'] = async (tx, input, ctx) => {
    await scope.assertPlatform(tx, ctx.tenantId);
    return store.create(tx, input, ctx);
  };
  const many = bulkCreate(store);
  return {
    ...store,
    create,
    createMany:
      many &&
      sameAsCreate(async (tx: Tx, inputs: Create[], ctx: WriteContext) => {
        await scope.assertPlatform(tx, ctx.tenantId);
        return many(tx, inputs, ctx);
      }, create),
    update: async (tx, current, input, ctx) => {
      await scope.assertPlatform(tx, ctx.tenantId);
      return store.update(tx, current, input, ctx);
    },
    remove: async (tx, rows, ctx) => {
      await scope.assertPlatform(tx, ctx.tenantId);
      return store.remove(tx, rows, ctx);
    },
  };
}
