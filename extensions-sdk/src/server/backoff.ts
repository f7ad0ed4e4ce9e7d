import type { PluginHttp } from './context.ts';

export interface RetryOptions {
  /** Tries after the first answer that says "later" (429 or 5xx); default 4. */
  retries?: number;
  /** The longest single wait, in seconds; a provider asking for longer gets this (default 30). */
  maxWaitSeconds?: number;
  /** The first wait without a Retry-After, doubling each time (default 500 ms). */
  baseDelayMs?: number;
  /** Replaces the clock's wait (tests). */
  sleep?(ms: number): Promise<void>;
}

/** How long a provider asked to wait: Retry-After (seconds or a date), else X-RateLimit-Reset / RateLimit-Reset. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | null {
  const after = headers.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(after);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset');
  if (reset) {
    const value = Number(reset);
    if (Number.isFinite(value)) {
      // Epoch seconds (Intercom, GitHub) or seconds from now (the IETF draft header).
      return Math.max(0, value > 1e9 ? value * 1000 - now : value * 1000);
    }
  }
  return null;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `ctx.http.fetch` that respects rate limits: an answer of 429, or of 5xx, is tried again after
 * the wait the provider asked for (Retry-After, X-RateLimit-Reset), else after a delay doubling
 * from `baseDelayMs`. The last answer is returned whatever it is; reading it is the caller's.
 */
export async function fetchWithRetry(
  http: PluginHttp,
  url: string | URL,
  init: RequestInit = {},
  options: RetryOptions = {},
): Promise<Response> {
  const retries = options.retries ?? 4;
  const maxWait = (options.maxWaitSeconds ?? 30) * 1000;
  const sleep = options.sleep ?? wait;
  let delay = options.baseDelayMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    const res = await http.fetch(url, init);
    const later = res.status === 429 || res.status >= 500;
    if (!later || attempt >= retries) return res;
    const asked = retryAfterMs(res.headers);
    await res.arrayBuffer().catch(() => undefined);
    await sleep(Math.min(maxWait, asked ?? delay));
    delay *= 2;
  }
}
