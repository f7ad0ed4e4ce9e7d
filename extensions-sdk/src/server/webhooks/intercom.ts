import { ACCEPTED, digestsEqual, headerValue, hmac, missingSecret, outsideWindow, refused } from './checks.ts';
import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';

const SIGNATURE = 'x-hub-signature';

/**
 * Verifies a webhook notification from Intercom as "Signed notifications" describes:
 * `x-hub-signature` must equal `sha1=` + hex HMAC-SHA1(client secret, raw body), compared in
 * constant time.
 *
 * Intercom sends no timestamp header, so the replay window (300 s by default) is applied to the
 * notification's own `created_at` (unix seconds) in the JSON body, which the signature covers. A
 * notification without a numeric `created_at` is refused. Intercom's retries keep the original
 * `created_at`, so a retry arriving after the window is refused too; widen `toleranceSeconds` if
 * late retries matter more than replay protection.
 *
 * @param req - the request with lower-cased header names and the raw body bytes.
 * @param clientSecret - the app's client_secret (Basic Info page in the Developer Hub).
 * @param opts - clock and window overrides, mainly for tests.
 */
export function verifyIntercomRequest(req: WebhookRequest, clientSecret: string, opts?: VerifyOptions): WebhookVerdict {
  const noSecret = missingSecret(clientSecret, 'Intercom client secret');
  if (noSecret) return refused(noSecret);
  const signature = headerValue(req, SIGNATURE);
  if (!signature) return refused(`missing ${SIGNATURE} header`);
  const hex = /^sha1=([0-9a-fA-F]{40})$/.exec(signature)?.[1];
  if (!hex) return refused(`malformed ${SIGNATURE} header: expected sha1= and 40 hex digits`);

  const expected = hmac('sha1', clientSecret, req.rawBody);
  if (!digestsEqual(expected, Buffer.from(hex, 'hex'))) return refused('signature does not match the body');

  // Read only after the signature holds, so the timestamp trusted here is one Intercom signed.
  const createdAt = createdAtOf(req.rawBody);
  if (createdAt === undefined) return refused('notification has no numeric created_at to check its age against');
  const stale = outsideWindow(createdAt, opts);
  return stale ? refused(`created_at ${stale}`) : ACCEPTED;
}

function createdAtOf(rawBody: Buffer): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || !('created_at' in parsed)) return undefined;
  const createdAt = parsed.created_at;
  return typeof createdAt === 'number' && Number.isInteger(createdAt) && createdAt >= 0 ? createdAt : undefined;
}
