import { AppError } from '@fieldbook/core';
import { FilterError } from './filters/index.ts';

/**
 * The filter model throws FilterError so the browser can use it without the server's error type;
 * on the server it becomes the AppError it mirrors, so clients see the same code, message and field.
 */
export function toAppError(error: unknown): unknown {
  if (!(error instanceof FilterError)) return error;
  return new AppError(error.errorCode, error.message, {
    field: error.field,
    humanReadable: error.humanReadable,
    cause: error,
  });
}

/** Runs filter-model code, turning its FilterErrors into AppErrors. */
export function withFilterErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw toAppError(error);
  }
}
