import { describe, expect, it } from 'vitest';
import { QUERY_MAX_ATTEMPTS, RETRY_MAX_DELAY_MS, operationKind, retryDelayMs, shouldRetry } from './retry.ts';

describe('retry policy (000 §7)', () => {
  it('retries queries that fail with 500 or above, up to 5 attempts in all', () => {
    expect(QUERY_MAX_ATTEMPTS).toBe(5);
    for (const status of [500, 502, 503, 504, 599]) expect(shouldRetry('query', status, 1)).toBe(true);
    expect(shouldRetry('query', 500, 4)).toBe(true);
    expect(shouldRetry('query', 500, 5)).toBe(false);
  });

  it('never retries mutations, and never retries answers below 500', () => {
    expect(shouldRetry('mutation', 500, 1)).toBe(false);
    expect(shouldRetry('mutation', 503, 1)).toBe(false);
    for (const status of [200, 400, 401, 403, 404, 413, 429, 499]) expect(shouldRetry('query', status, 1)).toBe(false);
  });

  it('waits 300 ms before the first retry, doubling, never more than 2 s', () => {
    const middle = () => 0.5; // a jitter factor of exactly 1
    expect(retryDelayMs(1, middle)).toBe(300);
    expect(retryDelayMs(2, middle)).toBe(600);
    expect(retryDelayMs(3, middle)).toBe(1200);
    expect(retryDelayMs(4, middle)).toBe(2000);
    expect(retryDelayMs(10, middle)).toBe(2000);
  });

  it('spreads the waits with jitter, within bounds', () => {
    expect(retryDelayMs(1, () => 0)).toBe(240);
    expect(retryDelayMs(1, () => 0.999999)).toBe(360);
    expect(retryDelayMs(4, () => 0.999999)).toBe(RETRY_MAX_DELAY_MS);
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const d = retryDelayMs(2);
      expect(d).toBeGreaterThanOrEqual(480);
      expect(d).toBeLessThanOrEqual(720);
      seen.add(d);
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it('tells queries from mutations, past comments and whitespace', () => {
    expect(operationKind('query Me { me { id } }')).toBe('query');
    expect(operationKind('{ me { id } }')).toBe('query');
    expect(operationKind('  # sign in\n mutation SignIn { signOut }')).toBe('mutation');
    expect(operationKind('subscription S { x }')).toBe('subscription');
  });
});
