import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, PluginPermissionError, type NotesWriter } from '@fieldbook/extensions-sdk/server';
import { createTestHost, signSlackRequest, type TestHost } from '@fieldbook/extensions-sdk/testing';
import { startFakeSlack, type FakeSlack } from '../testing/fake-slack.ts';

const SIGNING_SECRET = 'test-signing-secret';
const MESSAGE_TS = '1700000000.000100';

/** A plugin that asks only to see projects, yet tries to write notes. */
const nosyPlugin = definePlugin({
  id: 'nosy',
  name: 'Nosy',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['projects:read'],
  server: {
    actions: [
      {
        key: 'sneakNote',
        title: 'Sneak a note in',
        parameters: z.object({ projectId: z.string() }),
        async execute(ctx, params) {
          const { projectId } = params as { projectId: string };
          await (ctx as unknown as { notes: NotesWriter }).notes.create({ projectId, title: 'Not allowed', text: 'x' });
        },
      },
    ],
  },
});

let slack: FakeSlack;
let host: TestHost;
let projectId: string;

beforeAll(async () => {
  slack = await startFakeSlack({
    clientId: '1111.2222',
    clientSecret: 'client-secret',
    signingSecret: SIGNING_SECRET,
    codes: ['install-code'],
    channels: [
      {
        id: 'CFEED',
        name: 'customer-feedback',
        messages: [
          {
            type: 'message',
            ts: MESSAGE_TS,
            user: 'U888',
            text: 'Export to CSV is broken again\nIt times out after a minute.',
          },
        ],
      },
      { id: 'CGEN', name: 'general' },
      { id: 'CPROD', name: 'product' },
    ],
  });
  // This package's folder, loaded as Fieldbook loads an installed plugin: bundled into a sandbox of its own.
  host = await createTestHost({
    pluginFolders: [new URL('..', import.meta.url)],
    plugins: [nosyPlugin],
    env: {
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'client-secret',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: `${slack.url}/oauth/v2/authorize`,
    },
  });
  await host.signUpAdmin();
  projectId = await host.createProject('Customer feedback');
  await host.install('slack', { projectId });
  await host.enable('slack', projectId);
});

afterAll(async () => {
  await host?.close();
  await slack?.close();
});

const signed = (body: string, secret = SIGNING_SECRET) => signSlackRequest(body, secret);

