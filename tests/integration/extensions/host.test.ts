import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  definePlugin,
  PluginPermissionError,
  type InstallationContext,
} from '../../../extensions-sdk/src/server/index.ts';
import research from '../../../modules/research/src/index.ts';
import type { ExtensionsServices } from '../../../core/src/extensions/module.ts';
import { startMailServer, type TestMailServer } from '../../support/smtp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { contentFixture, createProject, failure, ok, type ContentFixture } from '../research/content-support.ts';

const SIGNING_SECRET = 'notes-bot-signing-secret-123';

/** Signs like a simple provider: hex HMAC-SHA256 of the raw body in `x-bot-signature`. */
const sign = (body: string) => createHmac('sha256', SIGNING_SECRET).update(body).digest('hex');

/** A small plugin that turns signed webhook messages into notes in its configured project. */
const notesBot = definePlugin({
  id: 'notes-bot',
  name: 'Notes bot',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['notes:write', 'projects:read', 'egress:bot.example.com'],
  config: { signingSecret: { env: 'NOTES_BOT_SECRET', description: 'Signing secret', required: true } },
  settings: {
    projectId: { kind: 'project', label: 'Project for messages', required: true },
    apiKey: { kind: 'secret', label: 'API key' },
  },
  server: {
    webhooks: [
      {
        path: '/notes-bot/webhook',
        verify: (req, ctx) => {
          const given = req.headers['x-bot-signature'];
          const secret = ctx.config.signingSecret;
          return given && secret && given === createHmac('sha256', secret).update(req.rawBody).digest('hex')
            ? { ok: true }
            : { ok: false, reason: 'bad signature' };
        },
        respond: (req) => {
          const body = JSON.parse(req.rawBody.toString()) as { challenge?: string };
          return body.challenge ? { body: { challenge: body.challenge } } : null;
        },
        eventId: (req) => (JSON.parse(req.rawBody.toString()) as { id: string }).id,
        externalId: (req) => (JSON.parse(req.rawBody.toString()) as { account: string }).account,
        handle: async (ctx, event) => {
          const message = JSON.parse(event.body) as { id: string; text: string };
          const projectId = ctx.installation.settings.projectId!;
          await ctx.notes.create({
            projectId,
            title: message.text.split('\n')[0]!,
            text: message.text,
            key: `message:${message.id}`,
          });
        },
      },
    ],
  },
});

/** A plugin that declares no note access and no hosts, to prove the context withholds both. */
const bystander = definePlugin({ id: 'bystander', name: 'Bystander', version: '0.1.0', sdk: '^1', permissions: [] });

