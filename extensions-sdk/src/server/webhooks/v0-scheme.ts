import {
  ACCEPTED,
  digestsEqual,
  headerValue,
  hmac,
  missingSecret,
  outsideWindow,
  parseUnixSeconds,
  refused,
} from './checks.ts';
import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';

/** Where a provider using the `v0` scheme puts its signature and timestamp. */
export interface V0Headers {
  signature: string;
  timestamp: string;
  secretName: string;
}

/**
 * The `v0` scheme Slack and Zoom share: `v0=` + hex HMAC-SHA256(secret, `v0:{timestamp}:{raw body}`),
 * the timestamp in unix seconds.
 */
export function verifyV0Scheme(
  req: WebhookRequest,
  secret: string,
  headers: V0Headers,
  opts?: VerifyOptions,
): WebhookVerdict {
  const noSecret = missingSecret(secret, headers.secretName);
  if (noSecret) return refused(noSecret);
  const signature = headerValue(req, headers.signature);
  if (!signature) return refused(`missing ${headers.signature} header`);
  const timestamp = headerValue(req, headers.timestamp);
  if (!timestamp) return refused(`missing ${headers.timestamp} header`);

  const hex = /^v0=([0-9a-fA-F]{64})$/.exec(signature)?.[1];
  if (!hex) return refused(`malformed ${headers.signature} header: expected v0= and 64 hex digits`);
  const seconds = parseUnixSeconds(timestamp);
  if (seconds === undefined) return refused(`malformed ${headers.timestamp} header: expected unix seconds`);
  const stale = outsideWindow(seconds, opts);
  if (stale) return refused(stale);

  const expected = hmac('sha256', secret, Buffer.from(`v0:${timestamp}:`, 'utf8'), req.rawBody);
  return digestsEqual(expected, Buffer.from(hex, 'hex')) ? ACCEPTED : refused('signature does not match the body');
}
