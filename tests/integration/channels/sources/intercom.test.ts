import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntercom, type FakeIntercom } from '../../../../plugins/intercom/testing/fake-intercom.ts';
import type { IntercomConversation } from '../../../../plugins/intercom/server/client.ts';
import {
  connect,
  history,
  install,
  points,
  startSourcesFixture,
  syncNow,
  updateSettings,
  type SourcesFixture,
} from './support.ts';

const TOKEN = 'intercom-access-token';
const now = Math.floor(Date.now() / 1000);
const customer = { type: 'user', id: 'u1', name: 'Sam Customer', email: 'sam@customer.example' };
const agent = { type: 'admin', id: 'a1', name: 'Alex Support', email: 'alex@acme.example' };

const conversation = (
  id: string,
  team: string,
  text: string,
  hoursAgo: number,
  reply?: string,
): IntercomConversation => ({
  id,
  created_at: now - hoursAgo * 3600,
  updated_at: now - hoursAgo * 3600,
  title: null,
  state: 'open',
  team_assignee_id: team,
  source: { id: `m-${id}`, type: 'conversation', body: `<p>${text}</p>`, url: null, author: customer },
  conversation_parts: {
    total_count: reply ? 2 : 0,
    conversation_parts: reply
      ? [
          {
            id: `p-${id}-1`,
            part_type: 'comment',
            body: `<p>${reply}</p>`,
            created_at: now - hoursAgo * 3600 + 60,
            author: agent,
          },
          {
            id: `p-${id}-2`,
            part_type: 'assignment',
            body: null,
            created_at: now - hoursAgo * 3600 + 90,
            author: agent,
          },
        ]
      : [],
  },
});

let intercom: FakeIntercom;
let f: SourcesFixture;

beforeAll(async () => {
  intercom = await startFakeIntercom({
    token: TOKEN,
    maxPerPage: 2,
    teams: [
      { id: '11', name: 'Product' },
      { id: '12', name: 'Sales' },
    ],
    conversations: [
      conversation('c1', '11', 'The export &amp; import screens are slow', 30, 'Thanks, we are on it'),
      conversation('c2', '11', 'Please add a dark mode', 20),
      conversation('c3', '12', 'What does Enterprise cost?', 10),
      conversation('c4', '11', 'Search should find PDFs', 5),
    ],
  });
  f = await startSourcesFixture([fileURLToPath(new URL('../../../../plugins/intercom/', import.meta.url))], {
    INTERCOM_API_URL: intercom.url,
  });
  await install(f.a.admin, 'intercom', { accessToken: TOKEN, appId: 'abc123' });
});

afterAll(async () => {
  await f?.close();
  await intercom?.close();
});

describe('Intercom source', () => {
  let datasetId: string;

  it("imports the chosen team's conversations with their messages, waiting out a rate limit", async () => {
    intercom.rateLimitNext(1, 1);
    const run = await connect(f.a.contributor.gql, {
      channelId: f.channelId,
      pluginId: 'intercom',
      kind: 'INTERCOM',
      settings: { teams: ['Product'] },
    });
    expect(run).toMatchObject({
      status: 'COMPLETED',
      trigger: 'CONNECT',
      recordsRead: 3,
      recordsCreated: 3,
      recordsFailed: 0,
    });
    datasetId = run.datasetId;
    expect(intercom.requests[0]).toMatchObject({ path: '/teams', status: 429 });
    const searches = intercom.requests.filter((r) => r.path === '/conversations/search');
    expect(searches).toHaveLength(2);
    expect((searches[1]!.body as { pagination: { starting_after?: string } }).pagination.starting_after).toBeTruthy();
    const stored = await points(f.server, datasetId);
    expect([...stored.keys()].sort()).toEqual(['c1', 'c2', 'c4']);
    expect(stored.get('c1')).toMatchObject({
      content: 'The export & import screens are slow',
      external_url: 'https://app.intercom.com/a/inbox/abc123/inbox/conversation/c1',
    });
    expect(stored.get('c1')!.raw).toMatchObject({
      kind: 'conversation',
      messages: [
        { text: 'The export & import screens are slow', participant: 'Sam Customer', externalId: 'm-c1' },
        { text: 'Thanks, we are on it', participant: 'Alex Support', externalId: 'p-c1-1' },
      ],
    });
    expect(stored.get('c1')!.person_id).not.toBeNull();
  });

  it('reads only conversations updated since at the next sync', async () => {
    intercom.upsert(conversation('c2', '11', 'Please add a dark mode, my eyes hurt', 20));
    intercom.upsert(conversation('c5', '11', 'Login with SSO fails', 1));
    const before = intercom.requests.length;
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 2, recordsCreated: 1, recordsUpdated: 1 });
    const fetched = intercom.requests.slice(before).filter((r) => r.path.startsWith('/conversations/c'));
    expect(fetched.map((r) => r.path).sort()).toEqual(['/conversations/c2', '/conversations/c5']);
    expect((await points(f.server, datasetId)).get('c2')!.content).toBe('Please add a dark mode, my eyes hurt');
  });

  it('reads a conversation updated in the same second as the newest one read, and that one not again', async () => {
    intercom.upsert(conversation('c6', '11', 'Slack alerts arrive twice', 1), { sameSecond: true });
    const before = intercom.requests.length;
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 1, recordsCreated: 1, recordsUpdated: 0 });
    const fetched = intercom.requests.slice(before).filter((r) => r.path.startsWith('/conversations/c'));
    expect(fetched.map((r) => r.path)).toEqual(['/conversations/c6']);
    expect((await points(f.server, datasetId)).get('c6')!.content).toBe('Slack alerts arrive twice');
  });

  it("changes a connection's teams: the next sync reads again from the start with them, updating what is in", async () => {
    const SET = 'mutation($id: ID!, $s: JSON!) { setChannelDatasetSettings(id: $id, settings: $s) { id settings } }';
    const refused = await f.a.contributor.gql(SET, { id: datasetId, s: { teams: 'Sales' } });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'settings.teams' });
    const saved = await f.a.contributor.gql<{ setChannelDatasetSettings: { settings: unknown } }>(SET, {
      id: datasetId,
      s: { teams: ['Product', 'Sales'] },
    });
    expect(saved.data?.setChannelDatasetSettings.settings).toEqual({ teams: ['Product', 'Sales'] });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    // c3 is the Sales team's; the Product team's five are read again and updated, not doubled.
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 6, recordsCreated: 1, recordsUpdated: 5 });
    expect([...(await points(f.server, datasetId)).keys()].sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
  });

  it('says in the sync history that Intercom refused the token', async () => {
    await updateSettings(f.a.admin, 'intercom', { accessToken: 'revoked' });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({
      status: 'FAILED',
      error:
        'Intercom refused the access token (HTTP 401). A workspace admin checks it in Settings → Extensions → Intercom.',
    });
    expect((await history(f.a.contributor.gql, datasetId)).map((r) => r.status)).toEqual([
      'FAILED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
    ]);
  });
});
