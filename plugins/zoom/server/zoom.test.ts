import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHost, signZoomRequest, type TestHost } from '@fieldbook/extensions-sdk/testing';
import { startFakeZoom, type FakeZoom, type FakeZoomMeeting } from '../testing/fake-zoom.ts';

const SECRET_TOKEN = 'zoom-webhook-secret-token';

const TRANSCRIPT = `WEBVTT

1
00:00:01.000 --> 00:00:04.000
Dana Researcher: Thanks for joining. How do you export reports today?

2
00:00:04.500 --> 00:00:09.000
Sam Customer: I download a CSV every Monday.

3
00:00:09.000 --> 00:00:12.000
Sam Customer: It times out for big projects.
`;

const interview: FakeZoomMeeting = {
  uuid: '4444AAAiAAAAAiAiAiiAii==',
  id: 85746065432,
  topic: 'Customer interview: reporting',
  start_time: '2025-03-04T14:00:00Z',
  duration: 32,
  files: [
    { id: 'mp4-1', file_type: 'MP4', file_extension: 'MP4', content: 'not really a video', contentType: 'video/mp4' },
    { id: 'vtt-1', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: TRANSCRIPT, contentType: 'text/vtt' },
  ],
};
const standup: FakeZoomMeeting = {
  uuid: '/ajXp112QmuoKj4854875==',
  id: 93847561234,
  topic: 'Weekly research sync',
  start_time: '2025-03-05T09:30:00Z',
  duration: 15,
  files: [
    { id: 'm4a-2', file_type: 'M4A', file_extension: 'M4A', content: 'not really audio', contentType: 'audio/mp4' },
  ],
};
const afterRemoval: FakeZoomMeeting = {
  uuid: 'zzNewMeetingAfterRemoval==',
  id: 91111111111,
  topic: 'Interview after removal',
  start_time: '2025-03-06T10:00:00Z',
  files: [{ id: 'vtt-3', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: TRANSCRIPT }],
};

const withoutToken: FakeZoomMeeting = {
  uuid: 'rrRefreshMeetingUuid0001==',
  id: 92222222222,
  topic: 'Usability test, round 2',
  start_time: '2025-03-05T15:00:00Z',
  files: [{ id: 'vtt-4', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: TRANSCRIPT }],
};
const nextDay: FakeZoomMeeting = {
  uuid: 'rrNextDayMeetingUuid0002==',
  id: 93333333333,
  topic: 'Usability test, round 3',
  start_time: '2025-03-06T15:00:00Z',
  files: [{ id: 'vtt-5', file_type: 'TRANSCRIPT', file_extension: 'VTT', content: TRANSCRIPT }],
};

let zoom: FakeZoom;
let host: TestHost;
let projectId: string;

beforeAll(async () => {
  zoom = await startFakeZoom({
    clientId: 'zoom-client-id',
    clientSecret: 'zoom-client-secret',
    secretToken: SECRET_TOKEN,
    codes: ['zoom-code'],
    meetings: [interview, standup, afterRemoval, withoutToken, nextDay],
  });
  // This package's folder, loaded as Fieldbook loads an installed plugin: bundled into a sandbox of its own.
  host = await createTestHost({
    pluginFolders: [new URL('..', import.meta.url)],
    plugins: [],
    env: {
      ZOOM_CLIENT_ID: 'zoom-client-id',
      ZOOM_CLIENT_SECRET: 'zoom-client-secret',
      ZOOM_WEBHOOK_SECRET_TOKEN: SECRET_TOKEN,
      ZOOM_API_URL: zoom.apiUrl,
      ZOOM_OAUTH_URL: zoom.url,
    },
  });
  await host.signUpAdmin();
  projectId = await host.createProject('Interviews');
  await host.install('zoom', { projectId });
  await host.enable('zoom', projectId);
});

afterAll(async () => {
  await host?.close();
  await zoom?.close();
});

