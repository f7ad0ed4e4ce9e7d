import { ZoomApiError } from './errors.ts';
import type { ZoomRecording } from './types.ts';

/** Zoom checks the endpoint (on save, then every 72 hours) with a token to sign. */
export interface ZoomUrlValidationEvent {
  event: 'endpoint.url_validation';
  event_ts: number;
  payload: { plainToken: string };
}

/**
 * A cloud recording finished processing. `download_token` lets us fetch its files for 24 hours;
 * without one, download with the installation's access token.
 */
export interface ZoomRecordingCompletedEvent {
  event: 'recording.completed';
  event_ts: number;
  payload: { account_id: string; object: ZoomRecording };
  download_token?: string;
}

/** A user removed the app: Zoom requires their data to be deleted. */
export interface ZoomAppDeauthorizedEvent {
  event: 'app_deauthorized';
  event_ts: number;
  payload: {
    user_id: string;
    account_id: string;
    client_id: string;
    deauthorization_time: string;
    signature: string;
  };
}

export type ZoomWebhookEvent = ZoomUrlValidationEvent | ZoomRecordingCompletedEvent | ZoomAppDeauthorizedEvent;

/**
 * Reads a webhook body. Answers null for events Fieldbook does not handle, and throws when the
 * body is not JSON or a known event lacks the fields it always carries.
 */
export function parseZoomWebhook(rawBody: string): ZoomWebhookEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(rawBody);
  } catch {
    throw invalid();
  }
  if (!isObject(value) || typeof value.event !== 'string') throw invalid();
  const payload = isObject(value.payload) ? value.payload : null;
  switch (value.event) {
    case 'endpoint.url_validation':
      if (typeof payload?.plainToken !== 'string') throw invalid();
      return value as unknown as ZoomUrlValidationEvent;
    case 'recording.completed': {
      const object = isObject(payload?.object) ? payload.object : null;
      if (typeof payload?.account_id !== 'string' || !object || !Array.isArray(object.recording_files)) throw invalid();
      return value as unknown as ZoomRecordingCompletedEvent;
    }
    case 'app_deauthorized':
      if (typeof payload?.user_id !== 'string' || typeof payload.account_id !== 'string') throw invalid();
      return value as unknown as ZoomAppDeauthorizedEvent;
    default:
      return null;
  }
}

function invalid(): ZoomApiError {
  return new ZoomApiError('webhook', 'invalid_event_payload', 400);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
