import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ai from '../../../modules/ai/src/index.ts';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';
import { apiToken, createChannel, post } from '../channels/support.ts';

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let channelId: string;

const SUBJECTS: Record<string, string[]> = {
  export: [
    'Exports time out on large projects',
    'CSV export times out after a minute',
    'The export to CSV never finishes',
    'Export of the report times out',
    'Exporting large CSV files fails with a timeout',
  ],
  login: [
    'Cannot log in with Google single sign-on',
    'Login with SSO fails every morning',
    'Single sign-on login loops back to the start',
    'SSO login error after the password reset',
    'Google login for SSO keeps failing',
  ],
  pricing: [
    'The pricing of the team plan is too high',
    'Team plan price doubled this year',
    'Pricing page is unclear about seats on the team plan',
    'Seats on the team plan cost too much',
    'Too expensive: the team plan price per seat',
  ],
};
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

const ANSWER = `query($q: String!) { ask(input: { question: $q }) {
  local
  blocks { __typename ... on AnswerTextBlock { content citations { id type parentId title projectTitle quote url } } ... on AnswerEmergingThemesBlock { channelId channelTitle items { id title previousCount currentCount } } }
  summary { numProjects numChannels numItems }
} }`;
interface Answer {
  local: boolean;
  blocks: Array<{
    __typename: string;
    citations?: Array<{
      id: string;
      type: string;
      parentId: string | null;
      title: string;
      projectTitle: string;
      quote: string;
      url: string;
    }>;
    channelId?: string;
    channelTitle?: string;
    items?: Array<{ id: string; title: string; previousCount: number; currentCount: number }>;
  }>;
  summary: { numProjects: number; numChannels: number; numItems: number };
}

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, search, channels, ai] });
  a = await contentFixture(server, mail);
  channelId = (await createChannel(a.contributor.gql, 'Support tickets')).id;
  const token = await apiToken(server, a.contributor.accessToken, a.ws.id);
  // Exports grew this week: two points each in the last days, one each the weeks before.
  const points = Object.entries(SUBJECTS).flatMap(([subject, texts]) =>
    texts.flatMap((text, i) =>
      (subject === 'export' ? [1, 2, 20] : [20, 22]).map((age, copy) => ({
        externalId: `${subject}-${i}-${copy}`,
        content: copy ? `${text} (${copy})` : text,
        createdAt: daysAgo(age),
      })),
    ),
  );
  expect(
    (await post(server, `/api/channels/${channelId}/datapoints`, JSON.stringify({ dataPoints: points }), { token }))
      .status,
  ).toBe(200);
  ok(
    await a.contributor.gql('mutation($c: ID!) { clusterChannel(channelId: $c, sensitivity: 5, amount: 10) { id } }', {
      c: channelId,
    }),
  );
  // Clustering runs as a job: wait for it (beforeAll has no expect.poll).
  const deadline = Date.now() + 20_000;
  let status = '';
  while (status !== 'COMPLETED' && Date.now() < deadline) {
    status = ok(
      await a.viewer.gql<{ channelClustering: { status: string } }>(
        'query($c: ID!) { channelClustering(channelId: $c) { status } }',
        { c: channelId },
      ),
    ).channelClustering.status;
    if (status !== 'COMPLETED') await new Promise((r) => setTimeout(r, 200));
  }
  expect(status).toBe('COMPLETED');
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('Ask over channels', () => {
  it('cites a channel’s theme, counts the channel, and draws how its themes grew', async () => {
    const answer = ok(
      await a.viewer.gql<{ ask: Answer }>(ANSWER, { q: 'What do customers say about export times?' }),
    ).ask;
    expect(answer.local).toBe(true);
    const citations = answer.blocks.flatMap((b) => b.citations ?? []);
    const theme = citations.find((c) => c.type === 'theme');
    expect(theme, JSON.stringify(answer.blocks)).toBeDefined();
    expect(theme).toMatchObject({
      parentId: channelId,
      projectTitle: 'Support tickets',
      url: `/channels/${channelId}/themes/${theme!.id}`,
    });
    expect(answer.summary.numChannels).toBe(1);
    // Quoted from what customers wrote, word for word: a data point, never the theme's title or a sentence made up about it.
    const said = Object.values(SUBJECTS).flat();
    for (const c of citations.filter((x) => x.type === 'theme')) {
      expect(
        said.some((p) => c.quote.startsWith(p)),
        c.quote,
      ).toBe(true);
      expect(c.quote).not.toBe(c.title);
    }

    const graph = answer.blocks.find((b) => b.__typename === 'AnswerEmergingThemesBlock');
    expect(graph).toMatchObject({ channelId, channelTitle: 'Support tickets' });
    // Most grown first: the export theme gained points in the latest period, the others none.
    const [top, ...rest] = graph!.items!;
    expect(top!.currentCount).toBeGreaterThan(top!.previousCount);
    for (const other of rest)
      expect(other.currentCount - other.previousCount).toBeLessThanOrEqual(top!.currentCount - top!.previousCount);
  });

  it('never quotes what a model wrote: a theme’s summary is not a source', async () => {
    const invented = 'we will renew for five years no matter the price';
    await server.fieldbook.db
      .owner('channel_themes')
      .where({ channel_id: channelId })
      .update({ summary: `Customers say export times are slow, and ${invented}.`, summary_model: 'fake-chat' });
    const answer = ok(
      await a.viewer.gql<{ ask: Answer }>(ANSWER, { q: 'What do customers say about export times?' }),
    ).ask;
    await server.fieldbook.db
      .owner('channel_themes')
      .where({ channel_id: channelId })
      .update({ summary: null, summary_model: null });
    const citations = answer.blocks.flatMap((b) => b.citations ?? []);
    expect(citations.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer)).not.toContain(invented);
    const said = Object.values(SUBJECTS).flat();
    for (const c of citations)
      expect(
        said.some((p) => c.quote.startsWith(p)),
        c.quote,
      ).toBe(true);
  });

  it('answers from research alone, with no graph, when no theme is about the question', async () => {
    const answer = ok(
      await a.viewer.gql<{ ask: Answer }>(ANSWER, { q: 'What did the onboarding interviews say?' }),
    ).ask;
    expect(answer.blocks.some((b) => b.__typename === 'AnswerEmergingThemesBlock')).toBe(false);
    expect(answer.summary.numChannels).toBe(0);
  });
});
