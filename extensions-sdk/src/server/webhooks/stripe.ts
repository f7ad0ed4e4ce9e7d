import Stripe from 'stripe';
import {
  DEFAULT_TOLERANCE_SECONDS,
  headerValue,
  missingSecret,
  outsideWindow,
  parseUnixSeconds,
  refused,
} from './checks.ts';
import type { VerifyOptions, WebhookRequest } from './types.ts';

const SIGNATURE = 'stripe-signature';

/** A Stripe verdict: when the request verifies, the event it carried, parsed. */
export type StripeWebhookVerdict = { ok: true; event: Stripe.Event } | { ok: false; reason: string };

/**
 * Verifies a webhook from Stripe as "Check the webhook signatures" describes, through the official
 * `stripe` package (`stripe.webhooks.constructEvent`): the `stripe-signature` header's `t=`
 * timestamp and `v1=` signatures (several while a secret is being rolled) must match
 * HMAC-SHA256(endpoint secret, `{t}.{raw body}`), compared in constant time.
 *
 * Stripe's library only refuses old timestamps; this also refuses ones further in the future than
 * the window (300 s by default), as the other verifiers do.
 *
 * @param req - the request with lower-cased header names and the raw body bytes.
 * @param endpointSecret - the endpoint's signing secret (`whsec_...`).
 * @param opts - clock and window overrides, mainly for tests.
 * @returns `{ ok: true, event }` with the parsed event, or `{ ok: false, reason }` with a reason for logs.
 */
export function verifyStripeRequest(
  req: WebhookRequest,
  endpointSecret: string,
  opts?: VerifyOptions,
): StripeWebhookVerdict {
  const noSecret = missingSecret(endpointSecret, 'Stripe endpoint secret');
  if (noSecret) return refused(noSecret);
  const header = headerValue(req, SIGNATURE);
  if (!header) return refused(`missing ${SIGNATURE} header`);

  const timestamp = timestampOf(header);
  if (timestamp === undefined) return refused(`malformed ${SIGNATURE} header: expected t=<unix seconds>`);
  const stale = outsideWindow(timestamp, opts);
  if (stale) return refused(stale);

  const now = (opts?.now ?? Date.now)();
  try {
    // Our own check above already bounds the age; passing the window keeps Stripe's in step with it.
    const tolerance = opts?.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const event = Stripe.webhooks.constructEvent(req.rawBody, header, endpointSecret, tolerance, undefined, now);
    return { ok: true, event };
  } catch (error) {
    // Stripe's messages run to several lines with links; the first line says what failed.
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '').trim() : String(error);
    return refused(`stripe: ${message || 'verification failed'}`);
  }
}

function timestampOf(header: string): number | undefined {
  for (const item of header.split(',')) {
    const [key, value] = item.split('=', 2).map((part) => part.trim());
    if (key === 't') return value === undefined ? undefined : parseUnixSeconds(value);
  }
  return undefined;
}
