import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHost, type GqlAnswer, type TestHost } from '@fieldbook/extensions-sdk/testing';
import { startFakeGoogleDrive, type FakeGoogleDrive } from '../testing/fake-google-drive.ts';

const DOC_ID = '1DocAbCdEfGhIjKlMnOpQrStUv';
const SHEET_ID = '1SheetAbCdEfGhIjKlMnOpQr';
const TEXT_ID = '1TxtAbCdEfGhIjKlMnOpQrSt';
const PDF_ID = '1PdfAbCdEfGhIjKlMnOpQrSt';

let drive: FakeGoogleDrive;
let host: TestHost;
let projectId: string;

beforeAll(async () => {
  drive = await startFakeGoogleDrive({
    clientId: 'drive-client.apps.googleusercontent.com',
    clientSecret: 'drive-client-secret',
    codes: ['google-code'],
    redirectUri: 'http://localhost:3000/account/integration/oauth/google-drive',
    files: [
      {
        id: DOC_ID,
        name: 'Interview with Priya',
        mimeType: 'application/vnd.google-apps.document',
        content: 'Priya said exports are slow.\r\nShe wants scheduled reports.',
        modifiedTime: '2025-02-03T10:00:00.000Z',
      },
      {
        id: SHEET_ID,
        name: 'Survey answers',
        mimeType: 'application/vnd.google-apps.spreadsheet',
        content: 'name,answer\r\nAna,Exports time out\r\nBo,"Needs filters, badly"\r\n',
      },
      {
        id: TEXT_ID,
        name: 'field-notes.txt',
        mimeType: 'text/plain',
        content: 'Visited the Lyon office.\nThey print every report.',
        sharedDrive: true,
      },
      { id: PDF_ID, name: 'Contract.pdf', mimeType: 'application/pdf', content: '%PDF-1.4 not really' },
    ],
  });
  // This package's folder, loaded as Fieldbook loads an installed plugin: bundled into a sandbox of its own.
  host = await createTestHost({
    pluginFolders: [new URL('..', import.meta.url)],
    plugins: [],
    env: {
      GOOGLE_DRIVE_CLIENT_ID: 'drive-client.apps.googleusercontent.com',
      GOOGLE_DRIVE_CLIENT_SECRET: 'drive-client-secret',
      GOOGLE_DRIVE_API_URL: drive.url,
      GOOGLE_OAUTH_URL: `${drive.url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${drive.url}/token`,
    },
  });
  await host.signUpAdmin();
  projectId = await host.createProject('Research inbox');
  await host.install('google-drive');
  await host.enable('google-drive', projectId);
});

afterAll(async () => {
  await host?.close();
  await drive?.close();
});

const importLink = (url: string, project = projectId) =>
  host.gql<{ googleDriveImport: { queued: boolean; fileId: string } }>(
    `mutation($p: ID!, $u: String!) { googleDriveImport(projectId: $p, url: $u) { queued fileId } }`,
    { p: project, u: url },
  );

const firstError = (answer: GqlAnswer<unknown>) => answer.errors?.[0];
const apiRequests = () => drive.requests.filter((r) => r.path.startsWith('/drive/'));

describe('before anything is imported', () => {
  it('refuses a link that is not a Google Drive one, naming the field, and reads nothing', async () => {
    for (const url of [
      'https://example.com/document/d/1DocAbCdEfGhIjKlMnOpQrStUv/edit',
      'not a link',
      'https://docs.google.com/forms/d/1DocAbCdEfGhIjKlMnOpQrStUv/edit',
    ]) {
      const answer = await importLink(url);
      expect(answer.data).toBeNull();
      expect(firstError(answer)?.message).toBe('Not a Google Drive URL');
      expect(firstError(answer)?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'url' });
    }
    await host.drainJobs();
    expect(apiRequests()).toEqual([]);
  });

  it('asks a person who has not connected Google Drive to connect it first', async () => {
    const answer = await importLink(`https://docs.google.com/document/d/${DOC_ID}/edit`);
    expect(answer.data).toBeNull();
    expect(firstError(answer)?.message).toMatch(/^Connect Google Drive first/);
    expect(firstError(answer)?.extensions).toMatchObject({ errorCode: 'INVALID_OPERATION', humanReadable: true });
    await host.drainJobs();
    expect(apiRequests()).toEqual([]);
    expect(await host.notes(projectId)).toEqual([]);
  });
});

