import { ZoomApiError } from './errors.ts';
import type { ZoomDownload, ZoomRecording, ZoomRecordingFile, ZoomTokens, ZoomUser } from './types.ts';

export const ZOOM_API_BASE_URL = 'https://api.zoom.us/v2';
export const ZOOM_OAUTH_BASE_URL = 'https://zoom.us';

/** Transcripts are text; anything larger than this is not one we should hold in memory. */
const DEFAULT_TRANSCRIPT_MAX_BYTES = 20 * 1024 * 1024;

export interface ZoomClientOptions {
  /** The fetch the plugin host hands the plugin (egress-guarded); the global fetch is never used. */
  fetch: typeof fetch;
  /** REST API root; `https://api.zoom.us/v2` by default. */
  apiBaseUrl?: string;
  /** OAuth root; `https://zoom.us` by default. */
  oauthBaseUrl?: string;
}

export interface ZoomAppCredentials {
  clientId: string;
  clientSecret: string;
}

export interface ZoomClient {
  /** Trades the code of the install redirect for tokens (`grant_type=authorization_code`). */
  exchangeCode(input: ZoomAppCredentials & { code: string; redirectUri: string }): Promise<ZoomTokens>;
  /** New tokens from a refresh token; keep the returned refresh token, the old one stops working. */
  refreshTokens(input: ZoomAppCredentials & { refreshToken: string }): Promise<ZoomTokens>;
  /** Revokes an access token (on uninstall). */
  revokeToken(input: ZoomAppCredentials & { token: string }): Promise<void>;
  /** `GET /users/me`: who installed, and in which account. */
  getMe(accessToken: string): Promise<ZoomUser>;
  /** `GET /meetings/{meetingId}/recordings` by meeting id or UUID (UUIDs are encoded as Zoom asks). */
  getMeetingRecordings(accessToken: string, meetingIdOrUuid: string | number): Promise<ZoomRecording>;
  /** Downloads a recording file from its `download_url` with a webhook `download_token` or an access token. */
  downloadRecordingFile(downloadUrl: string, token: string): Promise<ZoomDownload>;
  /** Downloads a transcript file as text, refusing one larger than `maxBytes` (20 MiB by default). */
  downloadTranscript(downloadUrl: string, token: string, maxBytes?: number): Promise<string>;
}

/**
 * Encodes a meeting id or UUID for a path. Zoom asks for UUIDs that start with `/` or contain `//`
 * to be encoded twice, or its router splits them.
 */
export function encodeMeetingId(meetingIdOrUuid: string | number): string {
  const raw = String(meetingIdOrUuid);
  const once = encodeURIComponent(raw);
  return raw.startsWith('/') || raw.includes('//') ? encodeURIComponent(once) : once;
}

/** The transcript of a recording (WebVTT), when Zoom made one. */
export function findTranscriptFile(recording: Pick<ZoomRecording, 'recording_files'>): ZoomRecordingFile | null {
  return (
    recording.recording_files.find((file) => file.file_type === 'TRANSCRIPT' && file.status !== 'processing') ?? null
  );
}

/** The media to keep for a recording: the audio-only file when there is one (smaller), else a video. */
export function findMediaFile(recording: Pick<ZoomRecording, 'recording_files'>): ZoomRecordingFile | null {
  const done = recording.recording_files.filter((file) => file.status !== 'processing');
  return done.find((file) => file.file_type === 'M4A') ?? done.find((file) => file.file_type === 'MP4') ?? null;
}

