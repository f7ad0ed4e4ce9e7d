/**
 * Signers that produce the headers each provider would send with a body, so plugin tests can post
 * realistic signed webhooks without the provider. They follow the providers' documented schemes
 * independently of the verifiers in `server/webhooks`, so a test signs as the provider would rather
 * than as the verifier expects. Header names are lower-cased, as verifiers read them.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';

/** When a signed request claims to have been sent. */
export interface SignOptions {
  /** Unix seconds; defaults to now. Pass an old or future value to test the replay window. */
  timestamp?: number;
}

/** Headers to send with the signed body, keyed by lower-cased name. */
export type SignedHeaders = Record<string, string>;

function unixSeconds(opts: SignOptions | undefined): number {
  return opts?.timestamp ?? Math.floor(Date.now() / 1000);
}

function bytes(body: string | Buffer): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** The `v0` scheme Slack and Zoom share: `v0=` + hex HMAC-SHA256(secret, `v0:{ts}:{body}`). */
function signV0(
  body: string | Buffer,
  secret: string,
  opts: SignOptions | undefined,
  names: [signature: string, timestamp: string],
): SignedHeaders {
  const timestamp = String(unixSeconds(opts));
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(bytes(body)).digest('hex');
  return { [names[1]]: timestamp, [names[0]]: `v0=${digest}` };
}

/** Slack's headers: `x-slack-signature` = `v0=` + hex HMAC-SHA256(signing secret, `v0:{ts}:{body}`). */
export function signSlackRequest(body: string | Buffer, signingSecret: string, opts?: SignOptions): SignedHeaders {
  return signV0(body, signingSecret, opts, ['x-slack-signature', 'x-slack-request-timestamp']);
}

/** Zoom's headers: `x-zm-signature` = `v0=` + hex HMAC-SHA256(secret token, `v0:{ts}:{body}`). */
export function signZoomRequest(body: string | Buffer, secretToken: string, opts?: SignOptions): SignedHeaders {
  return signV0(body, secretToken, opts, ['x-zm-signature', 'x-zm-request-timestamp']);
}

/**
 * Zendesk's headers: `x-zendesk-webhook-signature` = base64 HMAC-SHA256(secret, timestamp + body),
 * the timestamp an ISO 8601 date-time in `x-zendesk-webhook-signature-timestamp`.
 */
export function signZendeskRequest(body: string | Buffer, signingSecret: string, opts?: SignOptions): SignedHeaders {
  // Zendesk sends whole seconds, e.g. 2021-07-25T10:00:00Z.
  const timestamp = new Date(unixSeconds(opts) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const digest = createHmac('sha256', signingSecret).update(timestamp).update(bytes(body)).digest('base64');
  return { 'x-zendesk-webhook-signature-timestamp': timestamp, 'x-zendesk-webhook-signature': digest };
}

/**
 * Intercom's header: `x-hub-signature` = `sha1=` + hex HMAC-SHA1(client secret, body). Intercom
 * sends no timestamp header; the verifier reads the body's `created_at`, so put the time there.
 */
export function signIntercomRequest(body: string | Buffer, clientSecret: string): SignedHeaders {
  return { 'x-hub-signature': `sha1=${createHmac('sha1', clientSecret).update(bytes(body)).digest('hex')}` };
}

/** Stripe's header, from the `stripe` package's own test helper: `stripe-signature: t=...,v1=...`. */
export function signStripeRequest(body: string | Buffer, endpointSecret: string, opts?: SignOptions): SignedHeaders {
  const payload = typeof body === 'string' ? body : body.toString('utf8');
  const header = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: endpointSecret,
    timestamp: unixSeconds(opts),
  });
  return { 'stripe-signature': header };
}
