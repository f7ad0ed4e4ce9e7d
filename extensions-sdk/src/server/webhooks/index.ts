/**
 * Verifiers for inbound webhooks from the providers Fieldbook plugins talk to. Each checks the
 * provider's signature over the raw body bytes with a constant-time compare and, where the
 * provider sends a timestamp, a replay window of 300 seconds by default.
 */
export type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';
export { DEFAULT_TOLERANCE_SECONDS } from './checks.ts';
export { verifySlackRequest } from './slack.ts';
export { verifyZoomRequest, zoomUrlValidation, type ZoomUrlValidationResponse } from './zoom.ts';
export { verifyZendeskRequest } from './zendesk.ts';
export { verifyIntercomRequest } from './intercom.ts';
export { verifyStripeRequest, type StripeWebhookVerdict } from './stripe.ts';
