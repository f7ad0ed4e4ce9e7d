import { describe, expect, it } from 'vitest';
import { AppError } from '@fieldbook/core';
import { parseSearchParams } from './filters/index.ts';
import { thrown } from './filters/test-fields.ts';
import { toAppError, withFilterErrors } from './filter-errors.ts';

describe('filter errors on the server', () => {
  it('become AppErrors with the same code, message and field', () => {
    const error = thrown(() => withFilterErrors(() => parseSearchParams({ limit: 5000 })));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      message: 'limit must be a whole number from 0 to 1000.',
      field: 'limit',
      humanReadable: true,
    });
  });

  it('leave other errors alone and pass results through', () => {
    const other = new Error('boom');
    expect(toAppError(other)).toBe(other);
    expect(withFilterErrors(() => parseSearchParams({ limit: 5 })).limit).toBe(5);
  });
});
