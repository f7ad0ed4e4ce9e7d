import { createHmac, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import linearLike from './fixtures/installation-webhooks/linear-like/server.ts';
import { definePlugin } from '../../../extensions-sdk/src/server/index.ts';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import research from '../../../modules/research/src/index.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { contentFixture, createProject, failure, ok, type ContentFixture } from '../research/content-support.ts';

const SECRET = 'linear-like-signing-secret';
const URL_QUERY = '{ plugins { id installation { id webhookUrl } } }';
const ROTATE = 'mutation { rotatePluginWebhookKey(pluginId: "linear-like") { id installation { webhookUrl } } }';

/** Every line the server logs, parsed. */
const lines: Array<Record<string, unknown>> = [];
const logger = pino(
  { level: 'debug' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  }),
);

describe('who sees and rotates an installation’s webhook URL, and what a refused delivery leaves', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let url: string;

  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer(
      { smtpUrl: mail.url },
      { modules: [research], plugins: [linearLike], discoverPlugins: false, logger },
    );
    f = await contentFixture(server, mail, ['MANAGER']);
    const projectId = (await createProject(f.admin, 'Issues')).id;
    ok(
      await f.admin(
        'mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "linear-like", settings: $s) { id } }',
        {
          s: [
            { key: 'signingSecret', text: SECRET },
            { key: 'projectId', text: projectId },
          ],
        },
      ),
    );
    const answer = ok(
      await f.admin<{ plugins: Array<{ id: string; installation: { webhookUrl: string | null } | null }> }>(URL_QUERY),
    );
    url = answer.plugins.find((p) => p.id === 'linear-like')!.installation!.webhookUrl!;
  });

  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it('shows the URL to workspace admins only, and lets only them rotate it', async () => {
    const seen = ok(
      await f.manager.gql<{
        plugins: Array<{ id: string; installation: { id: string; webhookUrl: string | null } | null }>;
      }>(URL_QUERY),
    );
    const installation = seen.plugins.find((p) => p.id === 'linear-like')!.installation!;
    expect(installation.id).toBeTruthy();
    expect(installation.webhookUrl).toBeNull();
    expect(failure(await f.manager.gql(ROTATE)).extensions?.errorCode).toBe('FORBIDDEN');
    // Unchanged by the refused attempt.
    const again = ok(
      await f.admin<{ plugins: Array<{ id: string; installation: { webhookUrl: string } | null }> }>(URL_QUERY),
    );
    expect(again.plugins.find((p) => p.id === 'linear-like')!.installation!.webhookUrl).toBe(url);
  });

  it('keeps the key only hashed and sealed in the database', async () => {
    const key = new URL(url).pathname.split('/').pop()!;
    const rows = await server.fieldbook.db
      .owner('plugin_installations')
      .where({ plugin_id: 'linear-like' })
      .select('webhook_key_hash', 'webhook_key');
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0]!.webhook_key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves one log line for a refused delivery, without its body or signature', async () => {
    const body = JSON.stringify({
      action: 'create',
      type: 'Issue',
      data: { id: 'ISS-1', title: 'A very recognisable forged title' },
    });
    const signature = createHmac('sha256', 'wrong-secret').update(body).digest('hex');
    const before = lines.length;
    const res = await fetch(`${server.url}${new URL(url).pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'linear-delivery': randomUUID(), 'linear-signature': signature },
      body,
    });
    expect(res.status).toBe(401);
    const logged = lines.slice(before).filter((l) => JSON.stringify(l).includes('webhook'));
    expect(logged.map((l) => l.msg)).toEqual(['webhook refused: signature not verified']);
    expect(JSON.stringify(lines.slice(before))).not.toContain('recognisable forged title');
    expect(JSON.stringify(lines.slice(before))).not.toContain(signature);
    // The URL's key is what lets a delivery in; it is not written to the logs either.
    expect(JSON.stringify(lines)).not.toContain(new URL(url).pathname.split('/').pop()!);
    const [stored] = await server.fieldbook.db
      .owner('plugin_webhook_events')
      .where({ plugin_id: 'linear-like' })
      .count<Array<{ count: string | number }>>('* as count');
    expect(Number(stored!.count)).toBe(0);
  });
});

describe('the /hooks/ paths', () => {
  it('are refused to fixed-path webhooks, which could otherwise catch installations’ deliveries', async () => {
    const hooks = definePlugin({
      id: 'hooks',
      name: 'Hooks',
      version: '1.0.0',
      sdk: '^1',
      permissions: [],
      server: {
        webhooks: [
          {
            path: '/hooks/:plugin/:key',
            verify: () => ({ ok: true }),
            eventId: () => 'x',
            externalId: () => null,
            handle: async () => undefined,
          },
        ],
      },
    });
    const catalog = await loadPluginCatalog({
      dir: null,
      packages: [],
      definitions: [hooks, linearLike],
      env: {},
      projectRoot: process.cwd(),
      logger: pino({ level: 'silent' }),
    });
    expect(catalog.plugins.map((p) => p.id)).toEqual(['linear-like']);
    expect(catalog.broken).toMatchObject([
      {
        source: 'hooks',
        problem: "The webhook path /hooks/:plugin/:key is under /hooks/, where installations' own webhook URLs are.",
      },
    ]);
  });
});
