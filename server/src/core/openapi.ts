import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Hook } from '@hono/zod-openapi';
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';
import type { AppEnv } from './context';
import { AppError } from './errors';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY } from './idempotency';
import { refusedValueFields, validationError } from './validation';

export const ErrorBody = z
  .object({
    family: z.enum(['CLIENT_ERROR', 'SERVER_ERROR']),
    code: z.string().openapi({ example: 'common.validation' }),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error');

const statusText: Record<ErrorStatus, string> = {
  400: 'Invalid request (`common.validation` with `fields`, or a business rule)',
  401: 'No, invalid, expired or revoked token (`common.unauthorized`)',
  403: 'The token lacks the permission (`common.forbidden`), or the tenant/user is disabled',
  404: 'Not found, or not in your tenant (`common.notFound`)',
  409: 'Stale `version` (`common.versionConflict`), a duplicate (`common.duplicate`) or a state rule of the resource',
  410: 'The link has expired (`file.linkExpired`): ask for a new one',
  413: 'The upload is larger than allowed (`common.payloadTooLarge`, `file.tooLarge` or an import limit)',
  415: 'The content is not of an accepted type (`common.unsupportedMediaType`, `file.typeNotAllowed`)',
  422: 'Import refused (`common.importFailed`): nothing written; the body carries the report (`dryRun`, `created`, `updated`, `failed`)',
  423: 'Account locked after repeated failures (`auth.accountLocked`)',
  429: 'Rate limited (`auth.tooManyRequests`)',
  502: 'The file store (S3) failed or could not be reached (`file.storeFailed`)',
};

/** An error status an operation may answer. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 423 | 429 | 502;

export function errorResponses(...statuses: ErrorStatus[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: statusText[s], content: { 'application/json': { schema: ErrorBody } } }]),
  );
}

/** The header a signed-in user's POST may carry so that a repeated submit answers the first result (idempotency.ts). */
export const idempotencyKeyParameter = {
  name: IDEMPOTENCY_HEADER,
  in: 'header' as const,
  required: false,
  description:
    'Sent again with the same request, answers the first success (with `Idempotent-Replayed: true`) instead of ' +
    'doing it again, for a day; per user. A UUID per submit serves.',
  schema: { type: 'string' as const, minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
};

const idempotencyAnswers: Partial<Record<ErrorStatus, string>> = {
  400: 'The `Idempotency-Key` is not 1 to 255 printable ASCII characters (`common.idempotencyKeyInvalid`)',
  409: 'A request with the same `Idempotency-Key` is still running (`common.idempotencyInProgress`): retry once it ended',
  422: 'The `Idempotency-Key` was sent before with another operation or body (`common.idempotencyKeyReused`)',
};

/**
 * An operation's answers with those of its `Idempotency-Key` added: a status it already declares says both in its
 * description.
 */
export function withIdempotencyAnswers<R extends Record<string, unknown>>(responses: R): R {
  const added: Record<string, unknown> = { ...responses };
  for (const [status, text] of Object.entries(idempotencyAnswers)) {
    const declared = added[status] as { description: string } | undefined;
    added[status] = declared
      ? { ...declared, description: `${declared.description}; or: ${text}` }
      : { description: text, content: { 'application/json': { schema: ErrorBody } } };
  }
  return added as R;
}

/** A JSON body of `schema`, as a request or an answer carries it. */
export const json = <S>(schema: S) => ({ 'application/json': { schema } });

/** The answers of an operation: 200 with a JSON body of `schema` (what `description` says), or one of `errors`. */
export function answers<S>(description: string, schema: S, ...errors: ErrorStatus[]) {
  return { 200: { description, content: json(schema) }, ...errorResponses(...errors) };
}

/**
 * Validation failures of every route become one 400 `common.validation` naming the fields, and so does any text the
 * database would refuse, in every body, query and path of every route, valid by its schema or not.
 */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  // On failure @hono/zod-validator passes the raw input as `data` too, though its type does not say so.
  const input = (result as { data?: unknown }).data;
  const refused = refusedValueFields(input, c.var.lang);
  if (result.success && refused.length === 0) return;
  const error = result.success ? undefined : validationError(result.error.issues, c.var.lang, input);
  const named = new Set(refused.map((f) => f.field));
  throw new AppError('common.validation', {}, [
    ...refused,
    ...(error?.fields ?? []).filter((f) => !named.has(f.field)),
  ]);
};

export function mountApiDocs(app: OpenAPIHono<AppEnv>, version: string) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer' });
  app.doc('/api/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'MedEdu Admin API',
      version,
      description:
        'Every operation states its permission in `x-permission`: `public`, `authenticated` or a permission code.',
    },
  });

  const assetsDir = getAbsoluteFSPath();
  const assets: Record<string, string> = {
    'swagger-ui.css': 'text/css; charset=utf-8',
    'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
    'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
    'favicon-32x32.png': 'image/png',
  };
  const cache = new Map<string, Buffer>();
  app.get('/api/docs', (c) => c.html(docsPage));
  app.get('/api/docs/init.js', (c) =>
    c.body(initScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
  );
  app.get('/api/docs/:asset', async (c) => {
    const name = c.req.param('asset');
    const type = assets[name];
    if (!type) return c.notFound();
    let body = cache.get(name);
    if (!body) {
      body = await readFile(path.join(assetsDir, name));
      cache.set(name, body);
    }
    return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
}

const docsPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>MedEdu Admin API</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" href="/api/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>`;

const initScript = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  persistAuthorization: true
});`;
