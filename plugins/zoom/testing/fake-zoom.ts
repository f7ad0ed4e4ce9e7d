import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signZoomRequest, recordRequest, type RecordedRequest } from '@fieldbook/extensions-sdk/testing';

export type { RecordedRequest };
import type { ZoomRecording, ZoomRecordingFileType, ZoomUser } from '../server/api/types.ts';

export interface FakeZoomRecordingFile {
  id: string;
  file_type: ZoomRecordingFileType;
  file_extension: string;
  recording_type?: string;
  status?: 'completed' | 'processing';
  content: string | Uint8Array;
  contentType?: string;
}

export interface FakeZoomMeeting {
  uuid: string;
  id: number;
  topic: string;
  start_time: string;
  duration?: number;
  files: FakeZoomRecordingFile[];
}

export interface FakeZoomOptions {
  clientId?: string;
  clientSecret?: string;
  /** When set, the token endpoint refuses any other `redirect_uri`. */
  redirectUri?: string;
  /** Authorization codes the token endpoint accepts, each once. */
  codes?: string[];
  user?: Partial<ZoomUser>;
  meetings?: FakeZoomMeeting[];
  /** The app's webhook secret token, used to sign deliveries. */
  secretToken?: string;
  /** The `download_token` put in `recording.completed` deliveries. */
  downloadToken?: string;
}

