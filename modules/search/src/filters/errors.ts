/**
 * The error the filter model throws. It mirrors the server's AppError (errorCode, humanReadable,
 * field) without importing it, because this model also runs in the browser; the server turns it
 * into an AppError with the same code, message and field.
 */
export type FilterErrorCode = 'BAD_USER_INPUT' | 'INTERNAL_SERVER_ERROR';

export class FilterError extends Error {
  readonly errorCode: FilterErrorCode;
  readonly humanReadable: boolean;
  /** The input field the problem is in, e.g. `filter.forms.2.operator` or `limit`. */
  readonly field: string;

  constructor(field: string, message: string, errorCode: FilterErrorCode = 'BAD_USER_INPUT') {
    super(message);
    this.name = 'FilterError';
    this.field = field;
    this.errorCode = errorCode;
    this.humanReadable = errorCode === 'BAD_USER_INPUT';
  }
}

export const badFilterInput = (field: string, message: string): FilterError => new FilterError(field, message);

/** A state the product never builds on purpose (000 §5): reported, not shown to people. */
export const internalFilterError = (field: string, message: string): FilterError =>
  new FilterError(field, message, 'INTERNAL_SERVER_ERROR');
