import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGoogleDrive, type FakeGoogleDrive } from '../../testing/fake-google-drive.ts';
import { createDriveClient, exportMimeTypeFor, type DriveClient } from './client.ts';
import { DriveApiError } from './errors.ts';
import type { DriveDownload } from './types.ts';

const credentials = { clientId: 'cid.apps.googleusercontent.com', clientSecret: 'g-secret' };
const redirectUri = 'https://fieldbook.test/google-drive/callback';

let drive: FakeGoogleDrive;
let client: DriveClient;
let token: string;
let fetchCalls = 0;

beforeAll(async () => {
  drive = await startFakeGoogleDrive({
    ...credentials,
    redirectUri,
    codes: ['g-code'],
    exportLimitBytes: 1000,
    files: [
      { id: 'pdf-file-0001', name: 'Interview notes.pdf', mimeType: 'application/pdf', content: '%PDF-1.7 interview' },
      {
        id: 'doc-file-0001',
        name: 'Research plan',
        mimeType: 'application/vnd.google-apps.document',
        content: 'Goals: learn why exports fail',
      },
      {
        id: 'sheet-file-01',
        name: 'Survey',
        mimeType: 'application/vnd.google-apps.spreadsheet',
        content: 'name,score\nAda,9\n',
      },
      {
        id: 'slides-file-1',
        name: 'Readout',
        mimeType: 'application/vnd.google-apps.presentation',
        content: 'Slide 1: Findings',
      },
      { id: 'form-file-001', name: 'Screener', mimeType: 'application/vnd.google-apps.form', content: '' },
      {
        id: 'huge-doc-0001',
        name: 'Huge',
        mimeType: 'application/vnd.google-apps.document',
        content: 'x'.repeat(2000),
      },
      { id: 'shared-file-1', name: 'Team audio.m4a', mimeType: 'audio/mp4', content: 'audio', sharedDrive: true },
    ],
  });
  client = createDriveClient({
    baseUrl: drive.url,
    oauthBaseUrl: drive.url,
    fetch: (input, init) => {
      fetchCalls += 1;
      return fetch(input, init);
    },
  });
  token = drive.issueAccessToken();
});

afterAll(() => drive.close());

async function driveError(promise: Promise<unknown>): Promise<DriveApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DriveApiError);
  return error as DriveApiError;
}

const text = (download: DriveDownload) => new Response(download.body).text();

describe('OAuth', () => {
  it('exchanges the code at the token endpoint', async () => {
    const tokens = await client.exchangeCode({ ...credentials, code: 'g-code', redirectUri });
    expect(tokens).toMatchObject({
      accessToken: expect.stringMatching(/^ya29\./),
      refreshToken: drive.refreshToken,
      tokenType: 'Bearer',
      expiresIn: 3599,
    });
    const request = drive.requests.at(-1);
    expect([request?.method, request?.path, request?.headers['content-type']]).toEqual([
      'POST',
      '/token',
      'application/x-www-form-urlencoded',
    ]);
    expect(request?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'g-code',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      redirect_uri: redirectUri,
    });
  });

  it('keeps the refresh token when a refresh does not send a new one', async () => {
    const tokens = await client.refreshAccessToken({ ...credentials, refreshToken: drive.refreshToken });
    expect(tokens.refreshToken).toBe(drive.refreshToken);
    expect(await client.getFile(tokens.accessToken, 'pdf-file-0001')).toMatchObject({ name: 'Interview notes.pdf' });
  });

  it('reports invalid_grant and invalid_client without echoing secrets', async () => {
    const used = await driveError(client.exchangeCode({ ...credentials, code: 'g-code', redirectUri }));
    expect(used).toMatchObject({ code: 'invalid_grant', status: 400, operation: 'oauth.token' });
    expect(used.message).not.toContain('g-code');
    const wrong = await driveError(
      client.refreshAccessToken({ ...credentials, clientSecret: 'nope', refreshToken: drive.refreshToken }),
    );
    expect(wrong).toMatchObject({ code: 'invalid_client', status: 401 });
    expect(wrong.message).not.toContain(drive.refreshToken);
  });
});

