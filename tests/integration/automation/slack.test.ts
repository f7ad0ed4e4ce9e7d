import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/src/config.ts';
import research from '../../../modules/research/src/index.ts';
import { createAutomationModule } from '../../../modules/automation/src/index.ts';
import slackPlugin from '../../../plugins/slack/server/index.ts';
import { startFakeSlack, type FakeSlack } from '../../../plugins/slack/testing/fake-slack.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { contentFixture, createProject, ok, type ContentFixture } from '../research/content-support.ts';
import { CREATE, finishedRun, noteTrigger } from './support.ts';

/**
 * sendToSlack end to end: an automation on note:created posts to Slack through the Slack plugin,
 * against a local Slack speaking the Web API (oauth.v2.access, chat.postMessage).
 */
describe('an automation that sends to Slack', () => {
  let slack: FakeSlack;
  let mail: TestMailServer;
  let server: TestServer;
  let f: ContentFixture;

  beforeAll(async () => {
    slack = await startFakeSlack({ codes: ['install-code'], channels: [{ id: 'CFEED', name: 'customer-feedback' }] });
    mail = await startMailServer();
    const env = {
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'fake-client-secret',
      SLACK_SIGNING_SECRET: 'fake-signing-secret',
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
    };
    // Only the plugin settings are taken from this configuration; the test server makes the rest.
    const { plugins } = loadConfig(
      { PUBLIC_URL: 'http://localhost:3000', ...env },
      { secretKey: 'x'.repeat(40), databaseUrl: 'postgres://unused' },
    );
    server = await startTestServer(
      { smtpUrl: mail.url, plugins },
      {
        modules: [research, createAutomationModule({ actionTimeoutMs: 5000, retryLimit: 0 })],
        plugins: [slackPlugin],
        discoverPlugins: false,
      },
    );
    f = await contentFixture(server, mail, []);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await mail?.close();
    await slack?.close();
  });

  it('posts the message with its placeholders filled when a note is created', async () => {
    const projectId = (await createProject(f.admin, 'Customer calls')).id;
    ok(
      await f.admin('mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "slack", settings: $s) { id } }', {
        s: [{ key: 'projectId', text: projectId }],
      }),
    );
    // Connect the Slack team: Fieldbook's consent link, then Slack's redirect back with a code.
    const start = await fetch(`${server.url}/api/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${f.ws.admin.accessToken}`,
        'x-fieldbook-workspace': f.ws.id,
      },
      body: JSON.stringify({ query: 'mutation { startIntegrationAuthorization(pluginId: "slack", source: "test") }' }),
    });
    const authorizeUrl = new URL(
      ((await start.json()) as { data: { startIntegrationAuthorization: string } }).data.startIntegrationAuthorization,
    );
    const cookie = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const back = await fetch(
      `${server.url}/oauth/slack/authorize?${new URLSearchParams({ code: 'install-code', state: authorizeUrl.searchParams.get('state')! })}`,
      { headers: { cookie }, redirect: 'manual' },
    );
    expect(back.status).toBe(302);

    const automation = ok(
      await f.admin<{ createAutomation: { id: string } }>(CREATE, {
        input: {
          title: 'Tell the team',
          trigger: noteTrigger(projectId),
          actions: [
            {
              actionType: 'sendToSlack',
              pluginId: 'slack',
              parameters: { channelIds: ['CFEED'], text: 'New note “{{note.title}}” in {{project.title}}' },
              executionOrder: 1,
            },
          ],
        },
      }),
    ).createAutomation;
    ok(
      await f.admin('mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }', {
        input: { projectId, title: 'Call with Dana' },
      }),
    );
    const [run] = await finishedRun(f.admin, automation.id);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded' });
    const posts = slack.requestsTo('chat.postMessage');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toMatchObject({ channel: 'CFEED', text: 'New note “Call with Dana” in Customer calls' });
  });
});
