import { AppError, invalidField, notFound } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { ResourceStore } from '../../../core/resource/resource';
import { resourceModule } from '../../../core/resource/resource.module';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { operatorTenancy, type Tx } from '../../../core/tenancy';
import { permissionsByIds } from '../permission/permission.repository';
import { syncTenantRoles } from '../role/role.repository';
import * as repo from './tenant-package.repository';
import { tenantPackageResource } from './tenant-package.resource';
import type { CreateTenantPackage, TenantPackage, UpdateTenantPackage } from './tenant-package.schema';

const texts = {
  'zh-CN': { unknownPermission: '包含不存在的权限' },
  'en-US': { unknownPermission: 'contains a permission that does not exist' },
};

/** Existing permissions, none platform-only (400 naming those). */
export async function checkPackagePermissions(tx: Tx, ids: string[], lang: Lang): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = await permissionsByIds(tx, unique);
  if (found.length !== unique.length) {
    throw invalidField('permissionIds', texts[lang].unknownPermission);
  }
  const platformOnly = found.filter((p) => p.platformOnly).map((p) => p.code ?? p.name);
  if (platformOnly.length > 0) {
    const codes = platformOnly.join(', ');
    throw new AppError('permission.platformOnly', { codes }, [{ field: 'permissionIds', message: codes }]);
  }
  return unique;
}

/** Packages are global and platform-only; changing one's permissions re-syncs the roles of every tenant on it. */
export function createTenantPackageService(deps: ResourceDeps) {
  const reload = async (tx: Tx, id: string): Promise<TenantPackage> => {
    const row = await repo.findTenantPackage(tx, id);
    if (!row) throw notFound();
    return row;
  };

  const store: ResourceStore<TenantPackage, CreateTenantPackage, UpdateTenantPackage> = {
    list: repo.listTenantPackages,
    find: repo.findTenantPackage,
    findByKey: repo.findTenantPackageByName,
    async create(tx, { permissionIds, ...values }, ctx) {
      const ids = await checkPackagePermissions(tx, permissionIds, ctx.lang);
      const id = await repo.insertTenantPackage(tx, values, ctx);
      await repo.replacePackagePermissions(tx, id, ids);
      return reload(tx, id);
    },
    async update(tx, current, { version, permissionIds, ...values }, ctx) {
      const ids = permissionIds && (await checkPackagePermissions(tx, permissionIds, ctx.lang));
      if (!(await repo.updateTenantPackage(tx, current.id, values, ctx, version))) return undefined;
      if (ids) {
        await repo.replacePackagePermissions(tx, current.id, ids);
        for (const tenantId of await repo.tenantsOnPackage(tx, current.id))
          await syncTenantRoles(tx, tenantId, current.id);
      }
      return reload(tx, current.id);
    },
    async remove(tx, rows, ctx) {
      if (rows.some((r) => r.tenantCount > 0)) throw new AppError('tenant.packageInUse');
      await repo.softDeleteTenantPackages(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };

  return {
    resource: createResourceService(tenantPackageResource, store, { ...deps, tenancy: operatorTenancy(deps.tenancy) }),
  };
}

export type TenantPackageService = ReturnType<typeof createTenantPackageService>;

export const tenantPackages = resourceModule(tenantPackageResource, { service: createTenantPackageService });
