import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';
import { searchOk } from '../search/support.ts';
import { apiToken, createChannel, post } from './support.ts';

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let churn: string;
let reviews: string;

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer({ smtpUrl: mail.url }, { modules: [research, search, channels] });
  a = await contentFixture(server, mail, ['VIEWER']);
  churn = (await createChannel(a.admin, 'Churn interviews')).id;
  reviews = (await createChannel(a.admin, 'App store reviews')).id;
  const token = await apiToken(server, a.ws.admin.accessToken, a.ws.id);
  const pushed = await post(
    server,
    `/api/channels/${reviews}/datapoints`,
    JSON.stringify({
      dataPoints: [
        { externalId: 'r1', content: 'The onboarding checklist is confusing', person: { email: 'kim@example.com' } },
        { externalId: 'r2', content: 'Great exports, very fast' },
      ],
    }),
    { token },
  );
  expect(pushed.json.created).toBe(2);
  const b = await createWorkspaceWithAdmin(server, mail);
  await createChannel(gqlAs(server, b.admin.accessToken, b.id), 'Churn elsewhere');
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
});

describe('channels in search', () => {
  it('finds channels by name, in this workspace only, counted under their tab', async () => {
    const results = await searchOk(a.viewer.gql, { query: 'churn', resultTypes: ['CHANNEL'] });
    expect(results.hits.map((h) => [h.type, h.id, h.title])).toEqual([['CHANNEL', churn, 'Churn interviews']]);
    expect((await searchOk(a.viewer.gql, { query: 'reviws', resultTypes: ['CHANNEL'] })).hits.map((h) => h.id)).toEqual(
      [reviews],
    );
    const counts = (await searchOk(a.viewer.gql, { query: 'churn' })).countsByType.find((c) => c.type === 'CHANNEL');
    expect(counts?.count).toBe(1);
  });

  it('finds data points by their text under the Data points tab, linked to their channel', async () => {
    const results = await searchOk(a.viewer.gql, { query: 'onboarding checklist', resultTypes: ['CHANNEL_DATAPOINT'] });
    expect(results.hits.map((h) => [h.type, h.title, h.parentId])).toEqual([
      ['CHANNEL_DATAPOINT', 'The onboarding checklist is confusing', reviews],
    ]);
    expect(results.hits[0]!.snippet).toContain('<mark>onboarding</mark>');
    const everything = await searchOk(a.viewer.gql, { query: 'exports' });
    expect(everything.countsByType.find((c) => c.type === 'CHANNEL_DATAPOINT')?.count).toBe(1);
    // Held to projects, data points are left out: they live in channels.
    const scoped = await searchOk(a.viewer.gql, {
      query: 'exports',
      projectIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(scoped.countsByType.find((c) => c.type === 'CHANNEL_DATAPOINT')?.count ?? 0).toBe(0);
    const person = await server.fieldbook.db
      .owner('people')
      .where({ workspace_id: a.ws.id, email: 'kim@example.com' })
      .first('id');
    const byPerson = await searchOk(a.viewer.gql, {
      resultTypes: ['CHANNEL_DATAPOINT'],
      filter: {
        combinator: 'and',
        forms: [
          { id: 'p', field: 'People', operator: 'oneOf', values: { People: { personMultiselect: [person.id] } } },
        ],
      },
    });
    expect(byPerson.hits.map((h) => h.title)).toEqual(['The onboarding checklist is confusing']);
  });

  it('names changed channels and data points in the search outbox while an external index is on', async () => {
    const owner = server.fieldbook.db.owner;
    await owner.raw('insert into search_outbox_switch default values on conflict do nothing');
    try {
      const channelId = (await createChannel(a.admin, 'Outbox check')).id;
      const token = await apiToken(server, a.ws.admin.accessToken, a.ws.id);
      const pushed = await post(
        server,
        `/api/channels/${channelId}/datapoints`,
        JSON.stringify({ dataPoints: [{ externalId: 'o1', content: 'Outbox' }] }),
        { token },
      );
      const pointId = (pushed.json.dataPoints as Array<{ id: string }>)[0]!.id;
      ok(await a.admin('mutation($id: ID!) { deleteChannel(id: $id) }', { id: channelId }));
      const changes = (await owner('search_changes')
        .where({ workspace_id: a.ws.id })
        .whereIn('object_id', [channelId, pointId])
        .select('object_type', 'object_id')) as Array<{ object_type: string; object_id: string }>;
      // Created, then the point, then the trash: the channel twice, the point twice (pushed, and moved with its channel).
      expect(
        changes.filter((c) => c.object_type === 'CHANNEL' && c.object_id === channelId).length,
      ).toBeGreaterThanOrEqual(2);
      expect(changes.filter((c) => c.object_type === 'CHANNEL_DATAPOINT' && c.object_id === pointId)).toHaveLength(2);
    } finally {
      await owner('search_outbox_switch').delete();
    }
  });

  it('filters channels with the Channel field and leaves trashed ones out', async () => {
    const form = {
      id: 'c',
      field: 'Channel',
      operator: 'oneOf',
      values: { Channel: { channelMultiselect: [reviews] } },
    };
    const filtered = await searchOk(a.viewer.gql, {
      resultTypes: ['CHANNEL'],
      filter: { combinator: 'and', forms: [form] },
    });
    expect(filtered.hits.map((h) => h.title)).toEqual(['App store reviews']);
    ok(await a.admin('mutation($id: ID!) { deleteChannel(id: $id) }', { id: churn }));
    expect((await searchOk(a.viewer.gql, { query: 'churn', resultTypes: ['CHANNEL'] })).hits).toEqual([]);
    expect((await searchOk(a.viewer.gql, { resultTypes: ['CHANNEL'] })).hits.map((h) => h.id)).toEqual([reviews]);
    // A trashed channel's data points go with it.
    const channelForm = {
      id: 'c',
      field: 'Channel',
      operator: 'oneOf',
      values: { Channel: { channelMultiselect: [reviews] } },
    };
    expect(
      (
        await searchOk(a.viewer.gql, {
          resultTypes: ['CHANNEL_DATAPOINT'],
          filter: { combinator: 'and', forms: [channelForm] },
        })
      ).totalCount,
    ).toBe(2);
    ok(await a.admin('mutation($id: ID!) { deleteChannel(id: $id) }', { id: reviews }));
    expect((await searchOk(a.viewer.gql, { query: 'exports', resultTypes: ['CHANNEL_DATAPOINT'] })).hits).toEqual([]);
  });
});
