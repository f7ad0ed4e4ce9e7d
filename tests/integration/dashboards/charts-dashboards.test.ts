import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import dashboards from '../../../modules/dashboards/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import {
  contentFixture,
  createProject,
  doc,
  failure,
  ok,
  type ContentFixture,
  type Gql,
} from '../research/content-support.ts';

const CHART =
  'id projectId projectTitle title metric groupBy type canEdit filter { collapsedGroupIds hiddenItemIds } items { id kind title value }';
const CREATE_CHART = `mutation($p: ID!, $input: CreateProjectChartInput!) { createProjectChart(projectId: $p, input: $input) { ${CHART} } }`;
const UPDATE_CHART = `mutation($id: ID!, $input: UpdateProjectChartInput!) { updateProjectChart(id: $id, input: $input) { ${CHART} } }`;
const GET_CHART = `query($id: ID!) { projectChart(id: $id) { ${CHART} } }`;
const BEHIND =
  'query($id: ID!, $item: String!) { projectChartHighlights(id: $id, itemId: $item) { id text noteId noteTitle } }';
const DASHBOARD = 'id title canEdit charts { id kind projectChartId channelId title interval readable }';
const CREATE_DASHBOARD = `mutation($t: String!) { createDashboard(input: { title: $t }) { ${DASHBOARD} } }`;
const ADD = `mutation($d: ID!, $input: AddDashboardChartInput!) { addDashboardChart(dashboardId: $d, input: $input) { id kind title readable } }`;
const GET_DASHBOARD = `query($id: ID!) { dashboard(id: $id) { ${DASHBOARD} } }`;

interface Chart {
  id: string;
  title: string;
  canEdit: boolean;
  projectTitle: string;
  filter: { collapsedGroupIds: string[]; hiddenItemIds: string[] };
  items: Array<{ id: string; kind: string; title: string; value: number }>;
}
interface Dashboard {
  id: string;
  title: string;
  canEdit: boolean;
  charts: Array<{
    id: string;
    kind: string;
    projectChartId: string | null;
    channelId: string | null;
    title: string | null;
    interval: string | null;
    readable: boolean;
  }>;
}

const values = (c: Chart) => Object.fromEntries(c.items.map((i) => [i.title, i.value]));

