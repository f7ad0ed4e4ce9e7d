import { createHash } from 'node:crypto';
import { verifySlackRequest, type WebhookRequest } from '@fieldbook/extensions-sdk/server';
import {
  parseSlackEventEnvelope,
  parseSlackMessageAction,
  type SlackEventEnvelope,
  type SlackMessageAction,
} from './api/index.ts';

/** The callback id of the "Save to Fieldbook" message shortcut in the Slack app's configuration. */
export const SAVE_CALLBACK_ID = 'save_to_fieldbook';

/**
 * What arrived at /slack/webhook: an Events API delivery (JSON) or an interactivity request
 * (form-encoded `payload=`). Anything else is null and is stored without effect.
 */
export type SlackDelivery =
  | { kind: 'event'; envelope: SlackEventEnvelope }
  | { kind: 'interaction'; payload: Record<string, unknown>; action: SlackMessageAction | null }
  | null;

export function readDelivery(rawBody: string): SlackDelivery {
  const text = rawBody.trimStart();
  try {
    if (text.startsWith('{')) return { kind: 'event', envelope: parseSlackEventEnvelope(text) };
    const params = new URLSearchParams(text);
    const raw = params.get('payload');
    if (raw === null) return null;
    const payload = JSON.parse(raw) as unknown;
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
    return {
      kind: 'interaction',
      payload: payload as Record<string, unknown>,
      action: parseSlackMessageAction(params),
    };
  } catch {
    return null;
  }
}

/**
 * A request's delivery, read once: answering a challenge and working out both ids each need it,
 * and they are asked in turn about the same request.
 */
const read = new WeakMap<Uint8Array, { raw: string; delivery: SlackDelivery }>();
function deliveryOf(request: WebhookRequest): { raw: string; delivery: SlackDelivery } {
  let found = read.get(request.rawBody);
  if (!found) {
    const raw = request.rawBody.toString('utf8');
    found = { raw, delivery: readDelivery(raw) };
    read.set(request.rawBody, found);
  }
  return found;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const field = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;

export function verifySlack(request: WebhookRequest, signingSecret: string | undefined) {
  if (!signingSecret) return { ok: false as const, reason: 'no signing secret is configured' };
  return verifySlackRequest(request, signingSecret);
}

/** Slack checks a new Request URL with a signed url_verification; it wants the challenge back. */
export function answerChallenge(request: WebhookRequest) {
  const { delivery } = deliveryOf(request);
  if (delivery?.kind === 'event' && delivery.envelope.type === 'url_verification')
    return { body: { challenge: delivery.envelope.challenge } };
  return null;
}

/**
 * The id a repeated delivery shares: Slack's `event_id` for events; for interactions, the
 * interaction's type and trigger (Slack sends one trigger per click), else the message it is about.
 */
export function slackEventId(request: WebhookRequest): string {
  const { raw, delivery } = deliveryOf(request);
  if (delivery?.kind === 'event') {
    const envelope = delivery.envelope;
    if (envelope.type === 'event_callback') return envelope.event_id;
    if (envelope.type === 'app_rate_limited')
      return `app_rate_limited:${envelope.team_id}:${envelope.minute_rate_limited}`;
  }
  if (delivery?.kind === 'interaction') {
    const type = text(delivery.payload.type) ?? 'interaction';
    const trigger = text(delivery.payload.trigger_id);
    if (trigger) return `${type}:${trigger}`;
    const channel = text(field(delivery.payload.channel, 'id'));
    const ts = text(delivery.payload.message_ts) ?? text(field(delivery.payload.message, 'ts'));
    if (channel && ts) return `${type}:${channel}:${ts}:${text(delivery.payload.action_ts) ?? ''}`;
  }
  return `body:${createHash('sha256').update(raw).digest('hex')}`;
}

/** The Slack team a delivery is for, matched to the workspace that connected it. */
export function slackTeamId(request: WebhookRequest): string | null {
  const { delivery } = deliveryOf(request);
  if (delivery?.kind === 'event')
    return delivery.envelope.type === 'url_verification' ? null : delivery.envelope.team_id;
  if (delivery?.kind === 'interaction') return text(field(delivery.payload.team, 'id'));
  return null;
}
