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
