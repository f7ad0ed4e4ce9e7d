import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, failure, ok, type ContentFixture } from '../research/content-support.ts';
import { createChannel, post, startChannelsServer, waitForImport, type ImportState } from './support.ts';

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
/** Another workspace, whose admin must find nothing of a's. */
let other: ContentFixture;
let channelId: string;
let otherChannelId: string;
let run: ImportState;

const CSV = [
  'Comment,Date',
  'Exports time out on large projects,2026-03-01',
  'Exports time out on big projects again,2026-03-02',
  'Exports time out for large projects today,2026-03-03',
  'The onboarding checklist is lovely,2026-03-04',
  'Broken date,yesterday',
].join('\n');

async function importCsv(channel: string, csv: string): Promise<ImportState> {
  const settings = encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Comment', timestampColumnLabel: 'Date' }));
  const res = await post(server, `/api/channels/${channel}/imports?name=March%20survey&settings=${settings}`, csv, {
    token: a.contributor.accessToken,
    workspace: a.ws.id,
    type: 'text/csv',
  });
  expect(res.status, JSON.stringify(res.json)).toBe(202);
  return waitForImport(a.contributor.gql, res.json.importId as string);
}

const pointId = async (content: string): Promise<string> =>
  ((await server.fieldbook.db.owner('channel_datapoints').where({ content }).first('id')) as { id: string }).id;

beforeAll(async () => {
  ({ server, mail } = await startChannelsServer());
  a = await contentFixture(server, mail, ['CONTRIBUTOR', 'VIEWER']);
  other = await contentFixture(server, mail, []);
  channelId = (await createChannel(a.contributor.gql, 'Support tickets')).id;
  otherChannelId = (await createChannel(a.contributor.gql, 'Sales calls')).id;
  run = await importCsv(channelId, CSV);
  await importCsv(otherChannelId, 'Comment,Date\nExports time out on large projects too,2026-03-05\n');
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('datasets and imports on the channel page', () => {
  it('lists each dataset with its source, point count and last import, and the import history with its failures', async () => {
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 5, recordsCreated: 4, recordsFailed: 1 });
    const data = ok(
      await a.viewer.gql<{
        channel: { datasets: Array<Record<string, unknown>> };
        channelImports: Array<Record<string, unknown>>;
      }>(
        `query($id: ID!) {
          channel(id: $id) { datasets { name source pointCount lastImport { id status recordsFailed } } }
          channelImports(channelId: $id) { id datasetId recordsCreated recordsFailed failures { line reason } }
        }`,
        { id: channelId },
      ),
    );
    expect(data.channel.datasets).toEqual([
      {
        name: 'March survey',
        source: 'CSV',
        pointCount: 4,
        lastImport: { id: run.id, status: 'COMPLETED', recordsFailed: 1 },
      },
    ]);
    expect(data.channelImports).toHaveLength(1);
    expect(data.channelImports[0]).toMatchObject({
      id: run.id,
      recordsCreated: 4,
      recordsFailed: 1,
      failures: [{ line: 6 }],
    });
  });
});