/** A client for Zoom's OAuth and REST API speaking Zoom's wire format. */
export function createZoomClient(options: ZoomClientOptions): ZoomClient {
  const apiBaseUrl = (options.apiBaseUrl ?? ZOOM_API_BASE_URL).replace(/\/+$/, '');
  const oauthBaseUrl = (options.oauthBaseUrl ?? ZOOM_OAUTH_BASE_URL).replace(/\/+$/, '');
  const doFetch = options.fetch;

  async function oauth(
    path: 'token' | 'revoke',
    credentials: ZoomAppCredentials,
    form: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const operation = `oauth.${path}`;
    const response = await doFetch(`${oauthBaseUrl}/oauth/${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    });
    const answer = await readJson(response);
    if (!response.ok) {
      // Zoom's `reason` may quote the code it refused, so only its `error` word is kept.
      throw new ZoomApiError(operation, stringOf(answer?.error) ?? `http_${response.status}`, response.status);
    }
    return answer ?? {};
  }

  function tokensFrom(answer: Record<string, unknown>): ZoomTokens {
    const accessToken = stringOf(answer.access_token);
    const refreshToken = stringOf(answer.refresh_token);
    if (!accessToken || !refreshToken) throw new ZoomApiError('oauth.token', 'unexpected_response', 200);
    return {
      accessToken,
      refreshToken,
      expiresIn: typeof answer.expires_in === 'number' ? answer.expires_in : 3600,
      scope: stringOf(answer.scope) ?? '',
      tokenType: stringOf(answer.token_type) ?? 'bearer',
      apiUrl: stringOf(answer.api_url) ?? null,
    };
  }

  async function api<T>(accessToken: string, path: string, query: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${apiBaseUrl}${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await doFetch(url, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    const answer = await readJson(response);
    if (!response.ok)
      throw new ZoomApiError(
        `GET ${path.replace(/\/meetings\/[^/]+/, '/meetings/{meetingId}')}`,
        apiCode(answer, response.status),
        response.status,
      );
    if (!answer) throw new ZoomApiError(`GET ${path}`, 'unexpected_response', response.status);
    return answer as T;
  }

  async function downloadRecordingFile(downloadUrl: string, token: string): Promise<ZoomDownload> {
    // Bearer rather than `?access_token=`: tokens in URLs end up in logs.
    const response = await doFetch(downloadUrl, { headers: { authorization: `Bearer ${token}` }, redirect: 'follow' });
    if (!response.ok || !response.body) {
      const answer = await readJson(response);
      throw new ZoomApiError('recording download', apiCode(answer, response.status), response.status);
    }
    const length = Number(response.headers.get('content-length'));
    return {
      contentType: response.headers.get('content-type'),
      contentLength: response.headers.has('content-length') && Number.isFinite(length) ? length : null,
      body: response.body,
    };
  }

  return {
    async exchangeCode({ code, redirectUri, ...credentials }) {
      return tokensFrom(
        await oauth('token', credentials, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
      );
    },

    async refreshTokens({ refreshToken, ...credentials }) {
      return tokensFrom(
        await oauth('token', credentials, { grant_type: 'refresh_token', refresh_token: refreshToken }),
      );
    },

    async revokeToken({ token, ...credentials }) {
      await oauth('revoke', credentials, { token });
    },

    getMe: (accessToken) => api<ZoomUser>(accessToken, '/users/me'),

    async getMeetingRecordings(accessToken, meetingIdOrUuid) {
      const recording = await api<ZoomRecording>(
        accessToken,
        `/meetings/${encodeMeetingId(meetingIdOrUuid)}/recordings`,
      );
      return {
        ...recording,
        recording_files: Array.isArray(recording.recording_files) ? recording.recording_files : [],
      };
    },

    downloadRecordingFile,

    async downloadTranscript(downloadUrl, token, maxBytes = DEFAULT_TRANSCRIPT_MAX_BYTES) {
      const download = await downloadRecordingFile(downloadUrl, token);
      if (download.contentLength !== null && download.contentLength > maxBytes) {
        await download.body.cancel();
        throw new ZoomApiError('recording download', 'transcript_too_large', 200);
      }
      const reader = download.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        size += part.value.byteLength;
        if (size > maxBytes) {
          await reader.cancel();
          throw new ZoomApiError('recording download', 'transcript_too_large', 200);
        }
        chunks.push(part.value);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

async function readJson(response: Response): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await response.text());
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function apiCode(answer: Record<string, unknown> | null, status: number): string {
  const code = answer?.code;
  return typeof code === 'number' || typeof code === 'string' ? String(code) : `http_${status}`;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
