import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeZoom, type FakeZoom, type FakeZoomMeeting } from '../../testing/fake-zoom.ts';
import { createZoomClient, encodeMeetingId, findMediaFile, findTranscriptFile, type ZoomClient } from './client.ts';
import { ZoomApiError } from './errors.ts';

const credentials = { clientId: 'zc-id', clientSecret: 'zc-secret' };
const transcript = 'WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.500\nAda Lovelace: The export keeps timing out.\n';
const weekly: FakeZoomMeeting = {
  uuid: '4444AAAiAAAAAiAiAiiAii==',
  id: 85746065432,
  topic: 'Customer interview: Acme',
  start_time: '2025-03-10T14:00:00Z',
  files: [
    { id: 'f-video', file_type: 'MP4', file_extension: 'MP4', content: 'video-bytes', contentType: 'video/mp4' },
    {
      id: 'f-audio',
      file_type: 'M4A',
      file_extension: 'M4A',
      recording_type: 'audio_only',
      content: 'audio-bytes',
      contentType: 'audio/mp4',
    },
    { id: 'f-vtt', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: transcript, contentType: 'text/vtt' },
  ],
};
const slashy: FakeZoomMeeting = {
  uuid: '/ajXp112QmuoKj4854875==',
  id: 111,
  topic: 'Slashy',
  start_time: '2025-03-11T09:00:00Z',
  files: [],
};

let zoom: FakeZoom;
let client: ZoomClient;
let fetchCalls = 0;

beforeAll(async () => {
  zoom = await startFakeZoom({
    ...credentials,
    redirectUri: 'https://fieldbook.test/zoom/callback',
    codes: ['code-1'],
    meetings: [weekly, slashy],
  });
  client = createZoomClient({
    apiBaseUrl: zoom.apiUrl,
    oauthBaseUrl: zoom.url,
    fetch: (input, init) => {
      fetchCalls += 1;
      return fetch(input, init);
    },
  });
});

afterAll(() => zoom.close());

async function zoomError(promise: Promise<unknown>): Promise<ZoomApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ZoomApiError);
  return error as ZoomApiError;
}

