import { type ErrorKey, errorCodes } from './error-codes';

export interface FieldError {
  field: string;
  message: string;
}

export type ErrorParams = Record<string, string | number>;

/** The one error type of the API: an error-code key (which fixes the HTTP status), params for its message, fields. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorKey,
    readonly params: ErrorParams = {},
    readonly fields?: FieldError[],
  ) {
    super(code);
    this.status = errorCodes[code].status;
  }
}

export const notFound = () => new AppError('common.notFound');
export const unauthorized = () => new AppError('common.unauthorized');
export const forbidden = () => new AppError('common.forbidden');
export const versionConflict = () => new AppError('common.versionConflict');
