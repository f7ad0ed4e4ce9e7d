import { AppError } from '../../errors/app-error.ts';
import type { RequestContext } from '../../kernel/request-context.ts';

/** "in 40 seconds", "in 1 minute", "in 12 minutes": when to try again, in words. */
export function inWords(seconds: number): string {
  if (seconds < 60) return `in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * A TOO_MANY_REQUESTS error that says when to try again. The HTTP answer carries it too: the
 * GraphQL route turns `retryAfterSeconds` in the request state into status 429 and Retry-After.
 */
export function tooManyRequests(ctx: RequestContext | null, retryAfterSeconds: number, message: string): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  if (ctx?.koa) {
    const state = ctx.koa.state as { retryAfterSeconds?: number };
    state.retryAfterSeconds = Math.max(state.retryAfterSeconds ?? 0, seconds);
  }
  return new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds: seconds });
}
