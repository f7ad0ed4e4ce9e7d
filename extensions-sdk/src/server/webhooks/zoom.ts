import { createHmac } from 'node:crypto';
import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';
import { verifyV0Scheme } from './v0-scheme.ts';

/**
 * Verifies a webhook event from Zoom as Zoom's "Verify webhook events" describes: `x-zm-signature`
 * must equal `v0=` + hex HMAC-SHA256(secret token, `v0:{x-zm-request-timestamp}:{raw body}`),
 * compared in constant time, and the timestamp must be within the replay window (300 s by default).
 *
 * Zoom signs its `endpoint.url_validation` challenge the same way; answer it with
 * {@link zoomUrlValidation} once the request has verified.
 *
 * @param req - the request with lower-cased header names and the raw body bytes.
 * @param secretToken - the app's webhook Secret Token.
 * @param opts - clock and window overrides, mainly for tests.
 */
export function verifyZoomRequest(req: WebhookRequest, secretToken: string, opts?: VerifyOptions): WebhookVerdict {
  return verifyV0Scheme(
    req,
    secretToken,
    { signature: 'x-zm-signature', timestamp: 'x-zm-request-timestamp', secretName: 'Zoom secret token' },
    opts,
  );
}

/** The JSON body to answer Zoom's `endpoint.url_validation` challenge with (status 200). */
export interface ZoomUrlValidationResponse {
  plainToken: string;
  encryptedToken: string;
}

/**
 * Answers Zoom's challenge-response check ("Validate your webhook endpoint"): when an event's
 * `event` is `endpoint.url_validation`, respond within 3 seconds with the `payload.plainToken` it
 * sent and `encryptedToken` = hex HMAC-SHA256(secret token, plainToken).
 *
 * @param plainToken - `payload.plainToken` from the challenge body.
 * @param secretToken - the app's webhook Secret Token.
 */
export function zoomUrlValidation(plainToken: string, secretToken: string): ZoomUrlValidationResponse {
  if (!secretToken) throw new Error('A Zoom secret token is needed to answer the URL validation challenge.');
  return { plainToken, encryptedToken: createHmac('sha256', secretToken).update(plainToken, 'utf8').digest('hex') };
}
