/**
 * Retry policy of the GraphQL client (000 §7, §9): queries that fail with status 500 or above are
 * tried up to 5 times in all, waiting 300 ms before the first retry and doubling up to 2 s, with
 * jitter so many clients do not retry in step. Mutations are never retried: a mutation that
 * reached the server may have changed something even when the answer was an error.
 */
export const QUERY_MAX_ATTEMPTS = 5;
export const RETRY_INITIAL_DELAY_MS = 300;
export const RETRY_MAX_DELAY_MS = 2000;
/** Each wait is scaled by a random factor in [1 - JITTER, 1 + JITTER), then capped. */
export const RETRY_JITTER = 0.2;

export type OperationKind = 'query' | 'mutation' | 'subscription';

/** Whether an attempt that answered `status` should be tried again. `attempt` counts from 1. */
export function shouldRetry(kind: OperationKind, status: number, attempt: number): boolean {
  return kind === 'query' && status >= 500 && attempt < QUERY_MAX_ATTEMPTS;
}

/** Milliseconds to wait before retry number `retry` (1 is the first retry). */
export function retryDelayMs(retry: number, random: () => number = Math.random): number {
  const base = RETRY_INITIAL_DELAY_MS * 2 ** Math.max(0, retry - 1);
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(Math.min(RETRY_MAX_DELAY_MS, base * factor));
}

/** The kind of a GraphQL document: its first operation keyword, skipping comments. */
export function operationKind(document: string): OperationKind {
  const text = document.replace(/#[^\n\r]*/g, '').trimStart();
  if (text.startsWith('mutation')) return 'mutation';
  if (text.startsWith('subscription')) return 'subscription';
  return 'query';
}
