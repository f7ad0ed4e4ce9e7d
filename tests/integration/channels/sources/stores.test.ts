import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAppStore, type FakeAppStore } from '../../../../plugins/app-store/testing/fake-app-store.ts';
import type { CustomerReview } from '../../../../plugins/app-store/server/reviews.ts';
import { startFakeGooglePlay, type FakeGooglePlay } from '../../../../plugins/google-play/testing/fake-google-play.ts';
import type { PlayReview } from '../../../../plugins/google-play/server/reviews.ts';
import { failure } from '../../research/content-support.ts';
import {
  connect,
  install,
  points,
  startSourcesFixture,
  syncNow,
  updateSettings,
  type SourcesFixture,
} from './support.ts';

// App Store Connect and Google Play share a fixture: both are review stores, read newest first.
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
const ec = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const rsa = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const appReview = (id: string, rating: number, title: string, body: string, h: number): CustomerReview => ({
  type: 'customerReviews',
  id,
  attributes: {
    rating,
    title,
    body,
    reviewerNickname: `reviewer-${id}`,
    createdDate: hoursAgo(h).toISOString(),
    territory: 'USA',
  },
});
const playReview = (id: string, stars: number, text: string, h: number): PlayReview => ({
  reviewId: id,
  authorName: `Author ${id}`,
  comments: [
    {
      userComment: {
        text,
        lastModified: { seconds: String(Math.floor(hoursAgo(h).getTime() / 1000)) },
        starRating: stars,
        reviewerLanguage: 'en',
        appVersionName: '4.2.0',
      },
    },
    ...(stars < 3
      ? [
          {
            developerComment: {
              text: 'Sorry! A fix is coming.',
              lastModified: { seconds: String(Math.floor(hoursAgo(h).getTime() / 1000) + 60) },
            },
          },
        ]
      : []),
  ],
});

let appStore: FakeAppStore;
let play: FakeGooglePlay;
let f: SourcesFixture;

beforeAll(async () => {
  appStore = await startFakeAppStore({
    issuerId: 'issuer-1',
    keyId: 'KEY123',
    publicKey: ec.publicKey,
    reviews: {
      '1234567890': [
        appReview('r1', 2, 'Crashes', 'Crashes when I open a PDF', 30),
        appReview('r2', 5, 'Great', 'Love the widgets', 20),
        appReview('r3', 4, 'Nice', 'Sync could be faster', 10),
      ],
    },
  });
  play = await startFakeGooglePlay({
    clientEmail: 'play-reader@acme.iam.gserviceaccount.com',
    publicKey: rsa.publicKey,
    reviews: {
      'com.acme.notes': [
        playReview('g1', 1, 'Login loop after update', 50),
        playReview('g2', 4, 'Good offline mode', 40),
        playReview('g3', 5, 'Best notes app', 30),
      ],
    },
  });
  f = await startSourcesFixture(
    [
      fileURLToPath(new URL('../../../../plugins/app-store/', import.meta.url)),
      fileURLToPath(new URL('../../../../plugins/google-play/', import.meta.url)),
    ],
    { APP_STORE_CONNECT_API_URL: appStore.url, GOOGLE_PLAY_API_URL: play.url, GOOGLE_PLAY_TOKEN_URL: play.tokenUrl },
  );
  // Pasted as a settings field keeps them: on one line, and with the JSON key file's \n escapes.
  await install(f.a.admin, 'app-store', {
    issuerId: 'issuer-1',
    keyId: 'KEY123',
    privateKey: ec.privateKey.replace(/\n/g, ' '),
  });
  await install(f.a.admin, 'google-play', {
    clientEmail: 'play-reader@acme.iam.gserviceaccount.com',
    privateKey: rsa.privateKey.replace(/\n/g, '\\n'),
  });
});

afterAll(async () => {
  await f?.close();
  await appStore?.close();
  await play?.close();
});

