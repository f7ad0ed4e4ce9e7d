import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiConfig, startFakeOpenAI, type FakeOpenAI } from '../../support/openai-fake.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, failure, ok, type ContentFixture } from '../research/content-support.ts';
import { apiToken, createChannel, post, startChannelsServer } from './support.ts';

let fake: FakeOpenAI;
let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let channelId: string;

const TEXTS = [
  'The mobile app crashes when I open a note',
  'Mobile app crash on Android when opening notes',
  'iPhone mobile app crashes at launch',
  'The Android mobile app crashes constantly',
  'Mobile app keeps crashing while syncing',
  'Exports time out on large projects',
  'CSV export times out after a minute',
  'The export to CSV never finishes',
  'Export of the report times out',
  'Exporting large CSV files fails with a timeout',
];

beforeAll(async () => {
  fake = await startFakeOpenAI();
  ({ server, mail } = await startChannelsServer(aiConfig(fake, { maxRetries: 0 })));
  a = await contentFixture(server, mail);
  channelId = (await createChannel(a.contributor.gql, 'Support tickets')).id;
  const token = await apiToken(server, a.contributor.accessToken, a.ws.id);
  const dataPoints = TEXTS.flatMap((text, i) =>
    [0, 1, 2].map((copy) => ({ externalId: `p-${i}-${copy}`, content: copy ? `${text}, again ${copy}` : text })),
  );
  const res = await post(server, `/api/channels/${channelId}/datapoints`, JSON.stringify({ dataPoints }), { token });
  expect(res.json.created).toBe(dataPoints.length);
  ok(await a.contributor.gql('mutation($c: ID!) { clusterChannel(channelId: $c) { id } }', { c: channelId }));
  // Clustering runs as a job: its run is read until it completes (expect.poll runs only inside tests).
  for (let status = ''; status !== 'COMPLETED'; ) {
    status = ok(
      await a.viewer.gql<{ channelClustering: { status: string } }>(
        'query($c: ID!) { channelClustering(channelId: $c) { status } }',
        { c: channelId },
      ),
    ).channelClustering.status;
    expect(status).not.toBe('FAILED');
    if (status !== 'COMPLETED') await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
  await fake?.close();
});

const SUMMARIZE = 'mutation($id: ID!) { summarizeChannelTheme(id: $id) { title summary model } }';
const firstTheme = async () =>
  ok(
    await a.viewer.gql<{ channelThemes: Array<{ id: string; summary: { summary: string } | null }> }>(
      'query($c: ID!) { channelThemes(channelId: $c) { id summary { summary } } }',
      { c: channelId },
    ),
  ).channelThemes[0]!;

describe('theme summaries and viewers (002 §6)', () => {
  it('refuses a viewer, spending no model tokens and leaving the stored summary as it was', async () => {
    const theme = await firstTheme();
    fake.script({ content: JSON.stringify({ title: 'Crashes', summary: 'Written for a contributor.', quotes: [] }) });
    ok(await a.contributor.gql(SUMMARIZE, { id: theme.id }));
    const stored = (await firstTheme()).summary;
    expect(stored?.summary).toContain('Written for a contributor.');

    const asked = fake.requests.length;
    fake.script({ content: JSON.stringify({ title: 'Crashes', summary: 'Written for a viewer.', quotes: [] }) });
    const refused = failure(await a.viewer.gql(SUMMARIZE, { id: theme.id }));
    expect(refused.extensions?.errorCode).toBe('FORBIDDEN');
    expect(refused.message).toBe('Viewers cannot generate summaries');
    expect(fake.requests.length).toBe(asked);
    expect((await firstTheme()).summary).toEqual(stored);
  });
});