describe('OAuth', () => {
  it('exchanges the code with Basic client credentials and a form body', async () => {
    const tokens = await client.exchangeCode({
      ...credentials,
      code: 'code-1',
      redirectUri: 'https://fieldbook.test/zoom/callback',
    });
    expect(tokens).toMatchObject({
      accessToken: expect.stringMatching(/^zoom-access-/),
      refreshToken: expect.stringMatching(/^zoom-refresh-/),
      expiresIn: 3599,
    });
    const request = zoom.requests.find((req) => req.path === '/oauth/token');
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('zc-id:zc-secret').toString('base64')}`);
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'code-1',
      redirect_uri: 'https://fieldbook.test/zoom/callback',
    });
  });

  it('refuses a used code with invalid_grant and keeps the code out of the message', async () => {
    const error = await zoomError(
      client.exchangeCode({ ...credentials, code: 'code-1', redirectUri: 'https://fieldbook.test/zoom/callback' }),
    );
    expect(error).toMatchObject({ code: 'invalid_grant', status: 400, operation: 'oauth.token' });
    expect(error.message).not.toContain('code-1');
  });

  it('refuses wrong client credentials with invalid_client', async () => {
    zoom.addCode('code-2');
    const error = await zoomError(
      client.exchangeCode({
        clientId: 'zc-id',
        clientSecret: 'nope',
        code: 'code-2',
        redirectUri: 'https://fieldbook.test/zoom/callback',
      }),
    );
    expect(error).toMatchObject({ code: 'invalid_client', status: 401 });
  });

  it('rotates the refresh token: the old one stops working', async () => {
    zoom.addCode('code-3');
    const first = await client.exchangeCode({
      ...credentials,
      code: 'code-3',
      redirectUri: 'https://fieldbook.test/zoom/callback',
    });
    const second = await client.refreshTokens({ ...credentials, refreshToken: first.refreshToken });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(zoom.requests.at(-1)?.body).toEqual({ grant_type: 'refresh_token', refresh_token: first.refreshToken });
    expect((await zoomError(client.refreshTokens({ ...credentials, refreshToken: first.refreshToken }))).code).toBe(
      'invalid_request',
    );
  });

  it('revokes a token', async () => {
    const token = zoom.issueAccessToken();
    await client.revokeToken({ ...credentials, token });
    expect(zoom.isRevoked(token)).toBe(true);
    expect((await zoomError(client.getMe(token))).code).toBe('124');
  });
});

describe('REST API', () => {
  it('reads the installing user', async () => {
    const token = zoom.issueAccessToken();
    const me = await client.getMe(token);
    expect(me).toMatchObject({ id: zoom.user.id, account_id: zoom.user.account_id, email: 'host@example.com' });
    expect(zoom.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('answers Zoom error codes for bad and expired tokens', async () => {
    expect(await zoomError(client.getMe('bogus'))).toMatchObject({
      code: '124',
      status: 401,
      operation: 'GET /users/me',
    });
    const token = zoom.issueAccessToken();
    zoom.expireAccessToken(token);
    const error = await zoomError(client.getMe(token));
    expect(error.code).toBe('124');
    expect(error.message).not.toContain(token);
  });

  it('lists the recording files of a meeting by id and by UUID', async () => {
    const token = zoom.issueAccessToken();
    const byId = await client.getMeetingRecordings(token, weekly.id);
    expect(byId.topic).toBe('Customer interview: Acme');
    expect(byId.recording_files.map((file) => file.file_type)).toEqual(['MP4', 'M4A', 'TRANSCRIPT']);
    const byUuid = await client.getMeetingRecordings(token, weekly.uuid);
    expect(byUuid.id).toBe(weekly.id);
    expect(zoom.requests.at(-1)?.path).toBe('/v2/meetings/4444AAAiAAAAAiAiAiiAii%3D%3D/recordings');
  });

  it('double-encodes a UUID that starts with a slash', async () => {
    const recording = await client.getMeetingRecordings(zoom.issueAccessToken(), slashy.uuid);
    expect(recording.topic).toBe('Slashy');
    expect(zoom.requests.at(-1)?.path).toBe('/v2/meetings/%252FajXp112QmuoKj4854875%253D%253D/recordings');
    expect(encodeMeetingId('abc//def=')).toBe('abc%252F%252Fdef%253D');
    expect(encodeMeetingId('abc+def=')).toBe('abc%2Bdef%3D');
  });

  it('answers 3301 for a meeting without recordings', async () => {
    expect(await zoomError(client.getMeetingRecordings(zoom.issueAccessToken(), 999))).toMatchObject({
      code: '3301',
      status: 404,
    });
  });
});

describe('recording files', () => {
  it('picks the transcript and prefers audio over video', () => {
    const recording = zoom.recordingOf(weekly);
    expect(findTranscriptFile(recording)?.id).toBe('f-vtt');
    expect(findMediaFile(recording)?.id).toBe('f-audio');
    expect(
      findMediaFile({ recording_files: recording.recording_files.filter((file) => file.file_type !== 'M4A') })?.id,
    ).toBe('f-video');
    expect(findTranscriptFile({ recording_files: [] })).toBeNull();
  });

  it('streams a file with the webhook download token as bearer', async () => {
    const file = zoom.recordingOf(weekly).recording_files.find((candidate) => candidate.id === 'f-audio')!;
    const download = await client.downloadRecordingFile(file.download_url, zoom.downloadToken);
    expect(download.contentType).toBe('audio/mp4');
    expect(download.contentLength).toBe(11);
    expect(await new Response(download.body).text()).toBe('audio-bytes');
    const request = zoom.requests.at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${zoom.downloadToken}`);
    expect(request?.query).toEqual({});
  });

  it('reads a transcript as text, with an access token too', async () => {
    const file = findTranscriptFile(zoom.recordingOf(weekly))!;
    expect(await client.downloadTranscript(file.download_url, zoom.issueAccessToken())).toBe(transcript);
  });

  it('refuses a transcript larger than the limit', async () => {
    const file = findTranscriptFile(zoom.recordingOf(weekly))!;
    expect(await zoomError(client.downloadTranscript(file.download_url, zoom.downloadToken, 10))).toMatchObject({
      code: 'transcript_too_large',
    });
  });

  it('reports a refused download token', async () => {
    const file = findTranscriptFile(zoom.recordingOf(weekly))!;
    expect(await zoomError(client.downloadRecordingFile(file.download_url, 'stale'))).toMatchObject({
      code: '124',
      status: 401,
    });
  });
});

it('calls only the fetch it was given', () => {
  expect(fetchCalls).toBe(zoom.requests.length);
});
