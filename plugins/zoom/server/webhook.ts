import { createHash } from 'node:crypto';
import { verifyZoomRequest, zoomUrlValidation, type WebhookRequest } from '@fieldbook/extensions-sdk/server';
import { parseZoomWebhook, type ZoomWebhookEvent } from './api/index.ts';

/** The event in a body, or null when it is not JSON, lacks its fields, or is one Fieldbook ignores. */
export function readEvent(rawBody: string): ZoomWebhookEvent | null {
  try {
    return parseZoomWebhook(rawBody);
  } catch {
    return null;
  }
}

export function verifyZoom(request: WebhookRequest, secretToken: string | undefined) {
  if (!secretToken) return { ok: false as const, reason: 'no webhook secret token is configured' };
  return verifyZoomRequest(request, secretToken);
}

/** Zoom checks the endpoint with `endpoint.url_validation`; it wants the token back, plain and signed (001 §7). */
export function answerValidation(request: WebhookRequest, secretToken: string | undefined) {
  const event = readEvent(request.rawBody.toString('utf8'));
  if (event?.event !== 'endpoint.url_validation' || !secretToken) return null;
  return { body: { ...zoomUrlValidation(event.payload.plainToken, secretToken) } };
}

/**
 * The id a repeated delivery shares: the event, what it is about (the recording's meeting UUID,
 * or the account that removed the app) and Zoom's `event_ts`, which a retry keeps.
 */
export function zoomEventId(request: WebhookRequest): string {
  const raw = request.rawBody.toString('utf8');
  const event = readEvent(raw);
  if (event?.event === 'recording.completed')
    return `recording.completed:${event.payload.object.uuid}:${event.event_ts}`;
  if (event?.event === 'app_deauthorized') return `app_deauthorized:${event.payload.account_id}:${event.event_ts}`;
  return `body:${createHash('sha256').update(raw).digest('hex')}`;
}

/** The Zoom account an event is for, matched to the workspace that connected it. */
export function zoomAccountId(request: WebhookRequest): string | null {
  const event = readEvent(request.rawBody.toString('utf8'));
  if (event?.event === 'recording.completed' || event?.event === 'app_deauthorized') return event.payload.account_id;
  return null;
}
