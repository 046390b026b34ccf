import { type ErrorKey, errorCodes } from './error-codes';

export interface FieldError {
  field: string;
  message: string;
}

export type ErrorParams = Record<string, string | number>;

/**
 * The one error type of the API: an error-code key (which fixes the HTTP status), params for its message, fields,
 * and `details` merged into the body where a contract asks for more (the import report of `common.importFailed`).
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorKey,
    readonly params: ErrorParams = {},
    readonly fields?: FieldError[],
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.status = errorCodes[code].status;
  }
}

export const notFound = () => new AppError('common.notFound');
export const unauthorized = () => new AppError('common.unauthorized');
export const forbidden = () => new AppError('common.forbidden');
export const versionConflict = () => new AppError('common.versionConflict');
/** A rule of the entity (not of its schema) refuses one field: 400 `common.validation` naming it, as the schema's do. */
export const invalidField = (field: string, message: string) =>
  new AppError('common.validation', {}, [{ field, message }]);

/** Unique-constraint violations from either driver. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * The field a database's refusal of a stored reference names (a foreign key, or the triggers of migrations 0059, 0061
 * and 0068), camel-cased as the API names it: `org_id` → `orgId`, `audience.orgIds` as it is. Undefined for any other
 * error, a refused delete ("still referenced") included.
 */
export function refusedReferenceField(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message, column, detail } = err as {
    code?: unknown;
    message?: unknown;
    column?: unknown;
    detail?: unknown;
  };
  if (code !== '23503' || typeof message !== 'string' || !message.startsWith('insert or update on table'))
    return undefined;
  const named =
    typeof column === 'string' && column
      ? column
      : typeof detail === 'string'
        ? /^Key \((?:tenant_id, )?([a-z_]+)\)=/.exec(detail)?.[1]
        : undefined;
  return named?.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Node's codes for a connection to the database refused, cut or never made. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server going away: admin_shutdown, crash_shutdown, cannot_connect_now (class 08 is matched whole). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
/** What pg and pg-pool say, without a code, of a connection that ended or could not be had. */
const CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * A request cut by the database going away (a restart, a fail-over, an administrator's termination, a refused
 * connection) rather than by anything in the request: worth retrying in a few seconds. Looks through `cause` and an
 * AggregateError's `errors` (Node reports a refused connection to each address so).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 3) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (
    typeof code === 'string' &&
    (CONNECTION_CODES.has(code) || SHUTDOWN_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
  )
    return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
