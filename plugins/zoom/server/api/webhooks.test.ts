import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeZoom, type FakeZoom } from '../../testing/fake-zoom.ts';
import { ZoomApiError } from './errors.ts';
import { verifyZoomRequest, zoomUrlValidation } from '@fieldbook/extensions-sdk/server';
import { parseZoomWebhook } from './webhooks.ts';

const secretToken = 'zoom-secret-token';
let zoom: FakeZoom;

beforeAll(async () => {
  zoom = await startFakeZoom({
    secretToken,
    meetings: [
      {
        uuid: 'uuid-1==',
        id: 1234,
        topic: 'Discovery call',
        start_time: '2025-01-01T10:00:00Z',
        files: [{ id: 'vtt', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: 'WEBVTT\n' }],
      },
    ],
  });
});

afterAll(() => zoom.close());

describe('endpoint.url_validation', () => {
  it('carries the plain token the SDK answers with its HMAC-SHA256 under the secret token', () => {
    const event = parseZoomWebhook(JSON.stringify(zoom.urlValidationEvent('qgg8vlvZRS6UYooatFL8Aw')));
    expect(event?.event).toBe('endpoint.url_validation');
    if (event?.event !== 'endpoint.url_validation') return;
    // Expected value computed independently: printf %s qgg8vlvZRS6UYooatFL8Aw | openssl dgst -sha256 -hmac zoom-secret-token
    expect(zoomUrlValidation(event.payload.plainToken, secretToken)).toEqual({
      plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
      encryptedToken: 'd9e0d764a78494688ba3f2d5c0ed4ca311394b4834d959759213424d2df961e3',
    });
  });
});

describe('recording.completed', () => {
  it('carries the account, the meeting with its files and the download token', () => {
    const event = parseZoomWebhook(JSON.stringify(zoom.recordingCompletedEvent(zoom.meetings[0]!)));
    expect(event?.event).toBe('recording.completed');
    if (event?.event !== 'recording.completed') return;
    expect(event.payload.account_id).toBe(zoom.user.account_id);
    expect(event.payload.object).toMatchObject({
      uuid: 'uuid-1==',
      id: 1234,
      topic: 'Discovery call',
      start_time: '2025-01-01T10:00:00Z',
    });
    expect(event.payload.object.recording_files[0]).toMatchObject({
      file_type: 'TRANSCRIPT',
      download_url: `${zoom.url}/rec/download/vtt`,
    });
    expect(event.download_token).toBe(zoom.downloadToken);
  });
});

describe('app_deauthorized', () => {
  it('carries user, account, client, time and signature', () => {
    const event = parseZoomWebhook(JSON.stringify(zoom.deauthorizedEvent()));
    expect(event?.event).toBe('app_deauthorized');
    if (event?.event !== 'app_deauthorized') return;
    expect(Object.keys(event.payload).sort()).toEqual([
      'account_id',
      'client_id',
      'deauthorization_time',
      'signature',
      'user_id',
    ]);
    expect(event.payload.user_id).toBe(zoom.user.id);
  });
});

describe('parsing', () => {
  it('answers null for events it does not handle', () => {
    expect(parseZoomWebhook(JSON.stringify({ event: 'meeting.started', payload: {} }))).toBeNull();
  });

  it.each([
    ['not json'],
    [JSON.stringify({ payload: {} })],
    [JSON.stringify({ event: 'endpoint.url_validation', payload: {} })],
    [JSON.stringify({ event: 'recording.completed', payload: { account_id: 'a', object: {} } })],
    [JSON.stringify({ event: 'app_deauthorized', payload: { account_id: 'a' } })],
  ])('rejects %s', (body) => {
    expect(() => parseZoomWebhook(body)).toThrow(ZoomApiError);
  });
});

describe('signature (the SDK verifier, as the webhook uses it)', () => {
  it('accepts what the fake signs and refuses tampering, other secrets and stale deliveries', () => {
    const nowMs = Date.now();
    const { headers, body } = zoom.signedWebhook(zoom.deauthorizedEvent(), Math.floor(nowMs / 1000));
    const request = (rawBody: string, extra: Record<string, string | undefined> = {}) => ({
      headers: { ...headers, ...extra },
      rawBody: Buffer.from(rawBody),
    });
    const clock = { now: () => nowMs };
    expect(verifyZoomRequest(request(body), secretToken, clock).ok).toBe(true);
    expect(verifyZoomRequest(request(body.replace('app_deauthorized', 'meeting.ended')), secretToken, clock).ok).toBe(
      false,
    );
    expect(verifyZoomRequest(request(body), 'other', clock).ok).toBe(false);
    expect(verifyZoomRequest(request(body, { 'x-zm-signature': undefined }), secretToken, clock).ok).toBe(false);
    expect(verifyZoomRequest(request(body), secretToken, { now: () => nowMs + 10 * 60_000 }).ok).toBe(false);
  });
});
