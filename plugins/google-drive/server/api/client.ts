import { DriveApiError } from './errors.ts';
import type { DriveDownload, DriveFile, GoogleTokens } from './types.ts';

export const GOOGLE_API_BASE_URL = 'https://www.googleapis.com';
export const GOOGLE_OAUTH_BASE_URL = 'https://oauth2.googleapis.com';

const FILE_FIELDS = 'id,name,mimeType,size,modifiedTime,webViewLink';

/** Google Workspace types and what each is exported to; everything else is downloaded as is. */
export const GOOGLE_MIME_TYPES = {
  document: 'application/vnd.google-apps.document',
  spreadsheet: 'application/vnd.google-apps.spreadsheet',
  presentation: 'application/vnd.google-apps.presentation',
  drawing: 'application/vnd.google-apps.drawing',
} as const;

export interface DriveClientOptions {
  /** The fetch the plugin host hands the plugin (egress-guarded); the global fetch is never used. */
  fetch: typeof fetch;
  /** API root; `https://www.googleapis.com` by default. */
  baseUrl?: string;
  /** OAuth root; `https://oauth2.googleapis.com` by default. */
  oauthBaseUrl?: string;
}

export interface GoogleAppCredentials {
  clientId: string;
  clientSecret: string;
}

export interface DriveContent {
  file: DriveFile;
  /** The type of the bytes in `download`: the file's own, or the export format. */
  mimeType: string;
  download: DriveDownload;
}

export interface DriveClient {
  exchangeCode(input: GoogleAppCredentials & { code: string; redirectUri: string }): Promise<GoogleTokens>;
  refreshAccessToken(input: GoogleAppCredentials & { refreshToken: string }): Promise<GoogleTokens>;
  /** `files.get` metadata (shared drives included). */
  getFile(accessToken: string, fileId: string): Promise<DriveFile>;
  /** `files.get` with `alt=media`: the bytes of a stored (non-Google) file. */
  download(accessToken: string, fileId: string): Promise<DriveDownload>;
  /** `files.export`: a Google Doc, Sheet or Slides deck converted to `mimeType`. */
  exportFile(accessToken: string, fileId: string, mimeType: string): Promise<DriveDownload>;
  /** The content of a file: exported when it is a Google file, downloaded otherwise. */
  readContent(
    accessToken: string,
    fileOrId: DriveFile | string,
    options?: { preferText?: boolean },
  ): Promise<DriveContent>;
}

/**
 * The export format for a Google file: Sheets to CSV, Docs and Slides to PDF (or plain text when
 * `preferText`, as a note wants), drawings to PDF. Null when the file is not exportable and should
 * be downloaded as is (or, for forms and folders, cannot be read at all).
 */
export function exportMimeTypeFor(fileMimeType: string, options: { preferText?: boolean } = {}): string | null {
  switch (fileMimeType) {
    case GOOGLE_MIME_TYPES.spreadsheet:
      return 'text/csv';
    case GOOGLE_MIME_TYPES.document:
    case GOOGLE_MIME_TYPES.presentation:
      return options.preferText ? 'text/plain' : 'application/pdf';
    case GOOGLE_MIME_TYPES.drawing:
      return 'application/pdf';
    default:
      return null;
  }
}

