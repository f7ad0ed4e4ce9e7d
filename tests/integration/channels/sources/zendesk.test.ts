import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeZendesk, type FakeZendesk } from '../../../../plugins/zendesk/testing/fake-zendesk.ts';
import type { ZendeskTicket } from '../../../../plugins/zendesk/server/client.ts';
import { failure, ok } from '../../research/content-support.ts';
import {
  connect,
  history,
  install,
  points,
  startSourcesFixture,
  sweep,
  syncNow,
  updateSettings,
  waitForRun,
  type SourcesFixture,
} from './support.ts';

const EMAIL = 'agent@acme.example';
const TOKEN = 'zendesk-api-token-1';

const ticket = (id: number, subject: string, tags: string[], requester = 101, daysAgo = 2): ZendeskTicket => {
  const at = new Date(Date.now() - daysAgo * 86_400_000 + id * 1000).toISOString();
  return {
    id,
    url: `https://acme.zendesk.com/api/v2/tickets/${id}.json`,
    subject,
    description: `${subject}: details`,
    status: 'open',
    priority: 'normal',
    type: 'question',
    tags,
    group_id: 7,
    requester_id: requester,
    created_at: at,
    updated_at: at,
  };
};

let zendesk: FakeZendesk;
let f: SourcesFixture;

beforeAll(async () => {
  zendesk = await startFakeZendesk({
    email: EMAIL,
    apiToken: TOKEN,
    maxPerPage: 2,
    groups: [
      { id: 7, name: 'Support' },
      { id: 8, name: 'Billing' },
    ],
    users: [{ id: 101, name: 'Dana Customer', email: 'dana@customer.example' }],
    tickets: [
      ticket(1, 'Exports time out', ['feedback']),
      ticket(2, 'Dark mode please', ['feedback', 'ui']),
      ticket(3, 'Invoice address', ['billing']),
      ticket(4, 'Search misses notes', ['feedback']),
      // Before the first import period: never listed.
      ticket(5, 'An old complaint', ['feedback'], 101, 90),
    ],
  });
  f = await startSourcesFixture([fileURLToPath(new URL('../../../../plugins/zendesk/', import.meta.url))], {
    ZENDESK_API_URL: zendesk.url,
  });
  await install(f.a.admin, 'zendesk', { subdomain: 'acme', email: EMAIL, apiToken: TOKEN });
});

afterAll(async () => {
  await f?.close();
  await zendesk?.close();
});

