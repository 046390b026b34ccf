import { AppError, invalidField, notFound } from '../../../core/errors';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { allLive } from '../../../core/resource/table.repository';
import type { Tx } from '../../../core/tenancy';
import { toTree } from '../permission/permission.repository';
import type { PermissionNode } from '../permission/permission.schema';
import * as repo from './role.repository';
import { roleResource } from './role.resource';
import type { CreateRole, Role, UpdateRole } from './role.schema';

const texts = {
  'zh-CN': { unknownPermission: '包含不存在的权限', unknownUser: '包含不存在或不属于本租户的账号' },
  'en-US': {
    unknownPermission: 'contains a permission that does not exist',
    unknownUser: 'contains an account that does not exist in this tenant',
  },
};

const systemRole = () => new AppError('role.systemRole');

export function createRoleService(deps: ResourceDeps) {
  const { tenancy } = deps;

  const store: ResourceStore<Role, CreateRole, UpdateRole> = {
    list: repo.listRoles,
    find: repo.findRole,
    findByKey: repo.findRoleByCode,
    findAllByKey: repo.findRolesByCodes,
    create: (tx, input, ctx) => repo.insertRole(tx, { ...input, type: 'custom' }, ctx),
    createMany: (tx, inputs, ctx) => repo.insertCustomRoles(tx, inputs, ctx),
    async update(tx, current, { version, ...values }, ctx) {
      if (current.type === 'system') {
        if (values.code !== undefined && values.code !== current.code) throw systemRole();
        if (values.status === 'disabled') throw systemRole();
      }
      return repo.updateRole(tx, current.id, values, ctx, version);
    },
    async remove(tx, rows, ctx) {
      if (rows.some((r) => r.type === 'system')) throw systemRole();
      await repo.softDeleteRoles(
        tx,
        rows.map((r) => r.id),
        ctx,
      );
    },
  };

  const resource = createResourceService(roleResource, store, deps);

  const rolePermissions = async (tx: Tx, tenantId: string, roleId: string) => {
    const assignable = await repo.assignablePermissions(tx, tenantId);
    return { permissionIds: await repo.rolePermissionIds(tx, roleId), tree: toTree(assignable) as PermissionNode[] };
  };

  const findOrFail = async (tx: Tx, id: string) => {
    const role = await repo.findRole(tx, id);
    if (!role) throw notFound();
    return role;
  };

  return {
    resource,

    options: (tenantId: string) => tenancy.inTenant(tenantId, repo.roleOptions),

    permissions: (tenantId: string, id: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        await findOrFail(tx, id);
        return rolePermissions(tx, tenantId, id);
      }),

    /** Only permissions of the tenant's package (400 naming the others); a system role's set follows its package. */
    async assignPermissions(ctx: WriteContext, id: string, permissionIds: string[]) {
      const ids = [...new Set(permissionIds)];
      await resource.act(
        ctx,
        id,
        'assign-permission',
        async (tx, role) => {
          if (role.type === 'system') throw systemRole();
          const assignable = new Map((await repo.assignablePermissions(tx, ctx.tenantId)).map((p) => [p.id, p]));
          const outside = ids.filter((p) => !assignable.has(p));
          if (outside.length > 0) {
            const known = await tx
              .selectFrom('permission')
              .select(['id', 'code', 'name'])
              .where('id', 'in', outside)
              .execute();
            if (known.length !== outside.length) {
              throw new AppError('common.validation', {}, [
                { field: 'permissionIds', message: texts[ctx.lang].unknownPermission },
              ]);
            }
            const codes = known.map((p) => p.code ?? p.name).join(', ');
            throw new AppError('role.permissionNotInPackage', { codes }, [{ field: 'permissionIds', message: codes }]);
          }
          await repo.replaceRolePermissions(tx, ctx.tenantId, id, ids);
          return (await repo.updateRole(tx, id, {}, ctx)) as Role;
        },
        `${ids.length} permissions`,
      );
      return this.permissions(ctx.tenantId, id);
    },

    assignDataScope: (
      ctx: WriteContext,
      id: string,
      input: { dataScope: Role['dataScope']; dataScopeOrgIds: string[] },
    ) =>
      resource.act(ctx, id, 'assign-data-scope', async (tx) => {
        const dataScopeOrgIds = input.dataScope === 'org_custom' ? [...new Set(input.dataScopeOrgIds)] : [];
        return (await repo.updateRole(tx, id, { dataScope: input.dataScope, dataScopeOrgIds }, ctx)) as Role;
      }),

    members: (tenantId: string, id: string) =>
      tenancy.inTenant(tenantId, async (tx) => {
        await findOrFail(tx, id);
        return repo.members(tx, id);
      }),

    async addMembers(ctx: WriteContext, id: string, userIds: string[]) {
      const ids = [...new Set(userIds)];
      await resource.act(
        ctx,
        id,
        'assign-user',
        async (tx, role) => {
          if (!(await allLive(tx, 'admin_user', ids))) {
            throw invalidField('userIds', texts[ctx.lang].unknownUser);
          }
          await repo.addMembers(tx, ctx.tenantId, id, ids);
          return role;
        },
        `+ ${ids.join(', ')}`,
      );
      return this.members(ctx.tenantId, id);
    },

    async removeMember(ctx: WriteContext, id: string, userId: string): Promise<void> {
      await resource.act(
        ctx,
        id,
        'assign-user',
        async (tx, role) => {
          await repo.removeMember(tx, id, userId);
          return role;
        },
        `- ${userId}`,
      );
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
