import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import channels from '../../../modules/channels/src/index.ts';
import research from '../../../modules/research/src/index.ts';
import search from '../../../modules/search/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture } from '../research/content-support.ts';
import { searchOk } from '../search/support.ts';
import { createChannel } from './support.ts';

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
    expect((await searchOk(a.viewer.gql, { query: 'reviws' , resultTypes: ['CHANNEL'] })).hits.map((h) => h.id)).toEqual([reviews]);
    const counts = (await searchOk(a.viewer.gql, { query: 'churn' })).countsByType.find((c) => c.type === 'CHANNEL');
    expect(counts?.count).toBe(1);
  });

  it('filters channels with the Channel field and leaves trashed ones out', async () => {
    const form = { id: 'c', field: 'Channel', operator: 'oneOf', values: { Channel: { channelMultiselect: [reviews] } } };
    const filtered = await searchOk(a.viewer.gql, { resultTypes: ['CHANNEL'], filter: { combinator: 'and', forms: [form] } });
    expect(filtered.hits.map((h) => h.title)).toEqual(['App store reviews']);
    ok(await a.admin('mutation($id: ID!) { deleteChannel(id: $id) }', { id: churn }));
    expect((await searchOk(a.viewer.gql, { query: 'churn', resultTypes: ['CHANNEL'] })).hits).toEqual([]);
    expect((await searchOk(a.viewer.gql, { resultTypes: ['CHANNEL'] })).hits.map((h) => h.id)).toEqual([reviews]);
  });
});
