import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { PermissionCode } from '../db/seed/permissions';
import type { AppEnv } from './context';
import { AppError, forbidden } from './errors';
import { idempotent } from './idempotency';
import { answers, type ErrorStatus, idempotencyKeyParameter, json, withIdempotencyAnswers } from './openapi';
import { FORM_TYPES, referencesOf, refuseForeignReferences } from './references';
import { IdParam } from './resource/id-param';

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
 * OpenAPI document shows it (`x-permission`, bearer security, a line in the description). A body (JSON, or a form's
 * fields) that declares references (core/references.ts) has each checked within the caller's tenant, after the
 * permission. A signed-in
 * user's POST honours an `Idempotency-Key` (core/idempotency.ts): a repeated submit answers the first result.
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
  const contents = route.request?.body?.content;
  const content = contents?.['application/json'] ?? FORM_TYPES.map((type) => contents?.[type]).find(Boolean);
  const body = content && 'schema' in content ? content.schema : undefined;
  const references = body instanceof z.ZodType ? referencesOf(body) : [];
  // a multipart body (an import's spreadsheet) is not read by the key's check: such a POST does not honour one
  const types = Object.keys(route.request?.body?.content ?? {});
  const honoursKey =
    route.method === 'post' &&
    permission !== 'public' &&
    !(types.length > 0 && types.every((t) => t.startsWith('multipart/')));
  return createRoute({
    ...(route as unknown as R),
    middleware: [
      requirePermission(permission, beforePasswordChange),
      ...(body instanceof z.ZodType && references.length > 0 ? [refuseForeignReferences(body, references)] : []),
      ...(honoursKey ? [idempotent()] : []),
      ...[route.middleware ?? []].flat(),
    ],
    ...(honoursKey && {
      parameters: [...(route.parameters ?? []), idempotencyKeyParameter],
      responses: withIdempotencyAnswers(route.responses),
    }),
    description: route.description ? `${route.description}\n\n${note}` : note,
    security: permission === 'public' ? [] : [{ bearerAuth: [] }],
    'x-permission': permission,
  }) as R;
}

/**
 * An action on one record of a resource: `POST /<path>/{id}/<verb>` (or `PUT`) with a JSON body, answering `answer` or
 * an error: `errors`, by default 400 (bad body), 401, 403, 404 (not in the tenant) and 409 (stale). The entities'
 * actions (move, merge, clone, archive, assign…) are a few lines each.
 */
export function recordAction<Body extends z.ZodType, Answer extends z.ZodType>(spec: {
  method?: 'post' | 'put';
  path: string;
  verb: string;
  summary: string;
  permission: PermissionCode;
  body: Body;
  answer: [description: string, schema: Answer];
  errors?: ErrorStatus[];
}) {
  return defineRoute({
    method: spec.method ?? 'post',
    path: `/${spec.path}/{id}/${spec.verb}`,
    tags: [spec.path],
    summary: spec.summary,
    permission: spec.permission,
    request: { params: IdParam, body: { required: true, content: json(spec.body) } },
    responses: answers(spec.answer[0], spec.answer[1], ...(spec.errors ?? [400, 401, 403, 404, 409])),
  });
}
