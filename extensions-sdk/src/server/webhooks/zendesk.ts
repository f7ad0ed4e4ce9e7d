import { ACCEPTED, digestsEqual, headerValue, hmac, missingSecret, outsideWindow, refused } from './checks.ts';
import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';

const SIGNATURE = 'x-zendesk-webhook-signature';
const TIMESTAMP = 'x-zendesk-webhook-signature-timestamp';

// ISO 8601 date-time with an explicit zone, as Zendesk sends it (e.g. 2021-07-25T10:00:00Z);
// a bare Date.parse would also accept loose forms such as "1" or "July 25".
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Verifies a webhook from Zendesk as "Verifying webhook authenticity" describes:
 * `x-zendesk-webhook-signature` must equal base64 HMAC-SHA256(signing secret, timestamp + raw body),
 * where the timestamp is the `x-zendesk-webhook-signature-timestamp` header (ISO 8601) exactly as
 * sent, compared in constant time; the timestamp must be within the replay window (300 s by
 * default). A request without a body (GET, DELETE) signs the timestamp alone.
 *
 * @param req - the request with lower-cased header names and the raw body bytes.
 * @param signingSecret - the webhook's signing secret, used as given (not base64-decoded).
 * @param opts - clock and window overrides, mainly for tests.
 */
export function verifyZendeskRequest(req: WebhookRequest, signingSecret: string, opts?: VerifyOptions): WebhookVerdict {
  const noSecret = missingSecret(signingSecret, 'Zendesk signing secret');
  if (noSecret) return refused(noSecret);
  const signature = headerValue(req, SIGNATURE);
  if (!signature) return refused(`missing ${SIGNATURE} header`);
  const timestamp = headerValue(req, TIMESTAMP);
  if (!timestamp) return refused(`missing ${TIMESTAMP} header`);

  // An HMAC-SHA256 digest is 32 bytes: 44 base64 characters ending in one '='.
  if (!/^[A-Za-z0-9+/]{43}=$/.test(signature))
    return refused(`malformed ${SIGNATURE} header: expected a base64 SHA-256 digest`);
  const millis = ISO_8601.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  if (Number.isNaN(millis)) return refused(`malformed ${TIMESTAMP} header: expected an ISO 8601 date-time`);
  const stale = outsideWindow(Math.floor(millis / 1000), opts);
  if (stale) return refused(stale);

  const expected = hmac('sha256', signingSecret, Buffer.from(timestamp, 'utf8'), req.rawBody);
  return digestsEqual(expected, Buffer.from(signature, 'base64'))
    ? ACCEPTED
    : refused('signature does not match the body');
}
