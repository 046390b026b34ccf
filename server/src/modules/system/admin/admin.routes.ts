import { OpenAPIHono, type z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { recordAction } from '../../../core/route';
import { adminUserResource } from './admin.resource';
import { AdminUser, AssignRoles, ForcedLogout, TemporaryPassword } from './admin.schema';
import { type AdminUserService, createAdminUserService } from './admin.service';

const tags = ['system/admin'];

const action = recordActions(adminUserResource.path, tags, { description: 'The account after it', schema: AdminUser });

const enable = action('enable', 'system:admin:update-status', 'Enable the account');
const disable = action(
  'disable',
  'system:admin:update-status',
  'Disable the account (not one’s own): it cannot sign in or refresh, its sessions end',
);
const unlock = action('unlock', 'system:admin:update-status', 'Lift a lock-out and reset the failed-attempt count');

const sessionAction = <S extends z.ZodType>(description: string, schema: S) =>
  recordActions(adminUserResource.path, tags, { description, schema, errors: [400, 401, 403, 404] });

const resetPassword = sessionAction('The temporary password', TemporaryPassword)(
  'reset-password',
  'system:admin:reset-password',
  'Set a random temporary password, shown once; the user must change it; their sessions end',
);
const forceLogout = sessionAction('How many sessions ended', ForcedLogout)(
  'force-logout',
  'system:admin:force-logout',
  'Revoke every session of the user: their tokens stop working at once',
);

const assignRoles = recordAction({
  method: 'put',
  path: adminUserResource.path,
  verb: 'roles',
  summary: 'Replace the roles of the account (roles of the same tenant only)',
  permission: 'system:admin:assign-role',
  body: AssignRoles,
  answer: ['The account', AdminUser],
  errors: [400, 401, 403, 404],
});

const actions = (service: AdminUserService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(enable, async (c) => c.json(await service.enable(writeContext(c), c.req.valid('param').id), 200))
    .openapi(disable, async (c) => c.json(await service.disable(writeContext(c), c.req.valid('param').id), 200))
    .openapi(unlock, async (c) => c.json(await service.unlock(writeContext(c), c.req.valid('param').id), 200))
    .openapi(resetPassword, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await service.resetPassword(writeContext(c), c.req.valid('param').id), 200);
    })
    .openapi(forceLogout, async (c) => c.json(await service.forceLogout(writeContext(c), c.req.valid('param').id), 200))
    .openapi(assignRoles, async (c) =>
      c.json(await service.assignRoles(writeContext(c), c.req.valid('param').id, c.req.valid('json').roleIds), 200),
    );

export const adminUsers = resourceModule(adminUserResource, { service: createAdminUserService, routes: actions });
