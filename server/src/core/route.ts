import { type RouteConfig, createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { forbidden } from './errors';

/** `public`: anyone; `authenticated`: any valid token; otherwise a permission code the user must hold. */
export type Permission = 'public' | 'authenticated' | `${string}:${string}:${string}`;

export function requirePermission(permission: Permission): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (permission !== 'public') {
      const principal = await c.var.services.auth.authenticate(c.req.header('authorization'));
      if (permission !== 'authenticated' && !principal.permissions.has(permission)) throw forbidden();
      c.set('principal', principal);
    }
    await next();
  };
}

/**
 * A route contract that carries its permission: the server enforces it before validation and the
 * OpenAPI document shows it (`x-permission`, bearer security, a line in the description).
 */
export function defineRoute<R extends RouteConfig>(config: R & { permission: Permission }): R {
  const { permission, ...route } = config;
  const note = permission === 'public' ? 'Permission: public' : `Permission: \`${permission}\``;
  return createRoute({
    ...(route as unknown as R),
    middleware: [requirePermission(permission), ...[route.middleware ?? []].flat()],
    description: route.description ? `${route.description}\n\n${note}` : note,
    security: permission === 'public' ? [] : [{ bearerAuth: [] }],
    'x-permission': permission,
  }) as R;
}
