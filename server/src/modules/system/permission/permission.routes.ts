import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { defineRoute } from '../../../core/route';
import { permissionResource } from './permission.resource';
import { MenuTree, PermissionTree } from './permission.schema';
import { createPermissionService, type PermissionService } from './permission.service';

const tree = defineRoute({
  method: 'get',
  path: '/system/permission/tree',
  tags: ['permissions'],
  summary: 'Every permission (directories, menus, buttons) as a tree ordered by sort',
  permission: 'system:permission:list',
  responses: answers('The tree', PermissionTree, 401, 403),
});

const menus = defineRoute({
  method: 'get',
  path: '/auth/menus',
  tags: ['auth'],
  summary:
    'The console menu of the signed-in user: enabled directories and menus they hold (within the tenant’s package)',
  permission: 'authenticated',
  responses: answers('The menu tree', MenuTree, 401),
});

const actions = (service: PermissionService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(tree, async (c) => c.json(await service.tree(c.var.principal), 200))
    .openapi(menus, async (c) => c.json(await service.menus(c.var.principal), 200));

export const permissions = resourceModule(permissionResource, { service: createPermissionService, routes: actions });
