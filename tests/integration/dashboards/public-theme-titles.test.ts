import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import dashboards from '../../../modules/dashboards/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { apiToken, post } from '../channels/support.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';

const CHANNEL_DATA = 'themes { title count }';
const SHARED = `{ sharedObject { object { ... on PublicDashboard { charts { channel { ${CHANNEL_DATA} } } } } } }`;
const SIGNED_IN = `query($id: ID!) { dashboard(id: $id) { charts { channelData { ${CHANNEL_DATA} } } } }`;

describe('theme titles on a public dashboard link', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let dashboardId: string;
  let token: string;

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, channels, dashboards] });
    f = await contentFixture(server, mail, ['CONTRIBUTOR']);
    const gql = f.contributor.gql;
    // A customer in the people directory; theme titles are made of the words of their feedback.
    ok(
      await gql('mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }', {
        input: { name: 'Maria Gonzalez', email: 'maria.g@customer.example' },
      }),
    );
    const channel = ok(
      await gql<{ createChannel: { id: string } }>('mutation { createChannel(input: { name: "Support" }) { id } }'),
    ).createChannel.id;
    const apiKey = await apiToken(server, f.contributor.accessToken, f.ws.id);
    const dataPoints = Array.from({ length: 10 }, (_, i) => ({ externalId: `t-${i}`, content: `Ticket ${i}` }));
    expect(
      (await post(server, `/api/channels/${channel}/datapoints`, JSON.stringify({ dataPoints }), { token: apiKey }))
        .status,
    ).toBe(200);
    const db = server.fieldbook.db.owner;
    const ids = (
      (await db('channel_datapoints').where({ channel_id: channel }).orderBy('created_at').select('id')) as Array<{
        id: string;
      }>
    ).map((r) => r.id);
    // Four themes, most data points first: one naming the customer, one their email, one a member's.
    const titles = [
      'refund for gonzalez, again',
      'Billing export',
      `mail from ${f.contributor.user.email}`,
      'Maria.G@customer.example cannot log in',
    ];
    const themes = (await db('channel_themes')
      .insert(titles.map((title) => ({ workspace_id: f.ws.id, channel_id: channel, title, version: 1 })))
      .returning('id')) as Array<{ id: string }>;
    const sizes = [4, 3, 2, 1];
    let next = 0;
    await db('channel_theme_members').insert(
      themes.flatMap((t, i) =>
        Array.from({ length: sizes[i]! }, () => ({
          datapoint_id: ids[next++],
          workspace_id: f.ws.id,
          channel_id: channel,
          theme_id: t.id,
        })),
      ),
    );
    dashboardId = ok(
      await gql<{ createDashboard: { id: string } }>(
        'mutation { createDashboard(input: { title: "Support" }) { id } }',
      ),
    ).createDashboard.id;
    ok(
      await gql(
        'mutation($d: ID!, $input: AddDashboardChartInput!) { addDashboardChart(dashboardId: $d, input: $input) { id } }',
        { d: dashboardId, input: { channelId: channel, measure: 'BY_THEME', chartType: 'BAR' } },
      ),
    );
    token = ok(
      await gql<{ createShareLink: { token: string } }>(
        'mutation($id: ID!) { createShareLink(objectType: dashboard, objectId: $id) { token } }',
        { id: dashboardId },
      ),
    ).createShareLink.token;
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('shows by its number a theme whose title names a person or an email of the workspace', async () => {
    const shared = ok(
      await server.gql<{
        sharedObject: { object: { charts: Array<{ channel: { themes: Array<{ title: string; count: number }> } }> } };
      }>(SHARED, {}, { headers: { 'x-share-token': token } }),
    ).sharedObject.object.charts[0]!.channel.themes;
    expect(shared).toEqual([
      { title: 'Theme 1', count: 4 },
      { title: 'Billing export', count: 3 },
      { title: 'Theme 3', count: 2 },
      { title: 'Theme 4', count: 1 },
    ]);
    expect(JSON.stringify(shared)).not.toMatch(/gonzalez|customer\.example|@/i);
  });

  it('keeps the titles as they are for members signed in', async () => {
    const own = ok(
      await f.contributor.gql<{ dashboard: { charts: Array<{ channelData: { themes: Array<{ title: string }> } }> } }>(
        SIGNED_IN,
        { id: dashboardId },
      ),
    ).dashboard.charts[0]!.channelData.themes.map((t) => t.title);
    expect(own[0]).toBe('refund for gonzalez, again');
  });
});