const connectedAccount = async () => {
  const answer = await host.gql<{
    plugins: Array<{
      id: string;
      installation: { connectedAccount: { externalId: string | null; label: string | null } | null } | null;
    }>;
  }>(`{ plugins { id installation { connectedAccount { externalId label } } } }`);
  expect(answer.errors).toBeUndefined();
  return answer.data!.plugins.find((p) => p.id === 'zoom')?.installation?.connectedAccount ?? null;
};

const send = (path: string, event: Record<string, unknown>) => {
  const { body, headers } = zoom.signedWebhook(event);
  return host.sendWebhook(path, body, headers);
};

describe('the event notification endpoint', () => {
  it('answers url_validation with the plain token and its HMAC, and stores nothing', async () => {
    const res = await send('/zoom/event-notification', zoom.urlValidationEvent('qgg8vlvZRS6UYooatFL8Aw'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      plainToken: 'qgg8vlvZRS6UYooatFL8Aw',
      encryptedToken: createHmac('sha256', SECRET_TOKEN).update('qgg8vlvZRS6UYooatFL8Aw').digest('hex'),
    });
    expect(await host.storedEvents('zoom')).toEqual([]);
  });

  it('refuses unsigned, wrongly signed and stale deliveries with 401 and stores nothing', async () => {
    const body = JSON.stringify(zoom.recordingCompletedEvent(interview));
    expect((await host.sendWebhook('/zoom/event-notification', body)).status).toBe(401);
    expect(
      (await host.sendWebhook('/zoom/event-notification', body, signZoomRequest(body, 'another-secret'))).status,
    ).toBe(401);
    const stale = signZoomRequest(body, SECRET_TOKEN, { timestamp: Math.floor(Date.now() / 1000) - 900 });
    expect((await host.sendWebhook('/zoom/event-notification', body, stale)).status).toBe(401);
    const deauthorize = JSON.stringify(zoom.deauthorizedEvent());
    expect(
      (await host.sendWebhook('/zoom/deauthorize', deauthorize, signZoomRequest(deauthorize, 'another-secret'))).status,
    ).toBe(401);
    expect(await host.storedEvents('zoom')).toEqual([]);
    expect(zoom.requests.filter((r) => r.path.startsWith('/rec/download'))).toEqual([]);
  });
});

