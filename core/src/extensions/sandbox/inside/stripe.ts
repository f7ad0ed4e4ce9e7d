/**
 * The one part of the `stripe` package the SDK uses, for plugins in the isolate: webhook signature
 * checking as Stripe's `webhooks.constructEvent` does it (HMAC-SHA256 of `{t}.{body}` against every
 * `v1` signature, the timestamp within the tolerance). Stripe's own package is a megabyte of API
 * client that needs Node or a browser's event classes; nothing else of it is reachable here.
 */
import { Buffer } from 'buffer';
import { createHmac, timingSafeEqual } from './crypto.ts';

function constructEvent(
  payload: Uint8Array | string,
  header: string,
  secret: string,
  tolerance = 300,
  _cryptoProvider?: unknown,
  receivedAt?: number,
): unknown {
  const body = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  const parts = String(header)
    .split(',')
    .map((item) => item.split('=', 2).map((p) => p.trim()) as [string, string | undefined]);
  const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!Number.isFinite(timestamp) || signatures.length === 0)
    throw new Error('Unable to extract timestamp and signatures from header');
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest();
  const matches = signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error('No signatures found matching the expected signature for payload.');
  const now = Math.floor((receivedAt ?? Date.now()) / 1000);
  if (tolerance > 0 && now - timestamp > tolerance) throw new Error('Timestamp outside the tolerance zone');
  return JSON.parse(body);
}

export default { webhooks: { constructEvent } };
