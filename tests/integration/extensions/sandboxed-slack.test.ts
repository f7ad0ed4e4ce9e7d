import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestHost, signSlackRequest, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import { loadSandboxedPlugin, type SandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';
import { startFakeSlack, type FakeSlack } from '../../../plugins/slack/testing/fake-slack.ts';

/** The shipped Slack plugin, run in the sandbox: OAuth, the signed message shortcut and an action. */
const SIGNING_SECRET = 'test-signing-secret';
const MESSAGE_TS = '1700000000.000100';

let slack: FakeSlack;
let sandboxed: SandboxedPlugin;
let host: TestHost;
let projectId: string;

beforeAll(async () => {
  slack = await startFakeSlack({
    clientId: '1111.2222',
    clientSecret: 'client-secret',
    signingSecret: SIGNING_SECRET,
    codes: ['install-code'],
    channels: [
      { id: 'CFEED', name: 'customer-feedback', messages: [{ type: 'message', ts: MESSAGE_TS, user: 'U888', text: 'Export to CSV is broken again\nIt times out after a minute.' }] },
      { id: 'CGEN', name: 'general' },
    ],
  });
  sandboxed = await loadSandboxedPlugin({ packageDir: join(import.meta.dirname, '..', '..', '..', 'plugins', 'slack'), serverEntry: './server/index.ts', logger: createLogger('silent') });
  host = await createTestHost({
    plugins: [sandboxed.definition],
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
  sandboxed?.isolate.dispose();
  await slack?.close();
});

describe('Slack in the sandbox', () => {
  it('refuses a wrongly signed request and answers the url_verification challenge', async () => {
    const body = JSON.stringify({ token: 'legacy', challenge: 'challenge-abc', type: 'url_verification' });
    expect((await host.sendWebhook('/slack/webhook', body, signSlackRequest(body, 'another-secret'))).status).toBe(401);
    const res = await host.sendWebhook('/slack/webhook', body, signSlackRequest(body, SIGNING_SECRET));
    expect(await res.json()).toEqual({ challenge: 'challenge-abc' });
  });

  it('connects a team through OAuth', async () => {
    const { authorizeUrl, cookie } = await host.startAuthorization('slack');
    expect(authorizeUrl.searchParams.get('client_id')).toBe('1111.2222');
    const state = authorizeUrl.searchParams.get('state')!;
    const good = await fetch(`${host.url}/oauth/slack/authorize?${new URLSearchParams({ code: 'install-code', state })}`, { headers: { cookie }, redirect: 'manual' });
    expect(good.status).toBe(302);
    expect(slack.requestsTo('oauth.v2.access')).toHaveLength(1);
  });

  it('saves a message from the shortcut as one note and replies in Slack', async () => {
    const responseUrl = slack.responseUrl();
    const body = `payload=${encodeURIComponent(
      JSON.stringify({
        type: 'message_action',
        token: 'legacy',
        callback_id: 'save_to_fieldbook',
        trigger_id: '111.222.first',
        response_url: responseUrl,
        action_ts: '1700000100.000200',
        message_ts: MESSAGE_TS,
        team: { id: 'T0FAKE001', domain: 'fake-team' },
        user: { id: 'U777', name: 'dana' },
        channel: { id: 'CFEED', name: 'customer-feedback' },
        message: { type: 'message', user: 'U888', ts: MESSAGE_TS, text: 'Export to CSV is broken again\nIt times out after a minute.' },
      }),
    )}`;
    const headers = { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(body, SIGNING_SECRET) };
    expect((await host.sendWebhook('/slack/webhook', body, headers)).status).toBe(200);
    await host.drainJobs();
    const notes = await host.notes(projectId);
    expect(notes.map((n) => n.title)).toEqual(['Export to CSV is broken again']);
    expect((slack.responses(responseUrl) as Array<{ text: string }>)[0]?.text).toContain('Saved to Fieldbook in Customer feedback');
  });

  it('posts with sendToSlack, and refuses bad parameters before calling Slack', async () => {
    expect(await host.runAction('slack', 'sendToSlack', { channelIds: ['CGEN'], text: 'A new insight.' })).toEqual({ summary: 'Posted to 1 Slack channel.' });
    expect(slack.requestsTo('chat.postMessage').map((p) => p.body)).toEqual([{ channel: 'CGEN', text: 'A new insight.' }]);
    await expect(host.runAction('slack', 'sendToSlack', { channelIds: [], text: 'x' })).rejects.toMatchObject({ errorCode: 'BAD_USER_INPUT', field: 'params.channelIds' });
  });
});
