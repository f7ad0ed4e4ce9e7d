import { describe, expect, it } from 'vitest';
import { fetchWithRetry, retryAfterMs } from './backoff.ts';
import type { PluginHttp } from './context.ts';

/** A provider answering the given statuses in turn, recording each call. */
function provider(
  answers: Array<{ status: number; headers?: Record<string, string> }>,
): PluginHttp & { calls: number } {
  const http = {
    calls: 0,
    async fetch() {
      const a = answers[Math.min(http.calls, answers.length - 1)]!;
      http.calls++;
      return new Response(a.status === 204 ? null : '{}', { status: a.status, headers: a.headers });
    },
  };
  return http;
}

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  it('reads Retry-After as seconds or a date, and reset headers as an epoch or seconds from now', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 01 Mar 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 7) }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers(), now)).toBeNull();
  });
});

describe('fetchWithRetry', () => {
  it('waits what the provider asks after a 429, doubles its own delay after a 5xx, and returns the answer that is not one', async () => {
    const http = provider([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 503 },
      { status: 502 },
      { status: 200 },
    ]);
    const waits: number[] = [];
    const res = await fetchWithRetry(
      http,
      'https://api.example.com/x',
      {},
      { baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) },
    );
    expect(res.status).toBe(200);
    expect(http.calls).toBe(4);
    expect(waits).toEqual([2000, 200, 400]);
  });

  it('caps a wait at maxWaitSeconds and gives up after its retries with the last answer', async () => {
    const http = provider([{ status: 429, headers: { 'retry-after': '3600' } }]);
    const waits: number[] = [];
    const res = await fetchWithRetry(
      http,
      'https://api.example.com/x',
      {},
      { retries: 2, maxWaitSeconds: 30, sleep: async (ms) => void waits.push(ms) },
    );
    expect(res.status).toBe(429);
    expect(http.calls).toBe(3);
    expect(waits).toEqual([30_000, 30_000]);
  });

  it('never retries an answer that will not change, such as a refused credential', async () => {
    const http = provider([{ status: 401 }]);
    const res = await fetchWithRetry(http, 'https://api.example.com/x', {}, { sleep: async () => undefined });
    expect(res.status).toBe(401);
    expect(http.calls).toBe(1);
  });
});