describe('connecting a Zoom account', () => {
  it('sends admins to Zoom and stores the account id as the connection', async () => {
    const { authorizeUrl, cookie } = await host.startAuthorization('zoom');
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${zoom.url}/oauth/authorize`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe('zoom-client-id');
    expect(authorizeUrl.searchParams.get('response_type')).toBe('code');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe('http://localhost:3000/oauth/zoom/authorize');
    const state = authorizeUrl.searchParams.get('state')!;

    const res = await fetch(`${host.url}/oauth/zoom/authorize?${new URLSearchParams({ code: 'zoom-code', state })}`, {
      headers: { cookie },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/settings/integrations?integration=zoom&connected=1');
    const exchange = zoom.requests.find((r) => r.path === '/oauth/token');
    expect(exchange?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'zoom-code',
      redirect_uri: 'http://localhost:3000/oauth/zoom/authorize',
    });
    expect(await connectedAccount()).toEqual({ externalId: zoom.user.account_id, label: 'Hana Host' });
  });
});

describe('a finished recording', () => {
  it('becomes one note with the transcript’s speaker turns, however often Zoom delivers it', async () => {
    const event = zoom.recordingCompletedEvent(interview);
    const first = await send('/zoom/event-notification', event);
    const again = await send('/zoom/event-notification', event);
    // Zoom's own retry of the same recording carries a new event_ts.
    const retried = await send('/zoom/event-notification', { ...event, event_ts: Number(event.event_ts) + 5000 });
    expect([first.status, again.status, retried.status]).toEqual([200, 200, 200]);
    await host.drainJobs();

    const notes = await host.notes(projectId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.title).toBe('Customer interview: reporting');
    const text = notes[0]!.contentText;
    expect(text).toContain('Dana Researcher: Thanks for joining. How do you export reports today?');
    expect(text).toContain('Sam Customer: I download a CSV every Monday. It times out for big projects.');
    expect(text).toMatch(/Recorded Tuesday, 4 March 2025/);
    expect(text.indexOf('Recorded')).toBeLessThan(text.indexOf('Dana Researcher'));
    expect(await host.storedEvents('zoom')).toHaveLength(2);

    const downloads = zoom.requests.filter((r) => r.path === '/rec/download/vtt-1');
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.every((r) => r.headers.authorization === `Bearer ${zoom.downloadToken}`)).toBe(true);
    // Only the transcript is fetched, never the video.
    expect(zoom.requests.filter((r) => r.path === '/rec/download/mp4-1')).toEqual([]);
  });

  it('without a transcript becomes a note with the recording’s details', async () => {
    expect((await send('/zoom/event-notification', zoom.recordingCompletedEvent(standup))).status).toBe(200);
    await host.drainJobs();
    const note = (await host.notes(projectId)).find((n) => n.title === 'Weekly research sync');
    expect(note).toBeDefined();
    expect(note!.contentText).toContain('No transcript came with this recording.');
    expect(note!.contentText).toContain('Duration: 15 minutes');
    expect(note!.contentText).toContain(`${zoom.url}/rec/share/${standup.id}`);
  });
});

describe('a recording event without a download token', () => {
  const withoutDownloadToken = (meeting: FakeZoomMeeting) => {
    const { download_token: _unused, ...event } = zoom.recordingCompletedEvent(meeting);
    return event;
  };

  it('downloads with the account’s access token, refreshing it once Zoom calls it expired, and keeps the new tokens', async () => {
    const exchanged = 'zoom-access-1';
    zoom.expireAccessToken(exchanged);
    expect((await send('/zoom/event-notification', withoutDownloadToken(withoutToken))).status).toBe(200);
    await host.drainJobs();

    const note = (await host.notes(projectId)).find((n) => n.title === 'Usability test, round 2');
    expect(note?.contentText).toContain('Sam Customer: I download a CSV every Monday.');
    const refreshes = zoom.requests.filter(
      (r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token',
    );
    expect(refreshes.map((r) => (r.body as Record<string, string>).refresh_token)).toEqual(['zoom-refresh-1']);
    const downloads = zoom.requests.filter((r) => r.path === '/rec/download/vtt-4').map((r) => r.headers.authorization);
    expect(downloads).toEqual([`Bearer ${exchanged}`, 'Bearer zoom-access-2']);

    // The refreshed tokens were stored: the next recording needs no refresh.
    expect((await send('/zoom/event-notification', withoutDownloadToken(nextDay))).status).toBe(200);
    await host.drainJobs();
    expect((await host.notes(projectId)).some((n) => n.title === 'Usability test, round 3')).toBe(true);
    expect(zoom.requests.filter((r) => r.path === '/rec/download/vtt-5').map((r) => r.headers.authorization)).toEqual([
      'Bearer zoom-access-2',
    ]);
    expect(
      zoom.requests.filter(
        (r) => r.path === '/oauth/token' && (r.body as Record<string, string>).grant_type === 'refresh_token',
      ),
    ).toHaveLength(1);
  });
});

describe('removing the app in Zoom', () => {
  it('forgets the tokens, and later recordings of that account make no note', async () => {
    const res = await send('/zoom/deauthorize', zoom.deauthorizedEvent());
    expect(res.status).toBe(200);
    await host.drainJobs();
    expect(await connectedAccount()).toBeNull();

    const before = (await host.notes(projectId)).length;
    expect((await send('/zoom/event-notification', zoom.recordingCompletedEvent(afterRemoval))).status).toBe(200);
    await host.drainJobs();
    expect(await host.notes(projectId)).toHaveLength(before);
    expect(zoom.requests.filter((r) => r.path === '/rec/download/vtt-3')).toEqual([]);
  });
});
