import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import dashboards from '../../../modules/dashboards/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { shareAddressCounter, shareTokenCounter } from '../../../core/src/sharing/traffic.ts';
import { apiToken, post } from '../channels/support.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  type ContentFixture,
  type Gql,
} from '../research/content-support.ts';

const CREATE_LINK =
  'mutation($type: ShareObjectType!, $id: ID!) { createShareLink(objectType: $type, objectId: $id) { id token path url objectType active } }';
const REVOKE_LINK = 'mutation($id: ID!) { revokeShareLink(id: $id) { id active } }';
const LINKS = 'query($type: ShareObjectType!, $id: ID!) { shareLinks(objectType: $type, objectId: $id) { id } }';
const CHANNEL_DATA = 'measure chartType interval total themes { id title count } series { start total counts }';
const SHARED = `{ sharedObject { objectType object { __typename ... on PublicDashboard { id title charts { kind title projectTitle projectChart { title items { title value } } channel { ${CHANNEL_DATA} } } } } } }`;
const ADD =
  'mutation($d: ID!, $input: AddDashboardChartInput!) { addDashboardChart(dashboardId: $d, input: $input) { id measure chartType } }';
const DASHBOARD = `query($id: ID!) { dashboard(id: $id) { charts { kind channelData { ${CHANNEL_DATA} } } } }`;

interface ChannelData {
  measure: string;
  chartType: string;
  total: number;
  themes: Array<{ id: string; title: string; count: number }>;
  series: Array<{ start: string; total: number; counts: number[] }>;
}
interface PublicDashboard {
  __typename: string;
  title: string;
  charts: Array<{
    kind: string;
    title: string;
    projectTitle: string | null;
    projectChart: { title: string; items: Array<{ title: string; value: number }> } | null;
    channel: ChannelData | null;
  }>;
}