describe('App Store source', () => {
  let datasetId: string;

  it('refuses an app id that is not one', async () => {
    const err = failure(
      await f.a.contributor.gql(
        'mutation($input: ConnectChannelSourceInput!) { connectChannelSource(input: $input) { id } }',
        {
          input: { channelId: f.channelId, pluginId: 'app-store', kind: 'APP_STORE', settings: { appId: 'com.acme' } },
        },
      ),
    );
    expect(err).toMatchObject({
      message: 'App Store reviews: The Apple ID of an app is a number, e.g. 1234567890.',
      extensions: { errorCode: 'BAD_USER_INPUT', field: 'settings.appId' },
    });
  });

  it('imports reviews signed in with the API key, page by page after a rate limit, with their rating', async () => {
    appStore.rateLimitNext(1, 1);
    const run = await connect(f.a.contributor.gql, {
      channelId: f.channelId,
      pluginId: 'app-store',
      kind: 'APP_STORE',
      settings: { appId: '1234567890' },
    });
    expect(run.error).toBeNull();
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 3, recordsCreated: 3, recordsFailed: 0 });
    datasetId = run.datasetId;
    expect(appStore.requests.map((r) => r.status)).toEqual([429, 200]);
    const stored = await points(f.server, datasetId);
    expect(stored.get('r1')).toMatchObject({ content: 'Crashes\n\nCrashes when I open a PDF' });
    expect(stored.get('r1')!.raw).toMatchObject({
      kind: 'ticket',
      creator: 'reviewer-r1',
      remoteFields: { rating: 2, territory: 'USA' },
    });
    const rating = (await f.server.fieldbook.db
      .owner('channel_fields')
      .where({ channel_id: f.channelId, label: 'Rating' })
      .first()) as { type: string };
    expect(rating.type).toBe('RATING');
  });

  it('reads only reviews newer than the newest it has', async () => {
    appStore.reviews.get('1234567890')!.push(appReview('r4', 3, 'Okay', 'Dark mode please', 1));
    expect(await syncNow(f.a.contributor.gql, datasetId)).toMatchObject({
      status: 'COMPLETED',
      recordsRead: 1,
      recordsCreated: 1,
    });
  });

  it('says in the sync history that App Store Connect refused the key', async () => {
    await updateSettings(f.a.admin, 'app-store', { keyId: 'OTHERKEY' });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({
      status: 'FAILED',
      error:
        'App Store Connect refused the API key (HTTP 401); check the issuer id, key id and private key in Settings → Extensions → App Store.',
    });
  });
});

describe('Google Play source', () => {
  let datasetId: string;

  it('imports reviews with a service account token, waiting out a rate limit, with the reply kept', async () => {
    play.rateLimitNext(1, 1);
    const run = await connect(f.a.contributor.gql, {
      channelId: f.channelId,
      pluginId: 'google-play',
      kind: 'GOOGLE_PLAY',
      settings: { packageName: 'com.acme.notes' },
    });
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 3, recordsCreated: 3, recordsFailed: 0 });
    datasetId = run.datasetId;
    expect(play.requests.map((r) => `${r.status} ${r.path.split('?')[0]}`)).toEqual([
      '200 /token',
      '429 /androidpublisher/v3/applications/com.acme.notes/reviews',
      '200 /androidpublisher/v3/applications/com.acme.notes/reviews',
    ]);
    const stored = await points(f.server, datasetId);
    expect(stored.get('g1')).toMatchObject({ content: 'Login loop after update' });
    expect(stored.get('g1')!.raw).toMatchObject({
      creator: 'Author g1',
      remoteFields: { starRating: 1, developerReply: 'Sorry! A fix is coming.' },
    });
  });

  it('reads only newer reviews at the next sync', async () => {
    play.reviews.get('com.acme.notes')!.push(playReview('g4', 2, 'Widget is blank', 2));
    expect(await syncNow(f.a.contributor.gql, datasetId)).toMatchObject({
      status: 'COMPLETED',
      recordsRead: 1,
      recordsCreated: 1,
    });
  });

  it('says in the sync history that Google refused the service account', async () => {
    await updateSettings(f.a.admin, 'google-play', { clientEmail: 'someone-else@acme.iam.gserviceaccount.com' });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({
      status: 'FAILED',
      error:
        'Google refused the service account (its email address or private key); check them in Settings → Extensions → Google Play.',
    });
  });
});
