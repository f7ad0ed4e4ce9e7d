import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule, type DomainEvent } from '../../../core/src/index.ts';
import { createWorkspaceWithAdmin, gqlAs } from '../../support/factories.ts';
import type { TestServer } from '../../support/server.ts';
import type { TestMailServer } from '../../support/smtp.ts';
import { contentFixture, failure, ok, type ContentFixture, type Gql } from '../research/content-support.ts';
import { apiToken, CHANNEL, createChannel, post, startChannelsServer } from './support.ts';

const heard: DomainEvent[] = [];
// Stands in for automation: hears dataset:created as any subscriber would.
const listener = defineModule({
  name: 'dataset-listener',
  events: () => [{ event: 'dataset:created', name: 'test-listener', handler: async (event) => void heard.push(event) }],
});

let server: TestServer;
let mail: TestMailServer;
let a: ContentFixture;
let otherChannelId: string;

const LIMITS = { maximumChannels: 3, maximumChannelsDataPoints: 6 };

beforeAll(async () => {
  ({ server, mail } = await startChannelsServer({ channels: LIMITS }, [listener]));
  a = await contentFixture(server, mail);
  const b = await createWorkspaceWithAdmin(server, mail);
  otherChannelId = (await createChannel(gqlAs(server, b.admin.accessToken, b.id), 'Elsewhere')).id;
});

afterAll(async () => {
  await server?.close();
  await mail?.close();
});

const POINTS = `query($channelId: ID!, $first: Int, $after: String) {
  channelDataPoints(channelId: $channelId, first: $first, after: $after) {
    totalCount hasNextPage endCursor
    nodes { id externalId content createdAt sentiment raw person { id name email } fields { field { label type options { label } } value npsBand } }
  }
}`;

interface Point {
  id: string;
  externalId: string;
  content: string;
  createdAt: string;
  sentiment: string | null;
  raw: unknown;
  person: { id: string; name: string; email: string } | null;
  fields: Array<{
    field: { label: string; type: string; options: Array<{ label: string }> };
    value: string | boolean;
    npsBand: string | null;
  }>;
}

async function points(
  gql: Gql,
  channelId: string,
  first = 50,
): Promise<{ totalCount: number; nodes: Point[]; hasNextPage: boolean; endCursor: string | null }> {
  return ok(
    await gql<{
      channelDataPoints: { totalCount: number; nodes: Point[]; hasNextPage: boolean; endCursor: string | null };
    }>(POINTS, { channelId, first }),
  ).channelDataPoints;
}