describe('files.get', () => {
  it('asks for the listed fields with supportsAllDrives and reads size from its string form', async () => {
    const file = await client.getFile(token, 'pdf-file-0001');
    expect(file).toEqual({
      id: 'pdf-file-0001',
      name: 'Interview notes.pdf',
      mimeType: 'application/pdf',
      size: 18,
      modifiedTime: '2025-02-01T12:00:00.000Z',
      webViewLink: 'https://drive.google.com/file/d/pdf-file-0001/view?usp=drivesdk',
    });
    const request = drive.requests.at(-1);
    expect(request?.path).toBe('/drive/v3/files/pdf-file-0001');
    expect(request?.query).toEqual({
      fields: 'id,name,mimeType,size,modifiedTime,webViewLink',
      supportsAllDrives: 'true',
    });
    expect(request?.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('has no size for a Google Doc', async () => {
    expect(await client.getFile(token, 'doc-file-0001')).toMatchObject({
      size: null,
      webViewLink: 'https://docs.google.com/document/d/doc-file-0001/edit?usp=drivesdk',
    });
  });

  it('finds files in shared drives', async () => {
    expect((await client.getFile(token, 'shared-file-1')).name).toBe('Team audio.m4a');
  });

  it('reports notFound and authError with their HTTP status', async () => {
    expect(await driveError(client.getFile(token, 'missing-file-1'))).toMatchObject({
      code: 'notFound',
      status: 404,
      operation: 'files.get',
    });
    const bad = await driveError(client.getFile('ya29.revoked', 'pdf-file-0001'));
    expect(bad).toMatchObject({ code: 'authError', status: 401 });
    expect(bad.message).not.toContain('ya29.revoked');
  });
});

describe('download and export', () => {
  it('downloads a stored file with alt=media and supportsAllDrives', async () => {
    const download = await client.download(token, 'shared-file-1');
    expect([download.contentType, download.contentLength, await text(download)]).toEqual(['audio/mp4', 5, 'audio']);
    expect(drive.requests.at(-1)?.query).toEqual({ alt: 'media', supportsAllDrives: 'true' });
  });

  it('refuses alt=media on a Google Doc the way Drive does', async () => {
    expect(await driveError(client.download(token, 'doc-file-0001'))).toMatchObject({
      code: 'fileNotDownloadable',
      status: 403,
    });
  });

  it('exports with the mimeType query', async () => {
    const download = await client.exportFile(token, 'sheet-file-01', 'text/csv');
    expect(await text(download)).toBe('name,score\nAda,9\n');
    const request = drive.requests.at(-1);
    expect(request?.path).toBe('/drive/v3/files/sheet-file-01/export');
    expect(request?.query).toEqual({ mimeType: 'text/csv' });
  });

  it('reports the export errors Drive answers', async () => {
    expect(await driveError(client.exportFile(token, 'pdf-file-0001', 'text/plain'))).toMatchObject({
      code: 'fileNotExportable',
      status: 403,
      operation: 'files.export',
    });
    expect(await driveError(client.exportFile(token, 'sheet-file-01', 'text/plain'))).toMatchObject({
      code: 'badRequest',
      status: 400,
    });
    expect(await driveError(client.exportFile(token, 'huge-doc-0001', 'text/plain'))).toMatchObject({
      code: 'exportSizeLimitExceeded',
      status: 403,
    });
  });
});

describe('choosing how to read a file', () => {
  it.each([
    ['application/vnd.google-apps.spreadsheet', false, 'text/csv'],
    ['application/vnd.google-apps.spreadsheet', true, 'text/csv'],
    ['application/vnd.google-apps.document', false, 'application/pdf'],
    ['application/vnd.google-apps.document', true, 'text/plain'],
    ['application/vnd.google-apps.presentation', false, 'application/pdf'],
    ['application/vnd.google-apps.drawing', true, 'application/pdf'],
    ['application/vnd.google-apps.form', false, null],
    ['application/pdf', false, null],
    ['audio/mp4', true, null],
  ])('exports %s (preferText %s) as %s', (mimeType, preferText, expected) => {
    expect(exportMimeTypeFor(mimeType, { preferText })).toBe(expected);
  });

  it('reads a Doc as text for a note, a Sheet as CSV, Slides as PDF and a PDF as itself', async () => {
    const doc = await client.readContent(token, 'doc-file-0001', { preferText: true });
    expect([doc.file.name, doc.mimeType, await text(doc.download)]).toEqual([
      'Research plan',
      'text/plain',
      'Goals: learn why exports fail',
    ]);
    const sheet = await client.readContent(token, 'sheet-file-01');
    expect([sheet.mimeType, await text(sheet.download)]).toEqual(['text/csv', 'name,score\nAda,9\n']);
    const slides = await client.readContent(token, 'slides-file-1');
    expect(slides.mimeType).toBe('application/pdf');
    expect(await text(slides.download)).toMatch(/^%PDF-1\.4/);
    const pdf = await client.readContent(token, await client.getFile(token, 'pdf-file-0001'));
    expect([pdf.mimeType, await text(pdf.download)]).toEqual(['application/pdf', '%PDF-1.7 interview']);
  });

  it('refuses a Google Form, which has no content to read', async () => {
    expect(await driveError(client.readContent(token, 'form-file-001'))).toMatchObject({ code: 'fileNotDownloadable' });
  });
});

it('calls only the fetch it was given', () => {
  expect(fetchCalls).toBe(drive.requests.length);
});
