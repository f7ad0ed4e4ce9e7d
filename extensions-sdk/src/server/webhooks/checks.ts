import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';

/** The replay window, in seconds, applied to every provider: the five minutes Slack and Stripe recommend. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const ACCEPTED: WebhookVerdict = { ok: true };

export function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** A header's value, or undefined when it is absent or blank. */
export function headerValue(req: WebhookRequest, name: string): string | undefined {
  const value = req.headers[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function hmac(algorithm: 'sha1' | 'sha256', secret: string, ...parts: Buffer[]): Buffer {
  const mac = createHmac(algorithm, secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Compares digests without leaking, through timing, how many leading bytes matched. */
export function digestsEqual(expected: Buffer, received: Buffer): boolean {
  // timingSafeEqual throws on unequal lengths; a length mismatch is a plain refusal.
  return expected.length === received.length && timingSafeEqual(expected, received);
}

function toleranceOf(opts: VerifyOptions | undefined): number {
  const tolerance = opts?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new RangeError(`toleranceSeconds must be a non-negative number of seconds (got ${tolerance}).`);
  }
  return tolerance;
}

/**
 * Refuses a timestamp (unix seconds) further than the tolerance from now, in either direction:
 * an old one may be a replay, and one from the future could be replayed for longer than the window.
 */
export function outsideWindow(timestampSeconds: number, opts: VerifyOptions | undefined): string | undefined {
  const tolerance = toleranceOf(opts);
  const nowSeconds = Math.floor((opts?.now ?? Date.now)() / 1000);
  const drift = nowSeconds - timestampSeconds;
  if (drift > tolerance) return `timestamp is ${drift}s old, beyond the ${tolerance}s window`;
  if (-drift > tolerance) return `timestamp is ${-drift}s in the future, beyond the ${tolerance}s window`;
  return undefined;
}

/** Unix seconds as providers send them: digits only, so `1e9`, `-1` or `12.5` are malformed. */
export function parseUnixSeconds(value: string): number | undefined {
  return /^\d{1,12}$/.test(value) ? Number(value) : undefined;
}

/** Why a secret cannot be used, if it cannot: with an empty key anyone could compute the signature. */
export function missingSecret(secret: string, name: string): string | undefined {
  return typeof secret === 'string' && secret.length > 0 ? undefined : `no ${name} is configured`;
}