export interface FakeZoom {
  url: string;
  /** REST root to give the client as `apiBaseUrl` (its `oauthBaseUrl` is `url`). */
  apiUrl: string;
  requests: RecordedRequest[];
  user: ZoomUser;
  meetings: FakeZoomMeeting[];
  downloadToken: string;
  addCode(code: string): void;
  /** An access token the API accepts, without going through OAuth. */
  issueAccessToken(): string;
  /** The API answers this token as expired from now on. */
  expireAccessToken(token: string): void;
  /** Whether a token was revoked through `/oauth/revoke`. */
  isRevoked(token: string): boolean;
  /** The recording JSON the API answers for a meeting (download URLs point at this fake). */
  recordingOf(meeting: FakeZoomMeeting): ZoomRecording;
  /** A `recording.completed` delivery for the meeting. */
  recordingCompletedEvent(meeting: FakeZoomMeeting): Record<string, unknown>;
  /** An `app_deauthorized` delivery for the installing user. */
  deauthorizedEvent(): Record<string, unknown>;
  /** An `endpoint.url_validation` delivery. */
  urlValidationEvent(plainToken: string): Record<string, unknown>;
  /** Headers and body of a delivery signed as Zoom signs them. */
  signedWebhook(
    event: Record<string, unknown>,
    timestampSeconds?: number,
  ): { headers: Record<string, string>; body: string };
  close(): Promise<void>;
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/** Starts a local Zoom (OAuth, REST and recording downloads) on 127.0.0.1. */
export async function startFakeZoom(options: FakeZoomOptions = {}): Promise<FakeZoom> {
  const clientId = options.clientId ?? 'fake-zoom-client';
  const clientSecret = options.clientSecret ?? 'fake-zoom-secret';
  const secretToken = options.secretToken ?? 'fake-zoom-webhook-secret';
  const downloadToken = options.downloadToken ?? 'fake-download-token';
  const codes = new Set(options.codes ?? ['zoom-code']);
  const meetings = options.meetings ?? [];
  const user: ZoomUser = {
    id: 'KDcuGIm1QgePTO8WbOqwIQ',
    account_id: 'Q0zpSKlZQ5ajHNmW5bRdzQ',
    email: 'host@example.com',
    first_name: 'Hana',
    last_name: 'Host',
    display_name: 'Hana Host',
    timezone: 'Europe/Paris',
    ...options.user,
  };
  const requests: RecordedRequest[] = [];
  const accessTokens = new Set<string>();
  const expired = new Set<string>();
  const refreshTokens = new Set<string>();
  const revoked = new Set<string>();
  let counter = 0;
  let url = '';

  function issueTokens(): Record<string, unknown> {
    counter += 1;
    const access = `zoom-access-${counter}`;
    const refresh = `zoom-refresh-${counter}`;
    accessTokens.add(access);
    refreshTokens.add(refresh);
    return {
      access_token: access,
      token_type: 'bearer',
      refresh_token: refresh,
      expires_in: 3599,
      scope: 'cloud_recording:read:list_recording_files user:read:user',
      api_url: 'https://api.zoom.us',
    };
  }

  function oauthToken(req: RecordedRequest): Reply {
    const basic = req.headers.authorization?.startsWith('Basic ')
      ? Buffer.from(req.headers.authorization.slice(6), 'base64').toString('utf8')
      : '';
    if (basic !== `${clientId}:${clientSecret}`) {
      return { status: 401, body: { reason: 'Invalid client_id or client_secret', error: 'invalid_client' } };
    }
    // Zoom reads the grant from the form body or the query string.
    const params = { ...req.query, ...(req.body as Record<string, string> | null) };
    if (params.grant_type === 'authorization_code') {
      if (!params.code || !codes.has(params.code))
        return { status: 400, body: { reason: 'Invalid authorization code', error: 'invalid_grant' } };
      if (options.redirectUri !== undefined && params.redirect_uri !== options.redirectUri) {
        return { status: 400, body: { reason: 'Redirect URI mismatch.', error: 'invalid_request' } };
      }
      codes.delete(params.code);
      return { status: 200, body: issueTokens() };
    }
    if (params.grant_type === 'refresh_token') {
      if (!params.refresh_token || !refreshTokens.delete(params.refresh_token)) {
        return { status: 400, body: { reason: 'Invalid Token!', error: 'invalid_request' } };
      }
      return { status: 200, body: issueTokens() };
    }
    return { status: 400, body: { reason: 'unsupported grant type', error: 'unsupported_grant_type' } };
  }

  function bearer(req: RecordedRequest): string | undefined {
    const header = req.headers.authorization;
    return header?.startsWith('Bearer ') ? header.slice(7) : undefined;
  }

  function checkAccess(token: string | undefined): Reply | null {
    if (token && expired.has(token)) return { status: 401, body: { code: 124, message: 'Access token is expired.' } };
    if (!token || !accessTokens.has(token) || revoked.has(token))
      return { status: 401, body: { code: 124, message: 'Invalid access token.' } };
    return null;
  }

  function recordingOf(meeting: FakeZoomMeeting): ZoomRecording {
    const start = Date.parse(meeting.start_time);
    const end = new Date(start + (meeting.duration ?? 30) * 60_000).toISOString().replace('.000', '');
    return {
      uuid: meeting.uuid,
      id: meeting.id,
      account_id: user.account_id,
      host_id: user.id,
      topic: meeting.topic,
      start_time: meeting.start_time,
      duration: meeting.duration ?? 30,
      total_size: meeting.files.reduce((sum, file) => sum + Buffer.byteLength(file.content), 0),
      recording_count: meeting.files.length,
      share_url: `${url}/rec/share/${meeting.id}`,
      recording_files: meeting.files.map((file) => ({
        id: file.id,
        meeting_id: meeting.uuid,
        recording_start: meeting.start_time,
        recording_end: end,
        file_type: file.file_type,
        file_extension: file.file_extension,
        file_size: Buffer.byteLength(file.content),
        play_url: `${url}/rec/play/${file.id}`,
        download_url: `${url}/rec/download/${file.id}`,
        status: file.status ?? 'completed',
        recording_type:
          file.recording_type ??
          (file.file_type === 'TRANSCRIPT' ? 'audio_transcript' : 'shared_screen_with_speaker_view'),
      })),
    };
  }

  function route(req: RecordedRequest): Reply | { file: FakeZoomRecordingFile } {
    if (req.method === 'POST' && req.path === '/oauth/token') return oauthToken(req);
    if (req.method === 'POST' && req.path === '/oauth/revoke') {
      const token = (req.body as Record<string, string> | null)?.token;
      if (token) revoked.add(token);
      return { status: 200, body: { status: 'success' } };
    }
    if (req.method === 'GET' && req.path === '/v2/users/me')
      return checkAccess(bearer(req)) ?? { status: 200, body: user };
    const recordings = /^\/v2\/meetings\/([^/]+)\/recordings$/.exec(req.path);
    if (req.method === 'GET' && recordings) {
      const denied = checkAccess(bearer(req));
      if (denied) return denied;
      // A UUID that needed double encoding arrives still encoded once after the first decode.
      let key = decodeURIComponent(recordings[1]!);
      if (key.includes('%')) key = decodeURIComponent(key);
      const meeting = meetings.find((candidate) => candidate.uuid === key || String(candidate.id) === key);
      if (!meeting) return { status: 404, body: { code: 3301, message: 'This recording does not exist.' } };
      return { status: 200, body: recordingOf(meeting) };
    }
    const download = /^\/rec\/download\/([^/]+)$/.exec(req.path);
    if (req.method === 'GET' && download) {
      const token = bearer(req) ?? req.query.access_token;
      if (token !== downloadToken && checkAccess(token))
        return { status: 401, body: { code: 124, message: 'Invalid access token.' } };
      const file = meetings.flatMap((meeting) => meeting.files).find((candidate) => candidate.id === download[1]);
      if (!file) return { status: 404, body: { code: 3301, message: 'This recording does not exist.' } };
      return { file };
    }
    return { status: 404, body: { code: 404, message: 'Not found' } };
  }

  const server = createServer((incoming, res) => {
    void recordRequest(incoming).then((req) => {
      requests.push(req);
      const reply = route(req);
      if ('file' in reply) {
        const bytes = typeof reply.file.content === 'string' ? Buffer.from(reply.file.content) : reply.file.content;
        res
          .writeHead(200, {
            'content-type': reply.file.contentType ?? 'application/octet-stream',
            'content-length': String(bytes.byteLength),
          })
          .end(bytes);
        return;
      }
      sendJson(res, reply.status, reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (name: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    event: name,
    event_ts: Date.now(),
    payload,
    ...extra,
  });

  return {
    url,
    apiUrl: `${url}/v2`,
    requests,
    user,
    meetings,
    downloadToken,
    addCode: (code) => void codes.add(code),
    issueAccessToken: () => issueTokens().access_token as string,
    expireAccessToken: (token) => void expired.add(token),
    isRevoked: (token) => revoked.has(token),
    recordingOf,
    recordingCompletedEvent: (meeting) =>
      event(
        'recording.completed',
        { account_id: user.account_id, object: recordingOf(meeting) },
        { download_token: downloadToken },
      ),
    deauthorizedEvent: () =>
      event('app_deauthorized', {
        account_id: user.account_id,
        user_id: user.id,
        signature: 'fake-deauthorization-signature',
        deauthorization_time: new Date().toISOString(),
        client_id: clientId,
      }),
    urlValidationEvent: (plainToken) => event('endpoint.url_validation', { plainToken }),
    signedWebhook(body, timestampSeconds = Math.floor(Date.now() / 1000)) {
      const raw = JSON.stringify(body);
      return {
        body: raw,
        headers: {
          'content-type': 'application/json',
          ...signZoomRequest(raw, secretToken, { timestamp: timestampSeconds }),
        },
      };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
}
