import type { VerifyOptions, WebhookRequest, WebhookVerdict } from './types.ts';
import { verifyV0Scheme } from './v0-scheme.ts';

/**
 * Verifies a request from Slack (Events API, slash commands, interactivity) as Slack's
 * "Verifying requests from Slack" describes: `x-slack-signature` must equal `v0=` + hex
 * HMAC-SHA256(signing secret, `v0:{x-slack-request-timestamp}:{raw body}`), compared in constant
 * time, and the timestamp must be within the replay window (300 s by default) of now.
 *
 * @param req - the request with lower-cased header names and the raw body bytes.
 * @param signingSecret - the app's Signing Secret (Basic Information page), used as given.
 * @param opts - clock and window overrides, mainly for tests.
 * @returns `{ ok: true }`, or `{ ok: false, reason }` with a reason for logs.
 */
export function verifySlackRequest(req: WebhookRequest, signingSecret: string, opts?: VerifyOptions): WebhookVerdict {
  return verifyV0Scheme(
    req,
    signingSecret,
    { signature: 'x-slack-signature', timestamp: 'x-slack-request-timestamp', secretName: 'Slack signing secret' },
    opts,
  );
}