describe('channels', () => {
  it('lets contributors create channels, everyone read them, and managers trash and restore them', async () => {
    const created = await createChannel(a.contributor.gql, '  App reviews  ');
    expect(created.name).toBe('App reviews');
    const denied = failure(await a.viewer.gql(`mutation { createChannel(input: { name: "Nope" }) { id } }`));
    expect(denied.extensions?.errorCode).toBe('FORBIDDEN');
    const listed = ok(
      await a.viewer.gql<{ channels: Array<{ id: string; dataPointCount: number; weeklyDataPoints: number[] }> }>(
        `{ channels { ${CHANNEL} } }`,
      ),
    ).channels;
    expect(listed.map((c) => c.id)).toContain(created.id);
    expect(listed.find((c) => c.id === created.id)!.weeklyDataPoints).toHaveLength(12);

    expect(
      failure(await a.contributor.gql('mutation($id: ID!) { deleteChannel(id: $id) }', { id: created.id })).extensions
        ?.errorCode,
    ).toBe('FORBIDDEN');
    ok(await a.manager.gql('mutation($id: ID!) { deleteChannel(id: $id) }', { id: created.id }));
    expect(
      failure(await a.viewer.gql('query($id: ID!) { channel(id: $id) { id } }', { id: created.id })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
    const trash = ok(
      await a.manager.gql<{ channels: Array<{ id: string; deletedAt: string }> }>(
        `{ channels(trashed: true) { ${CHANNEL} } }`,
      ),
    ).channels;
    expect(trash.map((c) => c.id)).toEqual([created.id]);
    ok(await a.manager.gql('mutation($id: ID!) { restoreChannel(id: $id) { id } }', { id: created.id }));
    expect(
      ok(
        await a.viewer.gql<{ channel: { name: string } }>('query($id: ID!) { channel(id: $id) { name } }', {
          id: created.id,
        }),
      ).channel.name,
    ).toBe('App reviews');
  });

  it('refuses a name that is empty or too long, naming the field and the limit', async () => {
    const long = failure(
      await a.contributor.gql('mutation($n: String!) { createChannel(input: { name: $n }) { id } }', {
        n: 'x'.repeat(201),
      }),
    );
    expect(long.extensions?.errorCode).toBe('BAD_USER_INPUT');
    expect(long.message).toContain('200');
    expect(
      failure(await a.contributor.gql('mutation { createChannel(input: { name: "  " }) { id } }')).extensions
        ?.errorCode,
    ).toBe('BAD_USER_INPUT');
  });

  it('refuses another workspace’s channel as missing', async () => {
    expect(
      failure(await a.admin('query($id: ID!) { channel(id: $id) { id } }', { id: otherChannelId })).extensions
        ?.errorCode,
    ).toBe('NOT_FOUND');
    expect(failure(await a.admin(POINTS, { channelId: otherChannelId })).extensions?.errorCode).toBe('NOT_FOUND');
  });
});

describe('the API source', () => {
  let channelId: string;
  let token: string;

  beforeAll(async () => {
    channelId = (await createChannel(a.contributor.gql, 'Support tickets')).id;
    token = await apiToken(server, a.contributor.accessToken, a.ws.id);
  });

  const push = (dataPoints: unknown[], id = channelId, t = token) =>
    post(server, `/api/channels/${id}/datapoints`, JSON.stringify({ dataPoints }), { token: t });

  it('stores pushed data points with their ticket, person, sentiment and typed fields, and publishes dataset:created once', async () => {
    const res = await push([
      {
        externalId: 'T-1',
        content: 'The export keeps timing out',
        createdAt: '2026-03-02T10:00:00Z',
        sentiment: 'negative',
        externalUrl: 'https://help.example.com/tickets/1',
        person: { email: 'Dana@Example.com', name: 'Dana' },
        raw: {
          kind: 'ticket',
          createdAt: '2026-03-02T10:00:00Z',
          name: 'Export',
          description: 'The export keeps timing out',
          tags: ['export'],
          creator: 'dana@example.com',
          remoteFields: { priority: 'high' },
        },
        fields: { Score: '4', Plan: 'Team; Enterprise', Paying: 'yes', Renewal: '2026-09-01' },
        fieldTypes: { Score: 'NPS', Plan: 'SELECT', Paying: 'BOOLEAN', Renewal: 'DATETIME' },
      },
      {
        externalId: 'C-9',
        content: 'Love the new search',
        createdAt: '2026-03-05T09:00:00Z',
        sentiment: 'positive',
        raw: {
          kind: 'conversation',
          messages: [
            {
              text: 'Love the new search',
              timestamp: '2026-03-05T09:00:00Z',
              participant: 'customer',
              externalId: 'm1',
            },
          ],
        },
        fields: { Score: 10 },
      },
    ]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ created: 2, updated: 0, failed: 0 });

    const page = await points(a.viewer.gql, channelId);
    expect(page.nodes.map((p) => p.externalId)).toEqual(['C-9', 'T-1']);
    const ticket = page.nodes[1]!;
    expect(ticket.sentiment).toBe('negative');
    expect(ticket.person).toMatchObject({ email: 'dana@example.com', name: 'Dana' });
    expect(ticket.raw).toMatchObject({ kind: 'ticket', tags: ['export'], remoteFields: { priority: 'high' } });
    const byLabel = Object.fromEntries(ticket.fields.map((f) => [f.field.label, f]));
    expect(byLabel.Score).toMatchObject({ value: '4', npsBand: 'Detractor', field: { type: 'NPS' } });
    expect(byLabel.Plan).toMatchObject({
      value: 'Team; Enterprise',
      field: { type: 'SELECT', options: [{ label: 'Team' }, { label: 'Enterprise' }] },
    });
    expect(byLabel.Paying!.value).toBe(true);
    expect(byLabel.Renewal!.value).toBe('2026-09-01T00:00:00.000Z');
    expect(page.nodes[0]!.fields[0]).toMatchObject({ value: '10', npsBand: 'Promoter' });

    // The person was created in the workspace's people, once, and is found again by email.
    const people = await server.fieldbook.db
      .owner('people')
      .where({ workspace_id: a.ws.id })
      .whereRaw('lower(email) = ?', ['dana@example.com']);
    expect(people).toHaveLength(1);

    const ofChannel = (e: (typeof heard)[number]) =>
      (e.payload.channel as { id?: string } | undefined)?.id === channelId;
    await expect
      .poll(() => heard.filter((e) => e.workspaceId === a.ws.id && ofChannel(e)).length, { timeout: 10_000 })
      .toBe(1);
    const event = heard.find(ofChannel)!;
    expect(event.event).toBe('dataset:created');
    const dataset = await server.fieldbook.db.owner('channel_datasets').where({ channel_id: channelId }).first();
    expect(event.payload).toEqual({
      channel: { id: channelId, title: expect.any(String) },
      dataset: { id: dataset.id, title: dataset.name },
    });
  });

  it('updates a data point pushed again with the same externalId instead of adding one', async () => {
    const again = await push([
      {
        externalId: 'T-1',
        content: 'The export keeps timing out (still)',
        createdAt: '2026-03-02T10:00:00Z',
        person: { email: 'dana@example.com' },
      },
    ]);
    expect(again.json).toMatchObject({ created: 0, updated: 1, failed: 0 });
    const page = await points(a.viewer.gql, channelId);
    expect(page.totalCount).toBe(2);
    expect(page.nodes.find((p) => p.externalId === 'T-1')!.content).toBe('The export keeps timing out (still)');
    expect(
      await server.fieldbook.db
        .owner('people')
        .where({ workspace_id: a.ws.id })
        .whereRaw('lower(email) = ?', ['dana@example.com']),
    ).toHaveLength(1);
  });

  it('fails a point with a bad value alone, with its index and reason', async () => {
    const res = await push([
      { externalId: 'N-1', content: 'Fine', fields: { Score: '11' } },
      { externalId: 'N-2', content: 'Also fine', fields: { Score: '7' } },
      { externalId: 'N-3', content: 'Bad mood', sentiment: 'angry' },
      { externalId: 'N-4', content: 'Bad link', externalUrl: 'javascript:alert(1)' },
    ]);
    expect(res.json).toMatchObject({ created: 1, failed: 3 });
    const answers = res.json.dataPoints as Array<{ status: string; reason?: string }>;
    expect(answers[0]!.reason).toBe('dataPoints[0]: Score must be a whole number from 0 to 10.');
    expect(answers[1]!.status).toBe('created');
    expect(answers[2]!.reason).toContain('dataPoints[2].sentiment');
    expect(answers[3]!.reason).toContain('externalUrl');
  });

  it('refuses more points than one request may carry, naming the limit', async () => {
    const res = await push(Array.from({ length: 501 }, (_, i) => ({ externalId: `x${i}`, content: 'x' })));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('at most 500 data points');
  });

  it('refuses a viewer’s token and another workspace’s channel', async () => {
    const viewerToken = await apiToken(server, a.viewer.accessToken, a.ws.id);
    const denied = await push([{ externalId: 'v', content: 'v' }], channelId, viewerToken);
    expect(denied.status).toBe(403);
    const foreign = await push([{ externalId: 'f', content: 'f' }], otherChannelId);
    expect(foreign.status).toBe(404);
    expect(await server.fieldbook.db.owner('channel_datapoints').where({ channel_id: otherChannelId })).toHaveLength(0);
  });

  it('stops at maximumChannelsDataPoints with a reason naming it, while updates still go in', async () => {
    const before = Number(
      (await server.fieldbook.db.owner('channel_datapoints').where({ workspace_id: a.ws.id }).count('* as n'))[0]!.n,
    );
    const room = LIMITS.maximumChannelsDataPoints - before;
    const res = await push([
      ...Array.from({ length: room + 2 }, (_, i) => ({ externalId: `L-${i}`, content: `Point ${i}` })),
      { externalId: 'T-1', content: 'Updated at the limit' },
    ]);
    expect(res.json).toMatchObject({ created: room, updated: 1, failed: 2 });
    expect(JSON.stringify(res.json)).toContain(
      `at most ${LIMITS.maximumChannelsDataPoints} data points (maximumChannelsDataPoints)`,
    );
  });

  it('pages data points newest first', async () => {
    const first = ok(
      await a.viewer.gql<{ channelDataPoints: { nodes: Point[]; endCursor: string; hasNextPage: boolean } }>(POINTS, {
        channelId,
        first: 2,
      }),
    ).channelDataPoints;
    expect(first.hasNextPage).toBe(true);
    const next = ok(
      await a.viewer.gql<{ channelDataPoints: { nodes: Point[] } }>(POINTS, {
        channelId,
        first: 50,
        after: first.endCursor,
      }),
    ).channelDataPoints;
    const all = [...first.nodes, ...next.nodes];
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    const times = all.map((p) => Date.parse(p.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('refuses a channel past maximumChannels, naming the limit', async () => {
    const live = Number(
      (
        await server.fieldbook.db
          .owner('channels')
          .where({ workspace_id: a.ws.id })
          .whereNull('deleted_at')
          .count('* as n')
      )[0]!.n,
    );
    for (let i = live; i < LIMITS.maximumChannels; i++) await createChannel(a.contributor.gql, `Filler ${i}`);
    const refused = failure(
      await a.contributor.gql('mutation { createChannel(input: { name: "One too many" }) { id } }'),
    );
    expect(refused.message).toContain(`at most ${LIMITS.maximumChannels} channels (maximumChannels)`);
  });
});