describe('the plugin host', () => {
  let server: TestServer;
  let mail: TestMailServer;
  let f: ContentFixture;
  let services: ExtensionsServices;
  beforeAll(async () => {
    mail = await startMailServer();
    server = await startTestServer(
      {
        smtpUrl: mail.url,
        plugins: { packages: [], dir: '', maximumExtensions: 1, env: { NOTES_BOT_SECRET: SIGNING_SECRET } },
      },
      { modules: [research], plugins: [notesBot, bystander], discoverPlugins: false },
    );
    services = server.fieldbook.services.extensions as ExtensionsServices;
    f = await contentFixture(server, mail, ['MANAGER', 'CONTRIBUTOR']);
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  const INSTALL =
    'mutation($id: ID!, $s: [PluginSettingInput!]) { installPlugin(pluginId: $id, settings: $s) { id installation { id settings { key text isSet } } } }';
  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/notes-bot/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const storedEvents = async () =>
    Number((await server.fieldbook.db.owner('plugin_webhook_events').count('* as n'))[0]!.n);
  const waitFor = async <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 100; i++) {
      const v = await read();
      if (done(v)) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    return read();
  };

  it('installs only for admins, keeps secrets out of answers and the database, and enforces the extension cap', async () => {
    const project = await createProject(f.manager.gql, 'Support inbox');
    expect(
      failure(await f.contributor.gql(INSTALL, { id: 'notes-bot', s: [{ key: 'projectId', text: project.id }] }))
        .extensions?.errorCode,
    ).toBe('FORBIDDEN');
    expect(failure(await f.admin(INSTALL, { id: 'notes-bot', s: [] })).extensions?.field).toBe('settings.projectId');
    const installed = ok(
      await f.admin<{
        installPlugin: { installation: { settings: Array<{ key: string; text: string | null; isSet: boolean }> } };
      }>(INSTALL, {
        id: 'notes-bot',
        s: [
          { key: 'projectId', text: project.id },
          { key: 'apiKey', text: 'sk-very-secret-value' },
        ],
      }),
    );
    expect(installed.installPlugin.installation.settings).toEqual([
      { key: 'projectId', text: project.id, isSet: true },
      { key: 'apiKey', text: null, isSet: true },
    ]);
    const row = await server.fieldbook.db.owner('plugin_installations').where({ plugin_id: 'notes-bot' }).first();
    expect(JSON.stringify(row)).not.toContain('sk-very-secret-value');
    // The cap is 1: a second plugin is refused, naming the limit; re-installing says it is installed.
    const capped = failure(await f.admin(INSTALL, { id: 'bystander' }));
    expect(capped.extensions?.field).toBe('maximumExtensions');
    expect(capped.message).toMatch(/at most 1 extensions installed/);
    expect(
      failure(await f.admin(INSTALL, { id: 'notes-bot', s: [{ key: 'projectId', text: project.id }] })).message,
    ).toMatch(/already installed/);
    const limits = ok(
      await f.admin<{ extensionLimits: { installed: number; maximum: number } }>(
        '{ extensionLimits { installed maximum } }',
      ),
    );
    expect(limits.extensionLimits).toEqual({ installed: 1, maximum: 1 });
    // Neither plugin has a web part, so there is nothing for the app to load; strangers get no list.
    expect(
      ok(await f.contributor.gql<{ pluginRemotes: unknown[] }>('{ pluginRemotes { name } }')).pluginRemotes,
    ).toEqual([]);
    expect(failure(await server.gql('{ pluginRemotes { name } }')).extensions?.errorCode).toBe('UNAUTHENTICATED');
  });

  it('turns signed webhooks into notes once, refuses unsigned ones without a trace, and answers challenges', async () => {
    const { plugins } = ok(
      await f.admin<{
        plugins: Array<{ id: string; installation: { settings: Array<{ key: string; text: string | null }> } | null }>;
      }>('{ plugins { id installation { settings { key text } } } }'),
    );
    const projectId = plugins
      .find((p) => p.id === 'notes-bot')!
      .installation!.settings.find((s) => s.key === 'projectId')!.text!;
    // Enabling on the project is for its managers, not contributors.
    const ENABLE =
      'mutation($p: ID!) { setProjectPluginEnabled(projectId: $p, pluginId: "notes-bot", enabled: true) { enabled } }';
    expect(failure(await f.contributor.gql(ENABLE, { p: projectId })).extensions?.errorCode).toBe('FORBIDDEN');
    ok(await f.manager.gql(ENABLE, { p: projectId }));
    await server.fieldbook.db
      .owner('plugin_installations')
      .where({ plugin_id: 'notes-bot' })
      .update({ external_id: 'acct-1' });

    const challenge = JSON.stringify({ challenge: 'abc123', id: 'c', account: 'acct-1' });
    const answered = await post(challenge, { 'x-bot-signature': sign(challenge) });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ challenge: 'abc123' });

    const before = await storedEvents();
    const body = JSON.stringify({
      id: 'evt-1',
      account: 'acct-1',
      text: 'Pricing page confuses buyers\nThey could not find the annual plan.',
    });
    expect((await post(body)).status).toBe(401);
    expect((await post(body, { 'x-bot-signature': sign(`${body} `) })).status).toBe(401);
    expect(await storedEvents()).toBe(before);

    const started = Date.now();
    const first = await post(body, { 'x-bot-signature': sign(body) });
    expect(first.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await post(body, { 'x-bot-signature': sign(body) })).status).toBe(200);
    const NOTES = 'query($p: ID!) { notes(projectId: $p) { nodes { id title } } }';
    const notes = await waitFor(
      async () =>
        ok(await f.manager.gql<{ notes: { nodes: Array<{ title: string }> } }>(NOTES, { p: projectId })).notes.nodes,
      (n) => n.length > 0,
    );
    await new Promise((r) => setTimeout(r, 1500)); // time for a second job, were there one
    const again = ok(await f.manager.gql<{ notes: { nodes: Array<{ title: string }> } }>(NOTES, { p: projectId })).notes
      .nodes;
    expect(notes.map((n) => n.title)).toEqual(['Pricing page confuses buyers']);
    expect(again).toHaveLength(1);
    expect(await storedEvents()).toBe(before + 1); // one event however often delivered; the challenge is not stored
  });

  it('makes one note for one key even when two deliveries run at once', async () => {
    const { host } = services;
    const row = await host.inWorkspace(f.ws.id, (trx) =>
      trx('plugin_installations').where({ plugin_id: 'notes-bot' }).first(),
    );
    const ctx = host.installationContext(host.catalog.get('notes-bot')!, row) as InstallationContext<'notes:write'>;
    const projectId = row.settings.projectId as string;
    const draft = { projectId, title: 'Same recording', text: 'Delivered twice at once.', key: 'recording:concurrent' };
    const [a, b] = await Promise.all([ctx.notes.create(draft), ctx.notes.create(draft)]);
    expect(a.id).toBe(b.id);
    expect([a.created, b.created].sort()).toEqual([false, true]);
  });

  it('gives a plugin only what it declared: no notes, no undeclared or internal hosts', async () => {
    const { host } = services;
    const loaded = host.catalog.get('bystander')!;
    const botRow = await host.inWorkspace(f.ws.id, (trx) =>
      trx('plugin_installations').where({ plugin_id: 'notes-bot' }).first(),
    );
    // Its type says it may use notes, as a plugin that casts would claim; the host still refuses.
    const ctx = host.installationContext(loaded, {
      ...botRow,
      plugin_id: 'bystander',
    }) as InstallationContext<'notes:write'>;
    expect(() => ctx.notes).toThrow(PluginPermissionError);
    await expect(ctx.http.fetch('https://example.com/')).rejects.toThrow(
      /did not declare the permission egress:example.com/,
    );

    const bot = host.installationContext(host.catalog.get('notes-bot')!, botRow);
    // No permission could reach an internal address, so the error says so rather than naming one.
    await expect(bot.http.fetch('http://127.0.0.1:1/')).rejects.toThrow(
      '127.0.0.1 is an internal address and can never be reached.',
    );
    await expect(bot.http.fetch('http://169.254.169.254.bot.example.com/')).rejects.toThrow();
    await expect(bot.http.fetch(server.url)).rejects.toThrow(
      /^127\.0\.0\.1 is an internal address and can never be reached\.$/,
    );
  });
});
