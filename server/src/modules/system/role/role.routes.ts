import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, errorResponses } from '../../../core/openapi';
import { Id, IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { roleResource } from './role.resource';
import {
  AddMembers,
  AssignDataScope,
  AssignPermissions,
  Role,
  RoleMember,
  RoleOption,
  RolePermissions,
} from './role.schema';
import { createRoleService, type RoleService } from './role.service';

const tags = [roleResource.path];
const Members = z.array(RoleMember).openapi('RoleMembers');

const options = defineRoute({
  method: 'get',
  path: '/system/role/options',
  tags,
  summary: 'Enabled roles of the tenant for selects',
  permission: ['system:role:list', 'system:admin:list'],
  responses: answers('Options', z.array(RoleOption), 401, 403),
});

const getPermissions = defineRoute({
  method: 'get',
  path: '/system/role/{id}/permissions',
  tags,
  summary: 'The permissions of the role, and the tree it may be given (the tenant’s package)',
  permission: 'system:role:list',
  request: { params: IdParam },
  responses: answers('Permissions', RolePermissions, 400, 401, 403, 404),
});

const putPermissions = recordAction({
  method: 'put',
  path: roleResource.path,
  verb: 'permissions',
  summary: 'Replace the permissions of the role (within the tenant’s package; not on a system role)',
  permission: 'system:role:assign-permission',
  body: AssignPermissions,
  answer: ['Permissions', RolePermissions],
});

const putDataScope = recordAction({
  method: 'put',
  path: roleResource.path,
  verb: 'data-scope',
  summary: 'Set the data scope of the role (organisations required for org_custom)',
  permission: 'system:role:assign-data-scope',
  body: AssignDataScope,
  answer: ['The role', Role],
  errors: [400, 401, 403, 404],
});

const getMembers = defineRoute({
  method: 'get',
  path: '/system/role/{id}/members',
  tags,
  summary: 'The accounts holding the role',
  permission: 'system:role:list',
  request: { params: IdParam },
  responses: answers('Members', Members, 400, 401, 403, 404),
});

const postMembers = recordAction({
  path: roleResource.path,
  verb: 'members',
  summary: 'Give the role to accounts of the same tenant',
  permission: 'system:role:assign-user',
  body: AddMembers,
  answer: ['Members', Members],
  errors: [400, 401, 403, 404],
});

const deleteMember = defineRoute({
  method: 'delete',
  path: '/system/role/{id}/members/{userId}',
  tags,
  summary: 'Take the role from an account',
  permission: 'system:role:assign-user',
  request: { params: IdParam.extend({ userId: Id.openapi({ param: { name: 'userId', in: 'path' } }) }) },
  responses: { 204: { description: 'Removed' }, ...errorResponses(400, 401, 403, 404) },
});

const actions = (service: RoleService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(options, async (c) => c.json(await service.options(c.var.principal.tenantId), 200))
    .openapi(getPermissions, async (c) =>
      c.json(await service.permissions(c.var.principal.tenantId, c.req.valid('param').id), 200),
    )
    .openapi(putPermissions, async (c) =>
      c.json(
        await service.assignPermissions(writeContext(c), c.req.valid('param').id, c.req.valid('json').permissionIds),
        200,
      ),
    )
    .openapi(putDataScope, async (c) =>
      c.json(await service.assignDataScope(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(getMembers, async (c) =>
      c.json(await service.members(c.var.principal.tenantId, c.req.valid('param').id), 200),
    )
    .openapi(postMembers, async (c) =>
      c.json(await service.addMembers(writeContext(c), c.req.valid('param').id, c.req.valid('json').userIds), 200),
    )
    .openapi(deleteMember, async (c) => {
      const { id, userId } = c.req.valid('param');
      await service.removeMember(writeContext(c), id, userId);
      return c.body(null, 204);
    });

export const roles = resourceModule(roleResource, { service: createRoleService, routes: actions });