describe('Zendesk source', () => {
  let datasetId: string;

  it('is offered to the workspace that installed Zendesk, with its payload fields', async () => {
    const { channelPluginSources } = ok(
      await f.a.contributor.gql<{
        channelPluginSources: Array<{ pluginId: string; kind: string; settings: Array<{ key: string; type: string }> }>;
      }>('{ channelPluginSources { pluginId kind settings { key type } } }'),
    );
    expect(channelPluginSources).toEqual([
      {
        pluginId: 'zendesk',
        kind: 'ZENDESK',
        settings: [
          { key: 'groups', type: 'string[]' },
          { key: 'tags', type: 'string[]' },
        ],
      },
    ]);
  });

  it('refuses settings the source does not take, naming the field', async () => {
    const err = failure(
      await f.a.contributor.gql(
        'mutation($input: ConnectChannelSourceInput!) { connectChannelSource(input: $input) { id } }',
        { input: { channelId: f.channelId, pluginId: 'zendesk', kind: 'ZENDESK', settings: { groups: 'Support' } } },
      ),
    );
    expect(err.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'settings.groups' });
    const refresh = failure(
      await f.a.contributor.gql(
        'mutation($input: ConnectChannelSourceInput!) { connectChannelSource(input: $input) { id } }',
        { input: { channelId: f.channelId, pluginId: 'zendesk', kind: 'ZENDESK', refreshMinutes: 5 } },
      ),
    );
    expect(refresh.extensions).toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'input.refreshMinutes' });
  });

  it('imports the first period page by page, waiting out a rate limit, keeping only the chosen group and tags', async () => {
    zendesk.rateLimitNext(1, 1);
    const before = zendesk.requests.length;
    const run = await connect(f.a.contributor.gql, {
      channelId: f.channelId,
      pluginId: 'zendesk',
      kind: 'ZENDESK',
      settings: { groups: ['Support'], tags: ['feedback'] },
      refreshMinutes: 60,
    });
    expect(run).toMatchObject({
      status: 'COMPLETED',
      trigger: 'CONNECT',
      recordsRead: 3,
      recordsCreated: 3,
      recordsUpdated: 0,
      recordsFailed: 0,
      error: null,
    });
    datasetId = run.datasetId;
    const calls = zendesk.requests
      .slice(before)
      .map(
        (r) =>
          `${r.status} ${r.path.split('?')[0]}${r.path.includes('cursor=') ? ' by cursor' : r.path.includes('start_time=') ? ' from start_time' : ''}`,
      );
    // The group names are looked up first (answered 429, asked again after Retry-After), then the
    // export from the first import period, then its next page by cursor.
    expect(calls).toEqual([
      '429 /api/v2/groups.json',
      '200 /api/v2/groups.json',
      '200 /api/v2/incremental/tickets/cursor.json from start_time',
      '200 /api/v2/incremental/tickets/cursor.json by cursor',
    ]);
    const stored = await points(f.server, datasetId);
    expect([...stored.keys()].sort()).toEqual(['1', '2', '4']);
    expect(stored.get('1')).toMatchObject({
      content: 'Exports time out\n\nExports time out: details',
      external_url: 'https://acme.zendesk.com/agent/tickets/1',
    });
    expect(stored.get('1')!.raw).toMatchObject({
      kind: 'ticket',
      name: 'Exports time out',
      tags: ['feedback'],
      creator: 'dana@customer.example',
    });
    expect(stored.get('1')!.person_id).not.toBeNull();
  });

  it('lists only what changed at the next sync, updating a changed ticket by its external id', async () => {
    zendesk.upsert({ ...ticket(1, 'Exports time out on big projects', ['feedback']) });
    zendesk.upsert({ ...ticket(6, 'Mobile app crashes', ['feedback']) });
    const before = zendesk.requests.length;
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({
      status: 'COMPLETED',
      trigger: 'MANUAL',
      recordsRead: 2,
      recordsCreated: 1,
      recordsUpdated: 1,
    });
    const calls = zendesk.requests.slice(before).filter((r) => r.path.startsWith('/api/v2/incremental'));
    expect(calls.every((c) => c.path.includes('cursor=') && !c.path.includes('start_time='))).toBe(true);
    const stored = await points(f.server, datasetId);
    expect(stored.size).toBe(4);
    expect(stored.get('1')!.content).toContain('on big projects');
    // Nothing new: a sync reads nothing and changes nothing.
    expect(await syncNow(f.a.contributor.gql, datasetId)).toMatchObject({
      status: 'COMPLETED',
      recordsRead: 0,
      recordsCreated: 0,
      recordsUpdated: 0,
    });
  });

  it('refreshes a due connection once, from the scheduled sweep', async () => {
    zendesk.upsert({ ...ticket(7, 'Calendar sync is slow', ['feedback']) });
    await f.server.fieldbook.db
      .owner('channel_datasets')
      .where({ id: datasetId })
      .update({ next_sync_at: new Date(Date.now() - 1000) });
    expect(await sweep(f.server)).toBe(1);
    expect(await sweep(f.server)).toBe(0);
    const [latest] = await history(f.a.contributor.gql, datasetId);
    expect(latest!.trigger).toBe('SCHEDULED');
    expect(await waitForRun(f.a.contributor.gql, latest!.id)).toMatchObject({ status: 'COMPLETED', recordsCreated: 1 });
  });

  it('says in the sync history that Zendesk refused a bad credential', async () => {
    await updateSettings(f.a.admin, 'zendesk', { apiToken: 'wrong-token' });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run.status).toBe('FAILED');
    expect(run.error).toBe(
      'Zendesk refused the email address and API token (HTTP 401). Check them in Settings → Extensions → Zendesk.',
    );
    const runs = await history(f.a.contributor.gql, datasetId);
    expect(runs.map((r) => r.trigger)).toEqual(['MANUAL', 'SCHEDULED', 'MANUAL', 'MANUAL', 'CONNECT']);
    await updateSettings(f.a.admin, 'zendesk', { apiToken: TOKEN });
  });
});
