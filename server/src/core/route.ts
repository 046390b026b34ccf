import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { PermissionCode } from '../db/seed/permissions';
import type { AppEnv } from './context';
import { AppError, forbidden } from './errors';

export type { PermissionCode };

/**
 * `public`: anyone; `authenticated`: any valid token; a permission code the user must hold; or a list of codes of
 * which the user must hold one (option lists that serve several screens).
 */
export type Permission = 'public' | 'authenticated' | PermissionCode | readonly PermissionCode[];

const holds = (granted: ReadonlySet<string>, permission: PermissionCode | readonly PermissionCode[]) =>
  typeof permission === 'string' ? granted.has(permission) : permission.some((p) => granted.has(p));

/**
 * `beforePasswordChange`: the route serves a user who still holds an initial password (who they are, the change
 * itself, sign-out); every other route answers 403 `auth.passwordChangeRequired` to them.
 */
export function requirePermission(permission: Permission, beforePasswordChange = false): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (permission !== 'public') {
      const principal = await c.var.services.auth.authenticate(c.req.header('authorization'));
      if (principal.mustChangePassword && !beforePasswordChange) throw new AppError('auth.passwordChangeRequired');
      if (permission !== 'authenticated' && !holds(principal.permissions, permission)) throw forbidden();
      c.set('principal', principal);
    }
    await next();
  };
}

/**
 * A route contract that carries its permission: the server enforces it before validation and the
 * OpenAPI document shows it (`x-permission`, bearer security, a line in the description).
 */
export function defineRoute<R extends RouteConfig>(
  config: R & { permission: Permission; beforePasswordChange?: true },
): R {
  const { permission, beforePasswordChange, ...route } = config;
  const note =
    permission === 'public'
      ? 'Permission: public'
      : typeof permission === 'string'
        ? `Permission: \`${permission}\``
        : `Permission: one of ${permission.map((p) => `\`${p}\``).join(', ')}`;
  return createRoute({
    ...(route as unknown as R),
    middleware: [requirePermission(permission, beforePasswordChange), ...[route.middleware ?? []].flat()],
    description: route.description ? `${route.description}\n\n${note}` : note,
    security: permission === 'public' ? [] : [{ bearerAuth: [] }],
    'x-permission': permission,
  }) as R;
}
