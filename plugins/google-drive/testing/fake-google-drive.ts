import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recordRequest, type RecordedRequest } from '@fieldbook/extensions-sdk/testing';

export type { RecordedRequest };

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  /** The bytes of a stored file, or the text a Google file exports to (text/plain, text/csv). */
  content: string | Uint8Array;
  modifiedTime?: string;
  /** Files in a shared drive are found only with `supportsAllDrives=true`. */
  sharedDrive?: boolean;
}

export interface FakeGoogleDriveOptions {
  clientId?: string;
  clientSecret?: string;
  /** When set, the token endpoint refuses any other `redirect_uri`. */
  redirectUri?: string;
  /** Authorization codes the token endpoint accepts, each once. */
  codes?: string[];
  files?: FakeDriveFile[];
  /** Drive refuses exports larger than this (10 MB in Drive). */
  exportLimitBytes?: number;
}

export interface FakeGoogleDrive {
  /** Root for both `baseUrl` and `oauthBaseUrl` of the client. */
  url: string;
  requests: RecordedRequest[];
  files: FakeDriveFile[];
  addCode(code: string): void;
  /** An access token the API accepts, without going through OAuth. */
  issueAccessToken(): string;
  /** The refresh token issued with the first consent. */
  refreshToken: string;
  close(): Promise<void>;
}

const EXPORTS: Record<string, string[]> = {
  'application/vnd.google-apps.document': ['application/pdf', 'text/plain', 'text/html'],
  'application/vnd.google-apps.spreadsheet': ['text/csv', 'application/pdf'],
  'application/vnd.google-apps.presentation': ['application/pdf', 'text/plain'],
  'application/vnd.google-apps.drawing': ['application/pdf', 'image/png'],
};

type Reply = { status: number; json?: unknown; bytes?: Uint8Array; contentType?: string };