/** A client for the Drive v3 API and Google's OAuth token endpoint. */
export function createDriveClient(options: DriveClientOptions): DriveClient {
  const baseUrl = (options.baseUrl ?? GOOGLE_API_BASE_URL).replace(/\/+$/, '');
  const oauthBaseUrl = (options.oauthBaseUrl ?? GOOGLE_OAUTH_BASE_URL).replace(/\/+$/, '');
  const doFetch = options.fetch;

  async function token(form: Record<string, string>, previousRefreshToken: string | null): Promise<GoogleTokens> {
    const response = await doFetch(`${oauthBaseUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const answer = await readJson(response);
    if (!response.ok) {
      // `error_description` is left out: it is free text from Google.
      const code = typeof answer?.error === 'string' ? answer.error : `http_${response.status}`;
      throw new DriveApiError('oauth.token', code, response.status);
    }
    const accessToken = answer?.access_token;
    if (typeof accessToken !== 'string' || accessToken === '')
      throw new DriveApiError('oauth.token', 'unexpected_response', response.status);
    return {
      accessToken,
      refreshToken: typeof answer?.refresh_token === 'string' ? answer.refresh_token : previousRefreshToken,
      expiresIn: typeof answer?.expires_in === 'number' ? answer.expires_in : 3600,
      scope: typeof answer?.scope === 'string' ? answer.scope : '',
      tokenType: typeof answer?.token_type === 'string' ? answer.token_type : 'Bearer',
      idToken: typeof answer?.id_token === 'string' ? answer.id_token : null,
    };
  }

  async function get(
    operation: string,
    accessToken: string,
    path: string,
    query: Record<string, string>,
  ): Promise<Response> {
    const url = new URL(`${baseUrl}/drive/v3/files/${path}`);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    const response = await doFetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!response.ok)
      throw new DriveApiError(operation, errorReason(await readJson(response), response.status), response.status);
    return response;
  }

  function asDownload(operation: string, response: Response): DriveDownload {
    if (!response.body) throw new DriveApiError(operation, 'unexpected_response', response.status);
    const length = Number(response.headers.get('content-length'));
    return {
      contentType: response.headers.get('content-type'),
      contentLength: response.headers.has('content-length') && Number.isFinite(length) ? length : null,
      body: response.body,
    };
  }

  async function getFile(accessToken: string, fileId: string): Promise<DriveFile> {
    const response = await get('files.get', accessToken, encodeURIComponent(fileId), {
      fields: FILE_FIELDS,
      supportsAllDrives: 'true',
    });
    const answer = await readJson(response);
    if (typeof answer?.id !== 'string' || typeof answer.mimeType !== 'string')
      throw new DriveApiError('files.get', 'unexpected_response', response.status);
    // Drive sends int64 values such as `size` as strings.
    const size = typeof answer.size === 'string' || typeof answer.size === 'number' ? Number(answer.size) : null;
    return {
      id: answer.id,
      name: typeof answer.name === 'string' ? answer.name : '',
      mimeType: answer.mimeType,
      size: size !== null && Number.isFinite(size) ? size : null,
      modifiedTime: typeof answer.modifiedTime === 'string' ? answer.modifiedTime : null,
      webViewLink: typeof answer.webViewLink === 'string' ? answer.webViewLink : null,
    };
  }

  async function download(accessToken: string, fileId: string): Promise<DriveDownload> {
    return asDownload(
      'files.get',
      await get('files.get', accessToken, encodeURIComponent(fileId), { alt: 'media', supportsAllDrives: 'true' }),
    );
  }

  async function exportFile(accessToken: string, fileId: string, mimeType: string): Promise<DriveDownload> {
    return asDownload(
      'files.export',
      await get('files.export', accessToken, `${encodeURIComponent(fileId)}/export`, { mimeType }),
    );
  }

  return {
    exchangeCode: ({ clientId, clientSecret, code, redirectUri }) =>
      token(
        {
          grant_type: 'authorization_code',
          code,
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uri: redirectUri,
        },
        null,
      ),

    refreshAccessToken: ({ clientId, clientSecret, refreshToken }) =>
      token(
        { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, client_secret: clientSecret },
        refreshToken,
      ),

    getFile,
    download,
    exportFile,

    async readContent(accessToken, fileOrId, readOptions = {}) {
      const file = typeof fileOrId === 'string' ? await getFile(accessToken, fileOrId) : fileOrId;
      const exportType = exportMimeTypeFor(file.mimeType, readOptions);
      if (exportType)
        return { file, mimeType: exportType, download: await exportFile(accessToken, file.id, exportType) };
      if (file.mimeType.startsWith('application/vnd.google-apps.')) {
        // Forms, folders, shortcuts and sites have no content Drive can hand over.
        throw new DriveApiError('files.get', 'fileNotDownloadable', 403);
      }
      return { file, mimeType: file.mimeType, download: await download(accessToken, file.id) };
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

/** Drive's error body is `{ error: { code, message, errors: [{ reason, ... }], status? } }`. */
function errorReason(answer: Record<string, unknown> | null, status: number): string {
  const error = answer?.error;
  if (error && typeof error === 'object') {
    const { errors, status: statusName } = error as { errors?: Array<{ reason?: unknown }>; status?: unknown };
    const reason = Array.isArray(errors) ? errors[0]?.reason : undefined;
    if (typeof reason === 'string') return reason;
    if (typeof statusName === 'string') return statusName;
  }
  return `http_${status}`;
}
