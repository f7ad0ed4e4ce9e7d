import type { z } from 'zod';
import { AppError } from './app-error.ts';

/**
 * The one validation layer: parses input with a zod schema and turns the first problem into a
 * BAD_USER_INPUT error that names the field, so nothing is written when input is bad.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'input';
  const message = issue?.message ?? 'Invalid input.';
  throw new AppError('BAD_USER_INPUT', message.includes(field) ? message : `${field}: ${message}`, { field });
}