/** Starts a local Google Drive v3 and OAuth token endpoint on 127.0.0.1. */
export async function startFakeGoogleDrive(options: FakeGoogleDriveOptions = {}): Promise<FakeGoogleDrive> {
  const clientId = options.clientId ?? 'fake-client.apps.googleusercontent.com';
  const clientSecret = options.clientSecret ?? 'fake-google-secret';
  const codes = new Set(options.codes ?? ['google-code']);
  const files = options.files ?? [];
  const exportLimit = options.exportLimitBytes ?? 10 * 1024 * 1024;
  const refreshToken = '1//fake-refresh-token';
  const accessTokens = new Set<string>();
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const issueAccessToken = (): string => {
    counter += 1;
    const token = `ya29.fake-access-${counter}`;
    accessTokens.add(token);
    return token;
  };

  const driveError = (
    status: number,
    reason: string,
    message: string,
    location?: { location: string; locationType: string },
    statusName?: string,
  ): Reply => ({
    status,
    json: {
      error: {
        code: status,
        message,
        errors: [{ message, domain: 'global', reason, ...location }],
        ...(statusName ? { status: statusName } : {}),
      },
    },
  });

  function oauthToken(params: Record<string, string>): Reply {
    if (params.client_id !== clientId || params.client_secret !== clientSecret) {
      return { status: 401, json: { error: 'invalid_client', error_description: 'Unauthorized' } };
    }
    if (params.grant_type === 'authorization_code') {
      if (!params.code || !codes.has(params.code))
        return { status: 400, json: { error: 'invalid_grant', error_description: 'Malformed auth code.' } };
      if (options.redirectUri !== undefined && params.redirect_uri !== options.redirectUri) {
        return { status: 400, json: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } };
      }
      codes.delete(params.code);
      return {
        status: 200,
        json: {
          access_token: issueAccessToken(),
          expires_in: 3599,
          refresh_token: refreshToken,
          scope: 'https://www.googleapis.com/auth/drive.readonly',
          token_type: 'Bearer',
        },
      };
    }
    if (params.grant_type === 'refresh_token') {
      if (params.refresh_token !== refreshToken)
        return {
          status: 400,
          json: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
        };
      return {
        status: 200,
        json: {
          access_token: issueAccessToken(),
          expires_in: 3599,
          scope: 'https://www.googleapis.com/auth/drive.readonly',
          token_type: 'Bearer',
        },
      };
    }
    return {
      status: 400,
      json: { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${params.grant_type ?? ''}` },
    };
  }

  function metadata(file: FakeDriveFile, fields: string | undefined): Record<string, unknown> {
    const isGoogle = file.mimeType.startsWith('application/vnd.google-apps.');
    const docsPath = {
      'application/vnd.google-apps.document': 'document',
      'application/vnd.google-apps.spreadsheet': 'spreadsheets',
      'application/vnd.google-apps.presentation': 'presentation',
    }[file.mimeType];
    const all: Record<string, unknown> = {
      kind: 'drive#file',
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      // Drive sends int64 as strings and no size at all for Google files.
      ...(isGoogle ? {} : { size: String(Buffer.byteLength(file.content)) }),
      modifiedTime: file.modifiedTime ?? '2025-02-01T12:00:00.000Z',
      webViewLink: docsPath
        ? `https://docs.google.com/${docsPath}/d/${file.id}/edit?usp=drivesdk`
        : `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
    };
    const wanted = fields ? fields.split(',').map((field) => field.trim()) : ['kind', 'id', 'name', 'mimeType'];
    return Object.fromEntries(Object.entries(all).filter(([key]) => wanted.includes(key)));
  }

  function route(req: RecordedRequest): Reply {
    if (req.method === 'POST' && req.path === '/token')
      return oauthToken({ ...(req.body as Record<string, string> | null) });
    const match = /^\/drive\/v3\/files\/([^/]+)(\/export)?$/.exec(req.path);
    if (req.method !== 'GET' || !match)
      return {
        status: 404,
        json: {
          error: {
            code: 404,
            message: 'Not Found',
            errors: [{ message: 'Not Found', domain: 'global', reason: 'notFound' }],
          },
        },
      };

    const header = req.headers.authorization;
    const auth = { location: 'Authorization', locationType: 'header' };
    if (!header?.startsWith('Bearer ')) {
      return driveError(
        401,
        'required',
        'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        auth,
        'UNAUTHENTICATED',
      );
    }
    if (!accessTokens.has(header.slice(7))) {
      return driveError(
        401,
        'authError',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        auth,
        'UNAUTHENTICATED',
      );
    }

    const id = decodeURIComponent(match[1]!);
    const isExport = match[2] !== undefined;
    const file = files.find((candidate) => candidate.id === id);
    // files.export has no supportsAllDrives parameter; files.get needs it for shared drives.
    if (!file || (file.sharedDrive && !isExport && req.query.supportsAllDrives !== 'true')) {
      return driveError(404, 'notFound', `File not found: ${id}.`, { location: 'fileId', locationType: 'parameter' });
    }
    const isGoogle = file.mimeType.startsWith('application/vnd.google-apps.');
    const bytes = typeof file.content === 'string' ? Buffer.from(file.content) : Buffer.from(file.content);

    if (isExport) {
      const mimeType = req.query.mimeType;
      if (!mimeType)
        return driveError(400, 'required', 'Required parameter: mimeType', {
          location: 'mimeType',
          locationType: 'parameter',
        });
      if (!isGoogle)
        return driveError(403, 'fileNotExportable', 'Export only supports Docs Editors files.', {
          location: 'fileId',
          locationType: 'parameter',
        });
      if (!EXPORTS[file.mimeType]?.includes(mimeType))
        return driveError(400, 'badRequest', 'The requested conversion is not supported.', {
          location: 'convertTo',
          locationType: 'parameter',
        });
      const exported =
        mimeType === 'application/pdf'
          ? Buffer.from(`%PDF-1.4\n% ${file.name}\n${bytes.toString('utf8')}\n%%EOF\n`)
          : bytes;
      if (exported.byteLength > exportLimit)
        return driveError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
      return { status: 200, bytes: exported, contentType: mimeType };
    }
    if (req.query.alt === 'media') {
      if (isGoogle) {
        return driveError(
          403,
          'fileNotDownloadable',
          'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
          { location: 'alt', locationType: 'parameter' },
        );
      }
      return { status: 200, bytes, contentType: file.mimeType };
    }
    return { status: 200, json: metadata(file, req.query.fields) };
  }

  const server = createServer((incoming, res) => {
    void recordRequest(incoming).then((req) => {
      requests.push(req);
      send(res, route(req));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    files,
    refreshToken,
    addCode: (code) => void codes.add(code),
    issueAccessToken,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.bytes) {
    res
      .writeHead(reply.status, {
        'content-type': reply.contentType ?? 'application/octet-stream',
        'content-length': String(reply.bytes.byteLength),
      })
      .end(reply.bytes);
    return;
  }
  res.writeHead(reply.status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(reply.json));
}
