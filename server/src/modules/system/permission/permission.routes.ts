import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { errorResponses } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { defineRoute } from '../../../core/route';
import { permissionResource } from './permission.resource';
import { MenuTree, PermissionTree } from './permission.schema';
import { createPermissionService, type PermissionService } from './permission.service';

const json = <S>(schema: S) => ({ 'application/json': { schema } });

const tree = defineRoute({
  method: 'get',
  path: '/system/permission/tree',
  tags: ['permissions'],
  summary: 'Every permission (directories, menus, buttons) as a tree ordered by sort',
  permission: 'system:permission:list',
  responses: { 200: { description: 'The tree', content: json(PermissionTree) }, ...errorResponses(401, 403) },
});

const menus = defineRoute({
  method: 'get',
  path: '/auth/menus',
  tags: ['auth'],
  summary:
    'The console menu of the signed-in user: enabled directories and menus they hold (within the tenant’s package)',
  permission: 'authenticated',
  responses: { 200: { description: 'The menu tree', content: json(MenuTree) }, ...errorResponses(401) },
});

const actions = (service: PermissionService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(tree, async (c) => c.json(await service.tree(c.var.principal), 200))
    .openapi(menus, async (c) => c.json(await service.menus(c.var.principal), 200));

export const permissions = resourceModule(permissionResource, { service: createPermissionService, routes: actions });