describe('project charts and dashboards', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let projectId: string;
  let hiddenProjectId: string;
  const tags: Record<string, string> = {};
  let groupId: string;
  const highlights: string[] = [];

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, channels, dashboards] });
    f = await contentFixture(server, mail);
    const gql = f.contributor.gql;
    projectId = (await createProject(gql, 'Pricing study')).id;
    const text = 'Pricing is confusing. Onboarding took a week. I love the search.';
    const note = ok(
      await gql<{ createNote: { id: string } }>(
        'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Interview 1", content: $c }) { id } }',
        { p: projectId, c: doc(text) },
      ),
    ).createNote.id;
    const board = ok(
      await gql<{ createTagBoard: { id: string } }>(
        'mutation($p: ID) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
        { p: projectId },
      ),
    ).createTagBoard.id;
    groupId = ok(
      await gql<{ createTagGroup: { id: string } }>(
        'mutation($b: ID!) { createTagGroup(input: { boardId: $b, title: "Pain" }) { id } }',
        { b: board },
      ),
    ).createTagGroup.id;
    for (const [title, group] of [
      ['Pricing', groupId],
      ['Onboarding', groupId],
      ['Delight', null],
    ] as const) {
      tags[title] = ok(
        await gql<{ createTag: { id: string } }>(
          'mutation($b: ID!, $g: ID, $t: String!) { createTag(input: { boardId: $b, groupId: $g, title: $t }) { id } }',
          { b: board, g: group, t: title },
        ),
      ).createTag.id;
    }
    // Offsets count from the start of the note's text: three sentences, three highlights.
    const spans: Array<[string, number, number, string[]]> = [
      ['Pricing is confusing.', 0, 21, ['Pricing', 'Onboarding']],
      ['Onboarding took a week.', 22, 45, ['Pricing']],
      ['I love the search.', 46, 64, ['Delight']],
    ];
    for (const [, start, end, tagTitles] of spans) {
      const h = ok(
        await gql<{ createHighlight: { id: string } }>(
          'mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }',
          { n: note, s: start, e: end },
        ),
      ).createHighlight.id;
      ok(
        await gql('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
          h,
          t: tagTitles.map((t) => tags[t]),
        }),
      );
      highlights.push(h);
    }
    hiddenProjectId = (await createProject(f.admin, 'Board-only research')).id;
    const permissions = { groups: { markup: 'none' }, users: {} };
    ok(
      await f.admin('mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }', {
        p: hiddenProjectId,
        m: permissions,
      }),
    );
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const createChart = async (gql: Gql, input: Record<string, unknown>, p = projectId) =>
    ok(await gql<{ createProjectChart: Chart }>(CREATE_CHART, { p, input })).createProjectChart;

  it('counts highlights, notes and text per tag, collapses groups and hides items', async () => {
    const chart = await createChart(f.contributor.gql, {
      title: 'Themes by highlights',
      metric: 'HIGHLIGHT_COUNT',
      groupBy: 'TAG',
      type: 'BAR',
    });
    expect(chart.canEdit).toBe(true);
    expect(chart.projectTitle).toBe('Pricing study');
    expect(values(chart)).toEqual({ Pricing: 2, Onboarding: 1, Delight: 1 });
    expect(chart.items[0]!.title).toBe('Pricing');

    // The highlight tagged both Pricing and Onboarding counts once for their collapsed group.
    const collapsed = ok(
      await f.contributor.gql<{ updateProjectChart: Chart }>(UPDATE_CHART, {
        id: chart.id,
        input: { filter: { collapsedGroupIds: [groupId], hiddenItemIds: [tags.Delight] } },
      }),
    ).updateProjectChart;
    expect(values(collapsed)).toEqual({ Pain: 2 });
    expect(collapsed.items[0]!.kind).toBe('TAG_GROUP');

    const volume = ok(
      await f.contributor.gql<{ updateProjectChart: Chart }>(UPDATE_CHART, {
        id: chart.id,
        input: { metric: 'TEXT_VOLUME', filter: null },
      }),
    ).updateProjectChart;
    expect(values(volume)).toEqual({ Pricing: 21 + 23, Onboarding: 21, Delight: 18 });

    const notes = ok(
      await f.contributor.gql<{ updateProjectChart: Chart }>(UPDATE_CHART, {
        id: chart.id,
        input: { metric: 'NOTE_COUNT', groupBy: 'TAG_GROUP', type: 'PIE' },
      }),
    ).updateProjectChart;
    expect(values(notes)).toEqual({ Pain: 1, Ungrouped: 1 });
  });

  it('opens the highlights behind an item, for anyone who can read the project', async () => {
    const chart = await createChart(f.contributor.gql, {
      title: 'Pricing',
      metric: 'HIGHLIGHT_COUNT',
      groupBy: 'TAG',
      type: 'TREEMAP',
    });
    const behind = ok(
      await f.viewer.gql<{ projectChartHighlights: Array<{ id: string; text: string; noteTitle: string }> }>(BEHIND, {
        id: chart.id,
        item: tags.Pricing,
      }),
    ).projectChartHighlights;
    expect(behind.map((h) => h.id).sort()).toEqual([highlights[0], highlights[1]].sort());
    expect(behind[0]!.noteTitle).toBe('Interview 1');
    const viewerChart = ok(await f.viewer.gql<{ projectChart: Chart }>(GET_CHART, { id: chart.id })).projectChart;
    expect(viewerChart.canEdit).toBe(false);
    expect(failure(await f.viewer.gql(BEHIND, { id: chart.id, item: 'not-an-id' })).extensions?.errorCode).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('refuses bad input naming the field and the limit, and hides charts of unreadable projects', async () => {
    const long = failure(
      await f.contributor.gql(CREATE_CHART, {
        p: projectId,
        input: { title: 'x'.repeat(301), metric: 'HIGHLIGHT_COUNT', groupBy: 'TAG', type: 'BAR' },
      }),
    );
    expect(long.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(long.message).toContain('300');
    const ok300 = await createChart(f.contributor.gql, {
      title: 'y'.repeat(300),
      metric: 'HIGHLIGHT_COUNT',
      groupBy: 'TAG',
      type: 'RADAR',
    });
    expect(ok300.title).toHaveLength(300);
    const foreign = failure(
      await f.contributor.gql(UPDATE_CHART, { id: ok300.id, input: { filter: { hiddenItemIds: [projectId] } } }),
    );
    expect(foreign.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(
      failure(
        await f.viewer.gql(CREATE_CHART, {
          p: projectId,
          input: { title: 'Mine', metric: 'HIGHLIGHT_COUNT', groupBy: 'TAG', type: 'BAR' },
        }),
      ).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    const hidden = await createChart(
      f.admin,
      { title: 'Secret', metric: 'NOTE_COUNT', groupBy: 'TAG', type: 'BAR' },
      hiddenProjectId,
    );
    expect(failure(await f.contributor.gql(GET_CHART, { id: hidden.id })).extensions?.errorCode).toBe('NOT_FOUND');
    expect(failure(await f.contributor.gql(BEHIND, { id: hidden.id, item: tags.Pricing! })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
  });

  it('shares a project chart by link with its figures; a hidden chart cannot be shared and a deleted chart’s link stops working', async () => {
    const chart = await createChart(f.contributor.gql, {
      title: 'Shared themes',
      metric: 'HIGHLIGHT_COUNT',
      groupBy: 'TAG',
      type: 'PIE',
    });
    const link = ok(
      await f.contributor.gql<{ createShareLink: { token: string } }>(
        'mutation($id: ID!) { createShareLink(objectType: projectChart, objectId: $id) { token } }',
        { id: chart.id },
      ),
    ).createShareLink;
    const SHARED =
      '{ sharedObject { objectType object { ... on PublicProjectChart { title type items { title value } } } } }';
    const shared = ok(
      await server.gql<{
        sharedObject: {
          objectType: string;
          object: { title: string; type: string; items: Array<{ title: string; value: number }> };
        };
      }>(SHARED, {}, { headers: { 'x-share-token': link.token } }),
    ).sharedObject;
    expect(shared.objectType).toBe('projectChart');
    expect(shared.object.title).toBe('Shared themes');
    expect(Object.fromEntries(shared.object.items.map((i) => [i.title, i.value]))).toEqual({
      Pricing: 2,
      Onboarding: 1,
      Delight: 1,
    });
    // A chart of a project hidden from the caller cannot be shared by them.
    const secret = await createChart(
      f.admin,
      { title: 'Secret', metric: 'NOTE_COUNT', groupBy: 'TAG', type: 'BAR' },
      hiddenProjectId,
    );
    expect(
      failure(
        await f.contributor.gql(
          'mutation($id: ID!) { createShareLink(objectType: projectChart, objectId: $id) { token } }',
          { id: secret.id },
        ),
      ).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    // Deleting the chart kills its link.
    ok(await f.contributor.gql('mutation($id: ID!) { deleteProjectChart(id: $id) }', { id: chart.id }));
    expect(
      failure(await server.gql(SHARED, {}, { headers: { 'x-share-token': link.token } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
  });

  it('collects charts of projects and channels on a dashboard, each shown with the viewer’s access', async () => {
    const chart = await createChart(f.contributor.gql, {
      title: 'Themes',
      metric: 'HIGHLIGHT_COUNT',
      groupBy: 'TAG',
      type: 'BAR',
    });
    const secret = await createChart(
      f.admin,
      { title: 'Secret chart', metric: 'NOTE_COUNT', groupBy: 'TAG', type: 'BAR' },
      hiddenProjectId,
    );
    const channel = ok(
      await f.admin<{ createChannel: { id: string } }>(
        'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
      ),
    ).createChannel.id;

    const dash = ok(
      await f.admin<{ createDashboard: Dashboard }>(CREATE_DASHBOARD, { t: 'Quarterly review' }),
    ).createDashboard;
    ok(await f.admin(ADD, { d: dash.id, input: { projectChartId: chart.id } }));
    ok(await f.admin(ADD, { d: dash.id, input: { projectChartId: secret.id } }));
    const added = ok(
      await f.admin<{ addDashboardChart: { title: string } }>(ADD, {
        d: dash.id,
        input: { channelId: channel, interval: 'MONTH' },
      }),
    ).addDashboardChart;
    expect(added.title).toBe('Support tickets');

    const asAdmin = ok(await f.admin<{ dashboard: Dashboard }>(GET_DASHBOARD, { id: dash.id })).dashboard;
    expect(asAdmin.charts.map((c) => [c.kind, c.title, c.readable])).toEqual([
      ['PROJECT_CHART', 'Themes', true],
      ['PROJECT_CHART', 'Secret chart', true],
      ['CHANNEL', 'Support tickets', true],
    ]);
    const asContributor = ok(
      await f.contributor.gql<{ dashboard: Dashboard }>(GET_DASHBOARD, { id: dash.id }),
    ).dashboard;
    expect(asContributor.canEdit).toBe(false);
    expect(asContributor.charts[1]).toMatchObject({ title: null, projectChartId: null, readable: false });

    // Ids named by an input are checked readable by the caller.
    expect(
      failure(await f.contributor.gql(ADD, { d: dash.id, input: { projectChartId: secret.id } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    const own = ok(
      await f.contributor.gql<{ createDashboard: Dashboard }>(CREATE_DASHBOARD, { t: 'Mine' }),
    ).createDashboard;
    expect(
      failure(await f.contributor.gql(ADD, { d: own.id, input: { projectChartId: secret.id } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(
      failure(await f.contributor.gql(ADD, { d: own.id, input: { projectChartId: chart.id, channelId: channel } }))
        .extensions?.errorCode,
    ).toBe('BAD_USER_INPUT');
    expect(
      failure(await f.contributor.gql(ADD, { d: own.id, input: { channelId: projectId } })).extensions?.errorCode,
    ).toBe('NOT_FOUND');
    expect(
      failure(await f.contributor.gql(ADD, { d: dash.id, input: { projectChartId: chart.id } })).extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.viewer.gql(CREATE_DASHBOARD, { t: 'Viewer' })).extensions?.errorCode).toBe('FORBIDDEN');
    const long = failure(await f.contributor.gql(CREATE_DASHBOARD, { t: 'z'.repeat(301) }));
    expect(long.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(long.message).toContain('300');

    // Deleting a project chart takes it off the dashboards showing it.
    ok(await f.contributor.gql('mutation($id: ID!) { deleteProjectChart(id: $id) }', { id: chart.id }));
    const after = ok(await f.admin<{ dashboard: Dashboard }>(GET_DASHBOARD, { id: dash.id })).dashboard;
    expect(after.charts.map((c) => c.title)).toEqual(['Secret chart', 'Support tickets']);
  });
});
