import type { Principal } from '../../../core/context';
import { AppError, invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { operatorTenancy, type Tx } from '../../../core/tenancy';
import * as repo from './permission.repository';
import { permissionResource } from './permission.resource';
import type { CreatePermission, MenuNode, Permission, PermissionNode, UpdatePermission } from './permission.schema';

const texts = {
  'zh-CN': { unknownParent: '上级权限不存在' },
  'en-US': { unknownParent: 'does not exist' },
};

/** The permission tree is global and platform-only: every read and write runs as a platform operator. */
export function createPermissionService(deps: ResourceDeps) {
  const { tenancy } = deps;

  const checkParent = async (tx: Tx, id: string | null, parentId: string | null, lang: Lang) => {
    if (!parentId) return;
    const chain = await repo.ancestorIds(tx, parentId);
    if (chain.length === 0) throw invalidField('parentId', texts[lang].unknownParent);
    if (id && chain.includes(id)) throw new AppError('permission.cycle', {}, [{ field: 'parentId', message: '' }]);
  };

  const store: ResourceStore<Permission, CreatePermission, UpdatePermission> = {
    list: repo.listPermissions,
    find: repo.findPermission,
    findByKey: repo.findPermissionByKey,
    async create(tx, input, ctx) {
      await checkParent(tx, null, input.parentId, ctx.lang);
      return repo.insertPermission(tx, input, ctx);
    },
    async update(tx, current, { version, ...values }, ctx) {
      await checkParent(tx, current.id, values.parentId, ctx.lang);
      const after = await repo.updatePermission(tx, current.id, values, ctx, version);
      if (after?.platformOnly && !current.platformOnly) await repo.withdrawFromTenants(tx, current.id, ctx.tenantId);
      return after;
    },
    async remove(tx, rows, ctx) {
      const ids = rows.map((r) => r.id);
      if (await repo.hasChildren(tx, ids)) throw new AppError('permission.hasChildren');
      if (await repo.isReferenced(tx, ids)) throw new AppError('permission.inUse');
      await repo.deletePermissions(tx, ids, ctx);
    },
    async fromImport(tx, record, existing, ctx, earlierKeys) {
      const { parentKey, platformOnly, ...fields } = record as Record<string, unknown> & {
        parentKey?: string;
        platformOnly?: string;
      };
      const parent = parentKey ? await repo.findPermissionByKey(tx, parentKey) : undefined;
      // a parent made by an earlier row of the same file exists by the time this row is written
      if (parentKey && !parent && !earlierKeys?.has(parentKey))
        throw invalidField('parentKey', texts[ctx.lang].unknownParent);
      const values = {
        code: null,
        nameEn: null,
        path: null,
        icon: null,
        ...fields,
        parentId: parent?.id ?? null,
        platformOnly: platformOnly === undefined ? (existing?.platformOnly ?? false) : platformOnly === 'true',
        hiddenInMenu: existing?.hiddenInMenu ?? false,
        keepAlive: existing?.keepAlive ?? false,
        status: existing?.status ?? 'enabled',
      } as CreatePermission;
      return existing ? { ...values, component: existing.component, version: existing.version } : values;
    },
  };

  const resource = createResourceService(permissionResource, store, { ...deps, tenancy: operatorTenancy(tenancy) });

  return {
    resource,

    tree: (principal: Principal): Promise<PermissionNode[]> =>
      tenancy.asPlatformOperator(principal.tenantId, repo.permissionTree),

    /** The menu the console shows: what the user holds (already within the tenant's package), enabled, as a tree. */
    menus: (principal: Principal): Promise<MenuNode[]> =>
      tenancy.inTenant(principal.tenantId, (tx) => repo.menuTree(tx, principal.permissions)),
  };
}

export type PermissionService = ReturnType<typeof createPermissionService>;