describe('similar data points', () => {
  const SIMILAR =
    'query($id: ID!, $first: Int) { channelSimilarDataPoints(id: $id, first: $first) { similarity dataPoint { id content channelId } } }';
  type Similar = {
    channelSimilarDataPoints: Array<{
      similarity: number;
      dataPoint: { id: string; content: string; channelId: string };
    }>;
  };

  it('finds the same channel’s points whose first 50 characters are alike, most alike first', async () => {
    const id = await pointId('Exports time out on large projects');
    const rows = ok(await a.viewer.gql<Similar>(SIMILAR, { id })).channelSimilarDataPoints;
    expect(rows.map((r) => r.dataPoint.content)).toEqual([
      'Exports time out for large projects today',
      'Exports time out on big projects again',
    ]);
    expect(rows[0]!.similarity).toBeGreaterThan(rows[1]!.similarity);
    expect(rows.every((r) => r.dataPoint.channelId === channelId && r.similarity >= 0.3 && r.similarity < 1)).toBe(
      true,
    );
    expect(ok(await a.viewer.gql<Similar>(SIMILAR, { id, first: 1 })).channelSimilarDataPoints).toHaveLength(1);
  });

  it('names the limit of first and answers another workspace’s point as not found', async () => {
    const id = await pointId('Exports time out on large projects');
    const e = failure(await a.viewer.gql(SIMILAR, { id, first: 51 }));
    expect(e.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(e.message).toContain('50');
    expect(failure(await other.admin(SIMILAR, { id })).extensions?.errorCode).toBe('NOT_FOUND');
  });
});

describe('share links to a channel and a dataset', () => {
  const CREATE =
    'mutation($type: ChannelShareObjectType!, $id: ID!) { createChannelShareLink(objectType: $type, objectId: $id) { id token path url objectType active } }';
  const VIEW =
    '{ sharedChannelData { objectType channel { name description } dataset { name source } dataPointCount dataPoints { content sentiment createdAt } } }';
  type Link = { id: string; token: string; path: string; url: string };
  type View = {
    sharedChannelData: {
      objectType: string;
      channel: { name: string };
      dataset: { name: string; source: string } | null;
      dataPointCount: number;
      dataPoints: Array<{ content: string }>;
    };
  };
  const share = async (type: 'channel' | 'dataset', id: string, gql = a.contributor.gql) =>
    ok(await gql<{ createChannelShareLink: Link }>(CREATE, { type, id })).createChannelShareLink;
  const view = (token: string) => server.gql<View>(VIEW, {}, { headers: { 'x-share-token': token } });
  const expectDead = async (token: string) =>
    expect(failure(await view(token)).extensions?.errorCode).toBe('NOT_FOUND');

  it('opens a channel link and a dataset link read-only to anyone, without who gave the feedback', async () => {
    const link = await share('channel', channelId);
    expect(link.path).toBe(`/p/data/${link.token}`);
    expect(link.url).toBe(`http://localhost:3000/p/data/${link.token}`);
    const shown = ok(await view(link.token)).sharedChannelData;
    expect(shown).toMatchObject({
      objectType: 'channel',
      channel: { name: 'Support tickets' },
      dataset: null,
      dataPointCount: 4,
    });
    expect(shown.dataPoints[0]!.content).toBe('The onboarding checklist is lovely');
    const datasetId = (
      (await server.fieldbook.db.owner('channel_datasets').where({ channel_id: otherChannelId }).first('id')) as {
        id: string;
      }
    ).id;
    const datasetView = ok(await view((await share('dataset', datasetId)).token)).sharedChannelData;
    expect(datasetView).toMatchObject({
      objectType: 'dataset',
      channel: { name: 'Sales calls' },
      dataset: { name: 'March survey', source: 'CSV' },
      dataPointCount: 1,
    });
    // A public viewer reaches nothing else: the workspace's own queries need a signed-in member.
    expect(
      failure(
        await server.gql(
          `query($id: ID!) { channel(id: $id) { name } }`,
          { id: channelId },
          { headers: { 'x-share-token': link.token } },
        ),
      ).extensions?.errorCode,
    ).toBe('UNAUTHENTICATED');
  });

  it('lets only those who may change access share what they can read', async () => {
    expect(failure(await a.viewer.gql(CREATE, { type: 'channel', id: channelId })).extensions?.errorCode).toBe(
      'FORBIDDEN',
    );
    expect(failure(await other.admin(CREATE, { type: 'channel', id: channelId })).extensions?.errorCode).toBe(
      'NOT_FOUND',
    );
    expect(failure(await other.admin(CREATE, { type: 'dataset', id: channelId })).message).toContain('That dataset');
  });

  it('stops a link when revoked, when public links are turned off and while the channel is in the trash', async () => {
    const revoked = await share('channel', channelId);
    ok(
      await a.contributor.gql('mutation($id: ID!) { revokeChannelShareLink(id: $id) { active } }', { id: revoked.id }),
    );
    await expectDead(revoked.token);
    const links = ok(
      await a.contributor.gql<{ channelShareLinks: Link[] }>(
        'query($id: ID!) { channelShareLinks(objectType: channel, objectId: $id) { id } }',
        { id: channelId },
      ),
    ).channelShareLinks;
    expect(links.map((l) => l.id)).not.toContain(revoked.id);

    const link = await share('channel', otherChannelId);
    const UPDATE = 'mutation($input: UpdateWorkspaceInput!) { updateWorkspace(input: $input) { id } }';
    ok(await a.admin(UPDATE, { input: { publicLinksDisabled: true } }));
    try {
      await expectDead(link.token);
      const e = failure(await a.contributor.gql(CREATE, { type: 'channel', id: otherChannelId }));
      expect(e.message).toBe(
        'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.',
      );
    } finally {
      ok(await a.admin(UPDATE, { input: { publicLinksDisabled: false } }));
    }
    ok(await view(link.token));
    ok(await a.admin('mutation($id: ID!) { deleteChannel(id: $id) }', { id: otherChannelId }));
    await expectDead(link.token);
    ok(await a.admin('mutation($id: ID!) { restoreChannel(id: $id) { id } }', { id: otherChannelId }));
    ok(await view(link.token));
  });
});

describe('an insight made of selected data points', () => {
  const MAKE =
    'mutation($p: ID!, $ids: [ID!]!, $t: String) { createInsightFromDataPoints(projectId: $p, dataPointIds: $ids, title: $t) { insightId projectId title citedCount } }';
  type Made = {
    createInsightFromDataPoints: { insightId: string; projectId: string; title: string; citedCount: number };
  };

  it('quotes and cites each selected point, in the order selected', async () => {
    const projectId = (await createProject(a.contributor.gql, 'Exports')).id;
    const ids = [
      await pointId('The onboarding checklist is lovely'),
      await pointId('Exports time out on large projects'),
    ];
    const made = ok(await a.contributor.gql<Made>(MAKE, { p: projectId, ids })).createInsightFromDataPoints;
    expect(made).toMatchObject({ projectId, title: 'Insight from Support tickets', citedCount: 2 });
    const insight = ok(
      await a.viewer.gql<{ insight: { title: string; contentText: string; citedDataPoints: Array<{ id: string }> } }>(
        'query($id: ID!) { insight(id: $id) { title contentText citedDataPoints { id } } }',
        {
          id: made.insightId,
        },
      ),
    ).insight;
    expect(insight.citedDataPoints.map((p) => p.id)).toEqual(ids);
    expect(insight.contentText).toContain('The onboarding checklist is lovely');
    expect(insight.contentText).toContain('Exports time out on large projects');
  });

  it('refuses a viewer, another workspace’s point and more than 100 points, naming the limit', async () => {
    const projectId = (await createProject(a.contributor.gql, 'Onboarding')).id;
    const id = await pointId('The onboarding checklist is lovely');
    expect(failure(await a.viewer.gql(MAKE, { p: projectId, ids: [id] })).extensions?.errorCode).toBe('FORBIDDEN');
    const theirs = (await createProject(other.admin, 'Theirs')).id;
    expect(failure(await other.admin(MAKE, { p: theirs, ids: [id] })).message).toContain('That data point');
    const tooMany = failure(
      await a.contributor.gql(MAKE, { p: projectId, ids: Array.from({ length: 101 }, () => id) }),
    );
    expect(tooMany.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT' });
    expect(tooMany.message).toContain('100');
  });
});