describe('the webhook', () => {
  it('answers url_verification with the challenge and stores nothing', async () => {
    const body = JSON.stringify({
      token: 'legacy',
      challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    });
    const res = await host.sendWebhook('/slack/webhook', body, signed(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ challenge: 'challenge-3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
    expect(await host.storedEvents('slack')).toEqual([]);
  });

  it('refuses unsigned, wrongly signed and stale requests with 401 and stores nothing', async () => {
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0FAKE001',
      api_app_id: 'A1',
      token: 't',
      event_id: 'Ev0001',
      event_time: 1,
      event: { type: 'message' },
    });
    expect((await host.sendWebhook('/slack/webhook', body)).status).toBe(401);
    expect((await host.sendWebhook('/slack/webhook', body, signed(body, 'another-secret'))).status).toBe(401);
    const stale = signSlackRequest(body, SIGNING_SECRET, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect((await host.sendWebhook('/slack/webhook', body, stale)).status).toBe(401);
    // The signature covers the body: the same headers on a changed body do not pass.
    expect((await host.sendWebhook('/slack/webhook', body.replace('Ev0001', 'Ev0002'), signed(body))).status).toBe(401);
    expect(await host.storedEvents('slack')).toEqual([]);
  });
});

describe('connecting a Slack team', () => {
  it('sends admins to Slack with the client id, scopes, state and callback', async () => {
    const { authorizeUrl } = await host.startAuthorization('slack');
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${slack.url}/oauth/v2/authorize`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe('1111.2222');
    expect(authorizeUrl.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining([
        'assistant:write',
        'search:read.public',
        'channels:read',
        'groups:read',
        'groups:history',
        'chat:write',
        'commands',
      ]),
    );
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe('http://localhost:3000/oauth/slack/authorize');
    expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
  });

  it('refuses a callback whose state does not match this browser (400), then stores the team on a good one', async () => {
    const { authorizeUrl, cookie } = await host.startAuthorization('slack');
    const state = authorizeUrl.searchParams.get('state')!;
    const callback = (query: Record<string, string>, cookieHeader: string) =>
      fetch(`${host.url}/oauth/slack/authorize?${new URLSearchParams(query)}`, {
        headers: { cookie: cookieHeader },
        redirect: 'manual',
      });

    const other = await host.startAuthorization('slack');
    const mismatched = await callback({ code: 'install-code', state }, other.cookie);
    expect(mismatched.status).toBe(400);
    expect(await mismatched.text()).toMatch(/does not match/);
    expect(slack.requestsTo('oauth.v2.access')).toHaveLength(0);

    const good = await callback({ code: 'install-code', state }, cookie);
    expect(good.status).toBe(302);
    expect(good.headers.get('location')).toBe('/settings/integrations?integration=slack&connected=1');
    const [exchange] = slack.requestsTo('oauth.v2.access');
    expect(exchange?.body).toEqual({
      code: 'install-code',
      redirect_uri: 'http://localhost:3000/oauth/slack/authorize',
    });

    const plugins = await host.gql<{
      plugins: Array<{
        id: string;
        installation: { connectedAccount: { externalId: string; label: string } | null } | null;
      }>;
    }>(`{ plugins { id installation { connectedAccount { externalId label } } } }`);
    expect(plugins.errors).toBeUndefined();
    expect(plugins.data!.plugins.find((p) => p.id === 'slack')?.installation?.connectedAccount).toEqual({
      externalId: 'T0FAKE001',
      label: 'Fake Team',
    });
  });
});

describe('saving a message with the message shortcut', () => {
  const actionBody = (triggerId: string, responseUrl: string) =>
    `payload=${encodeURIComponent(
      JSON.stringify({
        type: 'message_action',
        token: 'legacy',
        callback_id: 'save_to_fieldbook',
        trigger_id: triggerId,
        response_url: responseUrl,
        action_ts: '1700000100.000200',
        message_ts: MESSAGE_TS,
        team: { id: 'T0FAKE001', domain: 'fake-team' },
        user: { id: 'U777', name: 'dana' },
        channel: { id: 'CFEED', name: 'customer-feedback' },
        message: {
          type: 'message',
          user: 'U888',
          ts: MESSAGE_TS,
          text: 'Export to CSV is broken again\nIt times out after a minute.',
        },
      }),
    )}`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('creates exactly one note even when the action is delivered twice', async () => {
    const responseUrl = slack.responseUrl();
    const body = actionBody('111.222.first', responseUrl);
    const first = await host.sendWebhook('/slack/webhook', body, { ...form, ...signed(body) });
    const again = await host.sendWebhook('/slack/webhook', body, { ...form, ...signed(body) });
    expect([first.status, again.status]).toEqual([200, 200]);
    await host.drainJobs();

    const notes = await host.notes(projectId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.title).toBe('Export to CSV is broken again');
    expect(notes[0]!.contentText).toContain('It times out after a minute.');
    expect(notes[0]!.contentText).toContain('<@U888>');
    expect(notes[0]!.contentText).toContain(
      `https://fake-team.slack.com/archives/CFEED/p${MESSAGE_TS.replace('.', '')}`,
    );
    expect(await host.storedEvents('slack')).toEqual([{ eventId: 'message_action:111.222.first', handled: true }]);
    const replies = slack.responses(responseUrl) as Array<{ text: string }>;
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toContain(
      `Saved to Fieldbook in Customer feedback: <http://localhost:3000/data/${notes[0]!.id}|`,
    );
  });

  it('does not save the same message again from a second click', async () => {
    const responseUrl = slack.responseUrl();
    const body = actionBody('333.444.second', responseUrl);
    expect((await host.sendWebhook('/slack/webhook', body, { ...form, ...signed(body) })).status).toBe(200);
    await host.drainJobs();
    expect(await host.notes(projectId)).toHaveLength(1);
    expect((slack.responses(responseUrl) as Array<{ text: string }>)[0]?.text).toMatch(
      /^This message is already in Fieldbook/,
    );
  });

  it('saves nothing to a chosen project the plugin is not enabled on, and says why', async () => {
    const elsewhere = await host.createProject('Not for Slack');
    const changed = await host.gql(
      `mutation($p: String!) { updatePluginSettings(pluginId: "slack", settings: [{ key: "projectId", text: $p }]) { id } }`,
      { p: elsewhere },
    );
    expect(changed.errors, JSON.stringify(changed.errors)).toBeUndefined();
    const responseUrl = slack.responseUrl();
    const body = actionBody('555.666.third', responseUrl);
    expect((await host.sendWebhook('/slack/webhook', body, { ...form, ...signed(body) })).status).toBe(200);
    await host.drainJobs();
    expect(await host.notes(elsewhere)).toEqual([]);
    expect((slack.responses(responseUrl) as Array<{ text: string }>)[0]?.text).toMatch(
      /^Fieldbook has no project to save messages to/,
    );
    await host.gql(
      `mutation($p: String!) { updatePluginSettings(pluginId: "slack", settings: [{ key: "projectId", text: $p }]) { id } }`,
      { p: projectId },
    );
  });
});

describe('plugin permissions', () => {
  it('keeps a plugin without notes:write from creating notes', async () => {
    await host.install('nosy');
    await expect(host.runAction('nosy', 'sneakNote', { projectId })).rejects.toBeInstanceOf(PluginPermissionError);
    expect(await host.notes(projectId)).toHaveLength(1);
  });
});

describe('the sendToSlack action', () => {
  it('posts the text to each channel with the bot token', async () => {
    const before = slack.requestsTo('chat.postMessage').length;
    const result = await host.runAction('slack', 'sendToSlack', {
      channelIds: ['CGEN', 'CPROD'],
      text: 'A new insight: exports time out.',
    });
    expect(result).toEqual({ summary: 'Posted to 2 Slack channels.' });
    const posts = slack.requestsTo('chat.postMessage').slice(before);
    expect(posts.map((p) => p.body)).toEqual([
      { channel: 'CGEN', text: 'A new insight: exports time out.' },
      { channel: 'CPROD', text: 'A new insight: exports time out.' },
    ]);
    expect(posts.every((p) => p.headers.authorization === `Bearer ${slack.botToken}`)).toBe(true);
    expect(
      host.outbound.filter((r) => r.pluginId === 'slack' && r.url === `${slack.apiUrl}/chat.postMessage`),
    ).toHaveLength(2);
  });

  it('refuses parameters outside the limits without calling Slack', async () => {
    const before = slack.requestsTo('chat.postMessage').length;
    await expect(host.runAction('slack', 'sendToSlack', { channelIds: [], text: 'x' })).rejects.toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'params.channelIds',
    });
    await expect(
      host.runAction('slack', 'sendToSlack', { channelIds: Array.from({ length: 21 }, (_, i) => `C${i}`), text: 'x' }),
    ).rejects.toThrow();
    await expect(
      host.runAction('slack', 'sendToSlack', { channelIds: ['CGEN'], text: 'x'.repeat(4001) }),
    ).rejects.toThrow();
    expect(slack.requestsTo('chat.postMessage').length).toBe(before);
  });
});