describe('connecting one’s own Google Drive', () => {
  it('asks Google for read-only Drive and email with offline access, and stores the person’s connection', async () => {
    const { authorizeUrl, cookie } = await host.startAuthorization('google-drive');
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${drive.url}/o/oauth2/v2/auth`);
    expect(authorizeUrl.searchParams.get('scope')?.split(' ')).toEqual([
      'https://www.googleapis.com/auth/drive.readonly',
      'email',
    ]);
    expect(authorizeUrl.searchParams.get('access_type')).toBe('offline');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(
      'http://localhost:3000/account/integration/oauth/google-drive',
    );
    const state = authorizeUrl.searchParams.get('state')!;

    const res = await fetch(
      `${host.url}/account/integration/oauth/google-drive?${new URLSearchParams({ code: 'google-code', state })}`,
      {
        headers: { cookie },
        redirect: 'manual',
      },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/account\/integration\/oauth\/google-drive\/confirm/);
    expect(drive.requests.find((r) => r.path === '/token')?.body).toMatchObject({
      grant_type: 'authorization_code',
      code: 'google-code',
    });

    const mine = await host.gql<{
      myIntegrations: Array<{ plugin: { id: string }; connectedAccount: { label: string | null } | null }>;
    }>(`{ myIntegrations { plugin { id } connectedAccount { label } } }`);
    expect(mine.errors).toBeUndefined();
    expect(mine.data!.myIntegrations.find((i) => i.plugin.id === 'google-drive')?.connectedAccount).not.toBeNull();
  });
});

describe('importing a file', () => {
  it('turns a Google Doc into a note with the doc’s text, exported as plain text', async () => {
    const answer = await importLink(`https://docs.google.com/document/d/${DOC_ID}/edit?usp=sharing`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data!.googleDriveImport).toEqual({ queued: true, fileId: DOC_ID });
    await host.drainJobs();

    const notes = await host.notes(projectId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.title).toBe('Interview with Priya');
    expect(notes[0]!.contentText).toContain('Priya said exports are slow.');
    expect(notes[0]!.contentText).toContain('She wants scheduled reports.');
    expect(notes[0]!.contentText).toContain(`https://docs.google.com/document/d/${DOC_ID}/edit`);

    const metadata = drive.requests.find((r) => r.path === `/drive/v3/files/${DOC_ID}`);
    expect(metadata?.query).toMatchObject({ supportsAllDrives: 'true' });
    expect(metadata?.query.fields).toContain('modifiedTime');
    const exported = drive.requests.filter((r) => r.path === `/drive/v3/files/${DOC_ID}/export`);
    expect(exported.map((r) => r.query.mimeType)).toEqual(['text/plain']);
  });

  it('imports the same version of a file only once', async () => {
    expect((await importLink(`https://drive.google.com/open?id=${DOC_ID}`)).errors).toBeUndefined();
    await host.drainJobs();
    expect((await host.notes(projectId)).filter((n) => n.title === 'Interview with Priya')).toHaveLength(1);
  });

  it('turns a Sheet into its CSV rows, one line each', async () => {
    expect((await importLink(`https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0`)).errors).toBeUndefined();
    await host.drainJobs();
    const note = (await host.notes(projectId)).find((n) => n.title === 'Survey answers');
    expect(note).toBeDefined();
    const lines = note!.contentText.split(/\n+/);
    expect(lines.slice(0, 3)).toEqual(['name,answer', 'Ana,Exports time out', 'Bo,"Needs filters, badly"']);
    const exported = drive.requests.filter((r) => r.path === `/drive/v3/files/${SHEET_ID}/export`);
    expect(exported.map((r) => r.query.mimeType)).toEqual(['text/csv']);
  });

  it('downloads a text file from a shared drive with alt=media and supportsAllDrives', async () => {
    expect((await importLink(`https://drive.google.com/file/d/${TEXT_ID}/view?usp=drive_link`)).errors).toBeUndefined();
    await host.drainJobs();
    const note = (await host.notes(projectId)).find((n) => n.title === 'field-notes.txt');
    expect(note?.contentText).toContain('They print every report.');
    const media = drive.requests.filter((r) => r.path === `/drive/v3/files/${TEXT_ID}` && r.query.alt === 'media');
    expect(media.map((r) => r.query)).toEqual([{ alt: 'media', supportsAllDrives: 'true' }]);
  });

  it('links a PDF rather than reading it', async () => {
    expect((await importLink(`https://drive.google.com/file/d/${PDF_ID}/view`)).errors).toBeUndefined();
    await host.drainJobs();
    const note = (await host.notes(projectId)).find((n) => n.title === 'Contract.pdf');
    expect(note?.contentText).toContain(`https://drive.google.com/file/d/${PDF_ID}/view`);
    expect(
      drive.requests.filter(
        (r) =>
          r.path.startsWith(`/drive/v3/files/${PDF_ID}`) && (r.query.alt === 'media' || r.path.endsWith('/export')),
      ),
    ).toEqual([]);
  });

  it('refuses a project the plugin is not enabled on, naming the field', async () => {
    const other = await host.createProject('Not for Drive');
    const answer = await importLink(`https://docs.google.com/document/d/${DOC_ID}/edit`, other);
    expect(firstError(answer)?.extensions).toMatchObject({ field: 'projectId' });
    await host.drainJobs();
    expect(await host.notes(other)).toEqual([]);
  });
});
