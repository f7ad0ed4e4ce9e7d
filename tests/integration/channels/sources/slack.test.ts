import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKey } from '../../../../core/src/config.ts';
import { SecretBox } from '../../../../core/src/extensions/runtime/secret-box.ts';
import { createSlackClient } from '../../../../plugins/slack/server/api/index.ts';
import { startFakeSlack, type FakeSlack } from '../../../../plugins/slack/testing/fake-slack.ts';
import { connect, install, points, startSourcesFixture, syncNow, type SourcesFixture } from './support.ts';

const ts = (minutesAgo: number, n = 0) => `${Math.floor(Date.now() / 1000) - minutesAgo * 60}.${String(100000 + n)}`;

let slack: FakeSlack;
let f: SourcesFixture;

/** Connects the workspace's installation to the Slack team, as the OAuth install would have. */
async function connectTeam(botToken: string): Promise<void> {
  const box = new SecretBox(deriveKey(f.server.fieldbook.config, 'plugin-secrets'));
  await f.server.fieldbook.db
    .owner('plugin_installations')
    .where({ plugin_id: 'slack', workspace_id: f.a.ws.id })
    .update({
      external_id: 'T0FAKE001',
      connection_label: 'Fake Team',
      connection_tokens: box.seal({ botToken, botUserId: 'U0FAKEBOT' }),
    });
}

beforeAll(async () => {
  slack = await startFakeSlack({
    channels: [
      {
        id: 'C1',
        name: 'feedback',
        messages: [
          { type: 'message', ts: ts(50), text: 'The mobile app logs me out every day', user: 'U1' },
          { type: 'message', ts: ts(40), text: 'Love the new search!', user: 'U2' },
          { type: 'message', ts: ts(30), text: 'Build 4312 deployed', bot_id: 'B1' },
          { type: 'message', ts: ts(20), text: '<@U3> has joined the channel', subtype: 'channel_join', user: 'U3' },
        ],
      },
      { id: 'C2', name: 'random', messages: [{ type: 'message', ts: ts(45), text: 'Lunch?', user: 'U1' }] },
      {
        id: 'C3',
        name: 'product-ideas',
        messages: [{ type: 'message', ts: ts(35), text: 'Export charts as PNG', user: 'U4' }],
      },
    ],
  });
  f = await startSourcesFixture([fileURLToPath(new URL('../../../../plugins/slack/', import.meta.url))], {
    SLACK_CLIENT_ID: '1111.2222',
    SLACK_CLIENT_SECRET: 'fake-client-secret',
    SLACK_SIGNING_SECRET: 'fake-signing-secret',
    SLACK_API_URL: slack.apiUrl,
  });
  await install(f.a.admin, 'slack', {});
  await connectTeam(slack.botToken);
});

afterAll(async () => {
  await f?.close();
  await slack?.close();
});

describe('Slack source', () => {
  let datasetId: string;

  it("imports the chosen channels' messages as conversations, leaving out bots and joins, after a rate limit", async () => {
    slack.rateLimitNext('conversations.history', 1);
    const run = await connect(f.a.contributor.gql, {
      channelId: f.channelId,
      pluginId: 'slack',
      kind: 'SLACK',
      settings: { channels: ['#feedback', 'C3'] },
    });
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 3, recordsCreated: 3, recordsFailed: 0 });
    datasetId = run.datasetId;
    expect(slack.requestsTo('conversations.history').length).toBe(3);
    const stored = await points(f.server, datasetId);
    expect([...stored.values()].map((p) => p.content).sort()).toEqual([
      'Export charts as PNG',
      'Love the new search!',
      'The mobile app logs me out every day',
    ]);
    const first = [...stored.entries()].find(([, p]) => p.content.startsWith('Love'))!;
    expect(first[0]).toMatch(/^C1:\d+\.\d+$/);
    expect(first[1].raw).toMatchObject({
      kind: 'conversation',
      messages: [{ text: 'Love the new search!', participant: 'U2' }],
    });
    // The data point links to the message in Slack: the permalink chat.getPermalink gives for it.
    const permalink = await createSlackClient({ baseUrl: slack.apiUrl, fetch }).getPermalink(
      slack.botToken,
      'C1',
      first[0].slice('C1:'.length),
    );
    expect(first[1].external_url).toBe(permalink);
  });

  it('reads only messages after the newest one kept, channel by channel', async () => {
    slack.channels[0]!.messages!.push({ type: 'message', ts: ts(1), text: 'Dark mode when?', user: 'U5' });
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({ status: 'COMPLETED', recordsRead: 1, recordsCreated: 1, recordsUpdated: 0 });
    expect((await points(f.server, datasetId)).size).toBe(4);
  });

  it('says in the sync history that Slack refused the token', async () => {
    await connectTeam('xoxb-revoked');
    const run = await syncNow(f.a.contributor.gql, datasetId);
    expect(run).toMatchObject({
      status: 'FAILED',
      error: 'Slack refused the connection’s token; a workspace admin connects Slack again in Settings → Integrations.',
    });
  });
});
