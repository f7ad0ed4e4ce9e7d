/**
 * Error codes the API answers with (000 §8, 001 §8, 002 §8). The first three are the GraphQL
 * codes clients switch on; the others come from the product's error catalogue.
 */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'FORBIDDEN',
  'INTERNAL_SERVER_ERROR',
  'UNAUTHENTICATED',
  'NOT_FOUND',
  'TOO_MANY_REQUESTS',
  'INVALID_OPERATION',
  'UNPROCESSABLE_CONTENT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppErrorOptions {
  /** The input field the error is about, when there is one. */
  field?: string;
  /** True when the message is written for people and may be shown as is. Defaults to true. */
  humanReadable?: boolean;
  /** For TOO_MANY_REQUESTS: seconds until the caller may try again (sent as `retryAfter`). */
  retryAfterSeconds?: number;
  /** For a plan's limit or gated feature: the upgrade-prompt key (001 §3.9) the screens open their dialog with. */
  upgradeKey?: string;
  cause?: unknown;
}

/** The one error type of Fieldbook: a code clients switch on and a message people can read. */
export class AppError extends Error {
  readonly errorCode: ErrorCode;
  readonly humanReadable: boolean;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly upgradeKey: string | undefined;

  constructor(errorCode: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.errorCode = errorCode;
    this.humanReadable = options.humanReadable ?? true;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upgradeKey = options.upgradeKey;
  }

  /** HTTP status for plain (non-GraphQL) routes. */
  get status(): number {
    switch (this.errorCode) {
      case 'BAD_USER_INPUT':
        return 400;
      case 'UNAUTHENTICATED':
        return 401;
      case 'FORBIDDEN':
        return 403;
      case 'NOT_FOUND':
        return 404;
      case 'TOO_MANY_REQUESTS':
        return 429;
      case 'UNPROCESSABLE_CONTENT':
      case 'INVALID_OPERATION':
        return 422;
      default:
        return 500;
    }
  }
}

export const badInput = (field: string, message: string): AppError =>
  new AppError('BAD_USER_INPUT', message, { field });
export const forbidden = (message = 'You do not have permission to do that.'): AppError =>
  new AppError('FORBIDDEN', message);
export const notFound = (what = 'That item'): AppError => new AppError('NOT_FOUND', `${what} was not found.`);
export const unauthenticated = (message = 'Please sign in to continue.'): AppError =>
  new AppError('UNAUTHENTICATED', message);
