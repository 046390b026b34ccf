import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../core/context';
import { AppError } from '../../core/errors';
import { answers, errorResponses, json } from '../../core/openapi';
import { rateLimitByIp } from '../../core/rate-limit';
import { clientIp, userAgent } from '../../core/request-info';
import { defineRoute } from '../../core/route';
import { validationError } from '../../core/validation';
import { ChangePassword, Me, TokenRequest, TokenResponse, UpdateMe } from './auth.schema';

const token = defineRoute({
  method: 'post',
  path: '/auth/token',
  tags: ['auth'],
  summary: 'Sign in (password grant) or renew a session (refresh_token grant); rate-limited per IP',
  description:
    'The client authenticates with `client_id` (+ `client_secret` for a confidential client) in the body or with HTTP Basic. ' +
    'Its grant types, allowed tenants and token lifetimes apply.',
  permission: 'public',
  middleware: [rateLimitByIp((c) => c.var.services.tokenRateLimiter)],
  request: {
    body: {
      content: {
        'application/json': { schema: TokenRequest },
        'application/x-www-form-urlencoded': { schema: TokenRequest },
      },
    },
  },
  responses: answers('Tokens', TokenResponse, 400, 403, 423, 429),
});

const logout = defineRoute({
  method: 'post',
  path: '/auth/logout',
  tags: ['auth'],
  summary: 'Sign out: revokes the session of the token (its access and refresh tokens)',
  permission: 'authenticated',
  beforePasswordChange: true,
  responses: { 204: { description: 'Signed out' }, ...errorResponses(401) },
});

const getMe = defineRoute({
  method: 'get',
  path: '/auth/me',
  tags: ['auth'],
  summary: 'The signed-in user: profile, permission codes, roles, tenant',
  permission: 'authenticated',
  beforePasswordChange: true,
  responses: answers('The user', Me, 401),
});

const updateMe = defineRoute({
  method: 'put',
  path: '/auth/me',
  tags: ['auth'],
  summary: 'Update one’s own profile (optimistic locking on version)',
  permission: 'authenticated',
  request: { body: { required: true, content: json(UpdateMe) } },
  responses: answers('The updated user', Me, 400, 401, 409),
});

const changePassword = defineRoute({
  method: 'post',
  path: '/auth/password',
  tags: ['auth'],
  summary: 'Change one’s own password; other sessions of the user are signed out',
  permission: 'authenticated',
  beforePasswordChange: true,
  request: { body: { required: true, content: json(ChangePassword) } },
  responses: { 204: { description: 'Changed' }, ...errorResponses(400, 401) },
});

/** JSON or form, validated here again: an absent content type skips the route validators. */
async function tokenRequest(c: Context<AppEnv>) {
  const type = c.req.header('content-type') ?? '';
  const raw: unknown = type.includes('json')
    ? (c.req.valid as (t: 'json') => unknown)('json')
    : type.includes('form')
      ? (c.req.valid as (t: 'form') => unknown)('form')
      : {};
  const parsed = TokenRequest.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error.issues, c.var.lang, raw);
  const client = clientCredentials(c.req.header('authorization'), parsed.data);
  return { ...parsed.data, ...client };
}

/** RFC 6749 §2.3.1 form-encodes the Basic credentials; a malformed escape is a bad credential, not a crash. */
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The client from HTTP Basic (RFC 6749 §2.3.1) or the body; both must agree when both are sent. */
function clientCredentials(authorization: string | undefined, body: { client_id?: string; client_secret?: string }) {
  const basic = authorization?.match(/^basic\s+([A-Za-z0-9+/=]+)\s*$/i)?.[1];
  if (!basic) {
    if (!body.client_id) throw new AppError('auth.invalidClient');
    return { client_id: body.client_id, client_secret: body.client_secret };
  }
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new AppError('auth.invalidClient');
  const [id, secret] = [decoded.slice(0, colon), decoded.slice(colon + 1)].map(formDecode);
  if (id === undefined || secret === undefined) throw new AppError('auth.invalidClient');
  if ((body.client_id && body.client_id !== id) || body.client_secret !== undefined)
    throw new AppError('auth.invalidClient');
  return { client_id: id, client_secret: secret };
}

export function authRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(token, async (c) => {
      const body = await tokenRequest(c);
      const auth = c.var.services.auth;
      const tokens =
        body.grant_type === 'password'
          ? await auth.passwordGrant(body, { ip: clientIp(c), userAgent: userAgent(c) })
          : await auth.refreshGrant(body);
      c.header('Cache-Control', 'no-store');
      return c.json(tokens, 200);
    })
    .openapi(logout, async (c) => {
      await c.var.services.auth.logout(c.var.principal, { ip: clientIp(c), userAgent: userAgent(c) });
      return c.body(null, 204);
    })
    .openapi(getMe, async (c) => c.json(await c.var.services.auth.me(c.var.principal), 200))
    .openapi(updateMe, async (c) =>
      c.json(await c.var.services.auth.updateMe(c.var.principal, c.req.valid('json')), 200),
    )
    .openapi(changePassword, async (c) => {
      await c.var.services.auth.changePassword(c.var.principal, c.req.valid('json'));
      return c.body(null, 204);
    });
}
