export { ZoomApiError } from './errors.ts';
export {
  createZoomClient,
  encodeMeetingId,
  findMediaFile,
  findTranscriptFile,
  ZOOM_API_BASE_URL,
  ZOOM_OAUTH_BASE_URL,
} from './client.ts';
export type { ZoomAppCredentials, ZoomClient, ZoomClientOptions } from './client.ts';
export { parseZoomWebhook } from './webhooks.ts';
export type {
  ZoomAppDeauthorizedEvent,
  ZoomRecordingCompletedEvent,
  ZoomUrlValidationEvent,
  ZoomWebhookEvent,
} from './webhooks.ts';
export { parseWebVtt, WebVttError } from './vtt.ts';
export type { ParseWebVttOptions, TranscriptTurn } from './vtt.ts';
export type * from './types.ts';