describe('dashboard share links', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let dashboardId: string;
  let hiddenProjectId: string;
  let openProjectId: string;
  let noteId: string;
  let tagId: string;

  const createChart = async (gql: Gql, p: string, title: string) =>
    ok(
      await gql<{ createProjectChart: { id: string } }>(
        'mutation($p: ID!, $t: String!) { createProjectChart(projectId: $p, input: { title: $t, metric: HIGHLIGHT_COUNT, groupBy: TAG, type: BAR }) { id } }',
        { p, t: title },
      ),
    ).createProjectChart.id;
  const open = (token: string) =>
    server.gql<{ sharedObject: { objectType: string; object: PublicDashboard } }>(
      SHARED,
      {},
      { headers: { 'x-share-token': token } },
    );
  const share = async (gql: Gql, id = dashboardId) =>
    ok(
      await gql<{ createShareLink: { id: string; token: string; path: string; objectType: string } }>(CREATE_LINK, {
        type: 'dashboard',
        id,
      }),
    ).createShareLink;

  beforeAll(async () => {
    mail = await startMailServer();
    // Figures are reused for ten minutes here, so the test that sees them reused does not race the clock.
    server = await startTestServer(
      { smtpUrl: mail.url, shareLinks: { requestsPerToken: 300, requestsPerAddress: 120, cacheSeconds: 600 } },
      { modules: [research, channels, dashboards] },
    );
    f = await contentFixture(server, mail, ['CONTRIBUTOR', 'VIEWER']);
    const gql = f.contributor.gql;

    // A project with one tagged highlight, and one the contributor cannot open.
    openProjectId = (await createProject(gql, 'Pricing study')).id;
    const note = ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Interview 1", content: $c }) { id } }',
        { p: openProjectId, c: doc('Pricing is confusing.') },
      ),
    ).createNote.id;
    const board = ok(
      await gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
        { p: openProjectId },
      ),
    ).createTagBoard.id;
    const tag = ok(
      await gql<{ createTag: { id: string } }>(
        'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Pricing" }) { id } }',
        { b: board },
      ),
    ).createTag.id;
    const h = ok(
      await gql<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 21 }) { id } }',
        { n: note },
      ),
    ).createHighlight.id;
    ok(
      await gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', { h, t: [tag] }),
    );
    noteId = note;
    tagId = tag;
    hiddenProjectId = (await createProject(f.admin, 'Board-only research')).id;
    ok(
      await f.admin('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: hiddenProjectId,
        m: { groups: { markup: 'none' }, users: {} },
      }),
    );

    // A channel of five data points over three days, three of them in two themes.
    const channel = ok(
      await gql<{ createChannel: { id: string } }>(
        'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
      ),
    ).createChannel.id;
    const token = await apiToken(server, f.contributor.accessToken, f.ws.id);
    const points = [
      '2026-03-01T10:00:00Z',
      '2026-03-01T11:00:00Z',
      '2026-03-02T10:00:00Z',
      '2026-03-03T09:00:00Z',
      '2026-03-03T10:00:00Z',
    ].map((createdAt, i) => ({ externalId: `t-${i}`, content: `Ticket ${i}`, createdAt }));
    expect(
      (await post(server, `/api/channels/${channel}/datapoints`, JSON.stringify({ dataPoints: points }), { token }))
        .status,
    ).toBe(200);
    // Themes as a clustering leaves them (clustering itself is tested with channels).
    const db = server.fieldbook.db.owner;
    const ids = (
      (await db('channel_datapoints').where({ channel_id: channel }).orderBy('created_at').select('id')) as Array<{
        id: string;
      }>
    ).map((r) => r.id);
    const [billing, login] = (await db('channel_themes')
      .insert([
        { workspace_id: f.ws.id, channel_id: channel, title: 'Billing', version: 1 },
        { workspace_id: f.ws.id, channel_id: channel, title: 'Login', version: 1 },
      ])
      .returning('id')) as Array<{ id: string }>;
    await db('channel_theme_members').insert([
      { datapoint_id: ids[0], workspace_id: f.ws.id, channel_id: channel, theme_id: billing!.id },
      { datapoint_id: ids[2], workspace_id: f.ws.id, channel_id: channel, theme_id: billing!.id },
      { datapoint_id: ids[3], workspace_id: f.ws.id, channel_id: channel, theme_id: login!.id },
    ]);

    dashboardId = ok(
      await f.admin<{ createDashboard: { id: string } }>(
        'mutation { createDashboard(input: { title: "Quarterly review" }) { id } }',
      ),
    ).createDashboard.id;
    ok(
      await f.admin(ADD, {
        d: dashboardId,
        input: { projectChartId: await createChart(gql, openProjectId, 'Themes') },
      }),
    );
    ok(
      await f.admin(ADD, {
        d: dashboardId,
        input: { projectChartId: await createChart(f.admin, hiddenProjectId, 'Secret chart') },
      }),
    );
    const added = ok(
      await f.admin<{ addDashboardChart: { measure: string; chartType: string } }>(ADD, {
        d: dashboardId,
        input: { channelId: channel, measure: 'BY_THEME', chartType: 'PIE', interval: 'DAY' },
      }),
    ).addDashboardChart;
    expect(added).toMatchObject({ measure: 'BY_THEME', chartType: 'PIE' });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('counts a channel’s data points by theme and over time, with the viewer’s access, and refuses drawings that do not fit', async () => {
    const charts = ok(
      await f.viewer.gql<{ dashboard: { charts: Array<{ kind: string; channelData: ChannelData | null }> } }>(
        DASHBOARD,
        { id: dashboardId },
      ),
    ).dashboard.charts;
    expect(charts.map((c) => c.kind)).toEqual(['PROJECT_CHART', 'PROJECT_CHART', 'CHANNEL']);
    expect(charts[0]!.channelData).toBeNull();
    const data = charts[2]!.channelData!;
    expect(data.total).toBe(5);
    expect(data.themes.map((t) => [t.title, t.count])).toEqual([
      ['Billing', 2],
      ['Login', 1],
    ]);
    // One bucket a day; the themes drawn, and the unthemed points in the totals only.
    expect(data.series.map((b) => [b.start.slice(0, 10), b.total, b.counts])).toEqual([
      ['2026-03-01', 2, [1, 0]],
      ['2026-03-02', 1, [1, 0]],
      ['2026-03-03', 2, [0, 1]],
    ]);

    const channelId = ok(
      await f.admin<{ dashboard: { charts: Array<{ channelId: string | null }> } }>(
        'query($id: ID!) { dashboard(id: $id) { charts { channelId } } }',
        { id: dashboardId },
      ),
    ).dashboard.charts[2]!.channelId;
    const pie = failure(
      await f.admin(ADD, { d: dashboardId, input: { channelId, measure: 'OVER_TIME', chartType: 'PIE' } }),
    );
    expect(pie.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(pie.extensions?.field).toBe('input.chartType');
    expect(pie.message).toBe('A chart over time is drawn as BAR or LINE.');
    const long = failure(await f.admin(ADD, { d: dashboardId, input: { channelId, title: 'x'.repeat(301) } }));
    expect(long.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(long.extensions?.field).toBe('input.title');
    expect(long.message).toBe('input.title: A chart title can be at most 300 characters long.');
  });

  it('shows an anonymous viewer what the link’s maker can read, live, until the link is revoked', async () => {
    const link = await share(f.contributor.gql);
    expect(link.objectType).toBe('dashboard');
    expect(link.path).toBe(`/p/dashboard/${link.token}`);
    expect(link.token).toMatch(/^[A-Za-z0-9]{12}$/);

    const seen = ok(await open(link.token)).sharedObject;
    expect(seen.objectType).toBe('dashboard');
    expect(seen.object.__typename).toBe('PublicDashboard');
    expect(seen.object.title).toBe('Quarterly review');
    // The chart of the project hidden from the contributor is left out of their link.
    expect(seen.object.charts.map((c) => [c.kind, c.title, c.projectTitle])).toEqual([
      ['PROJECT_CHART', 'Themes', 'Pricing study'],
      ['CHANNEL', 'Support tickets', null],
    ]);
    expect(seen.object.charts[0]!.projectChart!.items).toEqual([{ title: 'Pricing', value: 1 }]);
    expect(seen.object.charts[1]!.channel!.themes.map((t) => t.count)).toEqual([2, 1]);

    // The admin can read every project: their link shows the secret chart too.
    const adminLink = await share(f.admin);
    expect(ok(await open(adminLink.token)).sharedObject.object.charts.map((c) => c.title)).toEqual([
      'Themes',
      'Secret chart',
      'Support tickets',
    ]);

    // A project that turns public links off drops out of every link; figures are live.
    ok(
      await f.admin('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: openProjectId,
        m: { groups: { public: 'none' }, users: {} },
      }),
    );
    expect(ok(await open(link.token)).sharedObject.object.charts.map((c) => c.title)).toEqual(['Support tickets']);
    ok(
      await f.admin('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: openProjectId,
        m: { groups: {}, users: {} },
      }),
    );
    expect(ok(await open(link.token)).sharedObject.object.charts).toHaveLength(2);

    // Revoking ends the link at once; the other link keeps working.
    expect(
      ok(await f.contributor.gql<{ revokeShareLink: { active: boolean } }>(REVOKE_LINK, { id: link.id }))
        .revokeShareLink.active,
    ).toBe(false);
    const dead = failure(await open(link.token));
    expect(dead.extensions?.errorCode).toBe('NOT_FOUND');
    expect(dead.message).toBe('This link does not exist or is no longer shared. Ask whoever sent it for a new one.');
    expect(ok(await open(adminLink.token)).sharedObject.object.charts).toHaveLength(3);

    // Deleting the dashboard ends its links.
    const other = ok(
      await f.contributor.gql<{ createDashboard: { id: string } }>(
        'mutation { createDashboard(input: { title: "Short-lived" }) { id } }',
      ),
    ).createDashboard.id;
    const otherLink = await share(f.contributor.gql, other);
    expect(ok(await open(otherLink.token)).sharedObject.object.charts).toEqual([]);
    ok(await f.contributor.gql('mutation($id: ID!) { deleteDashboard(id: $id) }', { id: other }));
    expect(failure(await open(otherLink.token)).extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('refuses viewers, and ids of another workspace as if they did not exist', async () => {
    expect(failure(await f.viewer.gql(CREATE_LINK, { type: 'dashboard', id: dashboardId })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    const ws = await createWorkspaceWithAdmin(server, mail);
    const outsider = gqlAs(server, ws.admin.accessToken, ws.id);
    const refused = failure(await outsider(CREATE_LINK, { type: 'dashboard', id: dashboardId }));
    expect(refused.extensions?.errorCode).toBe('NOT_FOUND');
    expect(refused.message).toBe('That dashboard was not found.');
    expect(failure(await outsider(LINKS, { type: 'dashboard', id: dashboardId })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    const link = await share(f.contributor.gql);
    expect(failure(await outsider(REVOKE_LINK, { id: link.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(
      ok(
        await f.contributor.gql<{ shareLinks: Array<{ id: string }> }>(LINKS, { type: 'dashboard', id: dashboardId }),
      ).shareLinks.map((l) => l.id),
    ).toContain(link.id);
    // A maker who can no longer share (now a viewer) no longer shows anything through their links.
    const role =
      'mutation($u: ID!, $r: ProductRole!) { updateMemberRole(userId: $u, role: $r, workspaceAdmin: false) { role } }';
    ok(await f.admin(role, { u: f.contributor.user.id, r: 'VIEWER' }));
    expect(failure(await open(link.token)).extensions?.errorCode).toBe('NOT_FOUND');
    ok(await f.admin(role, { u: f.contributor.user.id, r: 'CONTRIBUTOR' }));
    expect(ok(await open(link.token)).sharedObject.object.title).toBe('Quarterly review');
    // The outsider's own token shows nothing of the first workspace either way.
    const own = ok(
      await outsider<{ createDashboard: { id: string } }>(
        'mutation { createDashboard(input: { title: "Theirs" }) { id } }',
      ),
    ).createDashboard.id;
    const theirs = ok(
      await outsider<{ createShareLink: { token: string } }>(CREATE_LINK, { type: 'dashboard', id: own }),
    ).createShareLink;
    expect(ok(await open(theirs.token)).sharedObject.object).toMatchObject({ title: 'Theirs', charts: [] });
  });

  it('stops every kind of link, not only dashboards’, while its maker may not share, and starts it again after', async () => {
    const gql = f.contributor.gql;
    const chartId = await createChart(gql, openProjectId, 'Pricing tags');
    const { id: channelId } = (await server.fieldbook.db
      .owner('channels')
      .where({ workspace_id: f.ws.id, name: 'Support tickets' })
      .first('id')) as { id: string };
    const anyLink = async (type: string, id: string) =>
      ok(await gql<{ createShareLink: { token: string } }>(CREATE_LINK, { type, id })).createShareLink.token;
    const research = {
      dashboard: (await share(gql)).token,
      projectChart: await anyLink('projectChart', chartId),
      project: await anyLink('project', openProjectId),
    };
    const channel = ok(
      await gql<{ createChannelShareLink: { token: string } }>(
        'mutation($id: ID!) { createChannelShareLink(objectType: channel, objectId: $id) { token } }',
        { id: channelId },
      ),
    ).createChannelShareLink.token;
    const OPEN_ANY = '{ sharedObject { objectType } }';
    const opens = async () => ({
      ...Object.fromEntries(
        await Promise.all(
          Object.entries(research).map(async ([type, token]) => {
            const res = await server.gql(OPEN_ANY, {}, { headers: { 'x-share-token': token } });
            return [type, res.errors?.[0]?.message ?? 'open'] as const;
          }),
        ),
      ),
      channel:
        (await server.gql('{ sharedChannelData { dataPointCount } }', {}, { headers: { 'x-share-token': channel } }))
          .errors?.[0]?.message ?? 'open',
    });
    const all = (state: string) => ({ dashboard: state, projectChart: state, project: state, channel: state });
    const DEAD = 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.';
    expect(await opens()).toEqual(all('open'));

    const role =
      'mutation($u: ID!, $r: ProductRole!) { updateMemberRole(userId: $u, role: $r, workspaceAdmin: false) { role } }';
    ok(await f.admin(role, { u: f.contributor.user.id, r: 'VIEWER' }));
    expect(await opens()).toEqual(all(DEAD));
    ok(await f.admin(role, { u: f.contributor.user.id, r: 'CONTRIBUTOR' }));
    expect(await opens()).toEqual(all('open'));
  }, 90_000);

  it('reuses a link’s figures for a while, shows what changes which charts it draws at once, and limits anonymous traffic', async () => {
    const link = await share(f.admin);
    const themes = async () =>
      ok(await open(link.token)).sharedObject.object.charts.find((c) => c.title === 'Themes')?.projectChart?.items;
    expect(await themes()).toEqual([{ title: 'Pricing', value: 1 }]);
    // A second tagged highlight: the link's figures are the ones computed a moment ago.
    const h = ok(
      await f.admin<{ createHighlight: { id: string } }>(
        'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 7 }) { id } }',
        { n: noteId },
      ),
    ).createHighlight.id;
    ok(
      await f.admin('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
        h,
        t: [tagId],
      }),
    );
    expect(await themes()).toEqual([{ title: 'Pricing', value: 1 }]);
    // Saving the dashboard changes what the link draws: it is computed again, with today's counts.
    ok(
      await f.admin('mutation($id: ID!) { updateDashboard(id: $id, input: { title: "Quarterly review" }) { id } }', {
        id: dashboardId,
      }),
    );
    expect(await themes()).toEqual([{ title: 'Pricing', value: 2 }]);

    const { requestsPerToken, requestsPerAddress } = server.fieldbook.config.shareLinks;
    const db = server.fieldbook.db.owner;
    // A counter that has used its minute (rather than sending it all from the test).
    const spent = (key: string, attempts: number) =>
      db('sign_in_limits')
        .insert({ key, attempts, resets_at: db.raw("now() + interval '1 minute'") })
        .onConflict('key')
        .merge();
    const raw = (token: string) =>
      fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-share-token': token },
        body: JSON.stringify({ query: '{ sharedObject { objectType } }' }),
      });
    const message = async (res: Response) =>
      ((await res.json()) as { errors: Array<{ message: string; extensions: { errorCode: string } }> }).errors[0]!;

    await spent(shareTokenCounter(link.token), requestsPerToken);
    const busy = await raw(link.token);
    expect(busy.status).toBe(429);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    const tooOften = await message(busy);
    expect(tooOften.extensions.errorCode).toBe('TOO_MANY_REQUESTS');
    expect(tooOften.message).toMatch(
      new RegExp(
        `^This shared link is being opened too often \\(at most ${requestsPerToken} times a minute\\)\\. Try again in (\\d+ seconds|1 minute)\\.$`,
      ),
    );
    // Another link opens, until this address has used its own allowance.
    const other = await share(f.admin);
    expect((await raw(other.token)).status).toBe(200);
    await spent(shareAddressCounter('127.0.0.1'), requestsPerAddress);
    const crowded = await raw(other.token);
    expect(crowded.status).toBe(429);
    expect((await message(crowded)).message).toMatch(
      new RegExp(`^Too many requests to shared links from your network \\(at most ${requestsPerAddress} a minute\\)`),
    );
    // Members are not anonymous traffic: their own requests go on.
    expect((await f.admin('{ me { id } }')).errors).toBeUndefined();
    await db('sign_in_limits')
      .whereIn('key', [shareAddressCounter('127.0.0.1'), shareTokenCounter(link.token)])
      .delete();
  });
});
