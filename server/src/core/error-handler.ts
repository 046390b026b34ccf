import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import type { AppEnv } from './context';
import type { ErrorCatalog } from './error-catalog';
import type { ErrorKey } from './error-codes';
import { AppError, isDatabaseUnavailable, isUniqueViolation, refusedReferenceField } from './errors';
import { resolveLang } from './i18n';
import { notOfTenant } from './references';
import { malformedBodyError } from './validation';

/** How long a client is asked to wait before retrying a request cut by the database going away. */
export const DATABASE_RETRY_AFTER_SECONDS = 3;

/** The largest JSON body a request may carry (spreadsheet imports and uploads have their own limits). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** A body over `maxSize` bytes, refused with the limit it passed (a client names the field it knows to be largest). */
export const payloadTooLarge = (maxSize = JSON_BODY_LIMIT) =>
  new AppError('common.payloadTooLarge', { limit: `${Math.floor(maxSize / (1024 * 1024))} MB` });

function fromHttpException(err: HTTPException, c: Context<AppEnv>): AppError {
  switch (err.status) {
    case 400:
      return malformedBodyError(c.var.lang ?? resolveLang(c.req.header('accept-language')));
    case 401:
      return new AppError('common.unauthorized');
    case 403:
      return new AppError('common.forbidden');
    case 404:
      return new AppError('common.notFound');
    case 413:
      return payloadTooLarge();
    case 415:
      return new AppError('common.unsupportedMediaType');
    default:
      return new AppError('common.internal');
  }
}

export function createErrorHandler(catalog: ErrorCatalog, logger: Logger | undefined): ErrorHandler<AppEnv> {
  return (err, c) => {
    let appError: AppError;
    if (err instanceof AppError) {
      appError = err;
      // a server-side failure told to the user without its detail (a path, an address): the log keeps the detail
      if (err.status >= 500 && err.cause)
        logger?.error({ err: err.cause, code: err.code, requestId: c.var.requestId, path: c.req.path }, 'failed');
    } else if (err instanceof HTTPException) appError = fromHttpException(err, c);
    else if (isUniqueViolation(err)) appError = new AppError('common.duplicate');
    else if (refusedReferenceField(err)) {
      // a reference the request's check did not see (a write's own id, a race): the database refused it
      const lang = c.var.lang ?? resolveLang(c.req.header('accept-language'));
      const field = refusedReferenceField(err) as string;
      appError = new AppError('common.validation', {}, [{ field, message: notOfTenant(lang) }]);
    } else if (isDatabaseUnavailable(err)) {
      // a restart or a fail-over: the pool opens new connections, and the request may simply be sent again
      logger?.warn({ err, requestId: c.var.requestId, path: c.req.path }, 'the database went away during a request');
      appError = new AppError('common.databaseUnavailable');
      c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    } else {
      logger?.error({ err, requestId: c.var.requestId, path: c.req.path }, 'unhandled error');
      appError = new AppError('common.internal');
    }
    const lang = c.var.lang ?? resolveLang(c.req.header('accept-language'));
    const message = catalog.message(appError.code, lang, appError.params);
    const body: { family: string; code: ErrorKey; message: string; fields?: { field: string; message: string }[] } = {
      ...appError.details,
      family: appError.status >= 500 ? 'SERVER_ERROR' : 'CLIENT_ERROR',
      code: appError.code,
      message,
    };
    if (appError.fields) body.fields = appError.fields.map((f) => ({ field: f.field, message: f.message || message }));
    return c.json(body, appError.status as 400);
  };
}

export function createNotFoundHandler(onError: ErrorHandler<AppEnv>): NotFoundHandler<AppEnv> {
  return (c) => onError(new AppError('common.notFound'), c);
}
