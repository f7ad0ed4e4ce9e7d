import { SlackApiError } from './errors.ts';
import type { SlackMessage } from './types.ts';

/** Slack checks a new Events API URL by sending this; answer with the `challenge`. */
export interface SlackUrlVerification {
  type: 'url_verification';
  token: string;
  challenge: string;
}

/** An inner event of the Events API (`message`, `app_uninstalled`, `tokens_revoked`, ...). */
export interface SlackInnerEvent {
  type: string;
  [field: string]: unknown;
}

/** An Events API delivery. `event_id` is unique per event: deliveries may repeat it on retry. */
export interface SlackEventCallback {
  type: 'event_callback';
  token: string;
  team_id: string;
  api_app_id: string;
  event: SlackInnerEvent;
  event_id: string;
  event_time: number;
  authorizations?: Array<{ team_id: string; user_id: string; is_bot: boolean }>;
}

/** Slack tells an app it is sending too many events and will pause some. */
export interface SlackAppRateLimited {
  type: 'app_rate_limited';
  token: string;
  team_id: string;
  minute_rate_limited: number;
  api_app_id: string;
}

export type SlackEventEnvelope = SlackUrlVerification | SlackEventCallback | SlackAppRateLimited;

/** The interactivity payload of a message shortcut ("message action"). */
export interface SlackMessageAction {
  type: 'message_action';
  token: string;
  callback_id: string;
  trigger_id: string;
  response_url: string;
  action_ts: string;
  message_ts: string;
  team: { id: string; domain: string };
  user: { id: string; name?: string; username?: string; team_id?: string };
  channel: { id: string; name: string };
  message: SlackMessage;
}

/** Reads an Events API body; throws when it is not one of the envelopes Slack sends. */
export function parseSlackEventEnvelope(rawBody: string): SlackEventEnvelope {
  const value = parseObject(rawBody);
  switch (value?.type) {
    case 'url_verification':
      if (typeof value.challenge === 'string') return value as unknown as SlackUrlVerification;
      break;
    case 'event_callback':
      if (typeof value.team_id === 'string' && typeof value.event_id === 'string' && isObject(value.event)) {
        return value as unknown as SlackEventCallback;
      }
      break;
    case 'app_rate_limited':
      return value as unknown as SlackAppRateLimited;
  }
  throw new SlackApiError('events', 'invalid_event_payload', 400);
}

/**
 * Reads the body of an interactivity request (form-encoded `payload=<json>`) and returns it when it
 * is a message action; other interaction types answer null so the caller can ignore them.
 */
export function parseSlackMessageAction(formBody: string | URLSearchParams): SlackMessageAction | null {
  const params = typeof formBody === 'string' ? new URLSearchParams(formBody) : formBody;
  const payload = parseObject(params.get('payload') ?? '');
  if (!payload) throw new SlackApiError('interactivity', 'invalid_payload', 400);
  if (payload.type !== 'message_action') return null;
  const team = isObject(payload.team) ? payload.team : null;
  const channel = isObject(payload.channel) ? payload.channel : null;
  const message = isObject(payload.message) ? payload.message : null;
  if (
    typeof payload.callback_id !== 'string' ||
    typeof payload.response_url !== 'string' ||
    typeof team?.id !== 'string' ||
    typeof channel?.id !== 'string' ||
    typeof message?.ts !== 'string'
  ) {
    throw new SlackApiError('interactivity', 'invalid_payload', 400);
  }
  return payload as unknown as SlackMessageAction;
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
