import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginPermissionError } from '../../../extensions-sdk/src/server/index.ts';
import { createTestHost, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import { loadConfig } from '../../../core/src/config.ts';
import { loadPluginCatalog } from '../../../core/src/extensions/catalog/catalog.ts';
import { loadSandboxedPlugin, type SandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';

const fixtures = join(import.meta.dirname, 'fixtures', 'sandboxed');
const logger = createLogger('silent');
const SECRET = 'relay-signing-secret';
const sign = (body: string) => ({
  'content-type': 'application/json',
  'x-relay-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
});

let relay: SandboxedPlugin;
let host: TestHost;
let projectId: string;

beforeAll(async () => {
  relay = await loadSandboxedPlugin({ packageDir: join(fixtures, 'notes-relay'), serverEntry: './server.ts', logger });
  host = await createTestHost({ plugins: [relay.definition], env: { NOTES_RELAY_SECRET: SECRET } });
  await host.signUpAdmin();
  projectId = await host.createProject('Relayed messages');
  await host.install('notes-relay', { projectId });
  await host.enable('notes-relay', projectId);
});

afterAll(async () => {
  await host?.close();
  relay?.isolate.dispose();
});

describe('a sandboxed plugin through its context', () => {
  it('verifies signed webhooks in its sandbox, answers challenges, and turns a delivery into one note', async () => {
    const installation = await host.gql<{ plugins: Array<{ id: string; installation: { id: string } | null }> }>(
      '{ plugins { id installation { id } } }',
    );
    const account = installation.data!.plugins.find((p) => p.id === 'notes-relay')!.installation!.id;
    const challenge = JSON.stringify({ id: 'c-1', account, challenge: 'prove-it' });
    const answered = await host.sendWebhook('/notes-relay/webhook', challenge, sign(challenge));
    expect(await answered.json()).toEqual({ challenge: 'prove-it' });

    const body = JSON.stringify({
      id: 'm-1',
      account,
      text: 'Onboarding emails land in spam\nThree customers said so this week.',
    });
    expect(
      (
        await host.sendWebhook('/notes-relay/webhook', body, {
          'content-type': 'application/json',
          'x-relay-signature': '00'.repeat(32),
        })
      ).status,
    ).toBe(401);
    expect((await host.sendWebhook('/notes-relay/webhook', body, sign(body))).status).toBe(200);
    expect((await host.sendWebhook('/notes-relay/webhook', body, sign(body))).status).toBe(200);
    await host.drainJobs();
    const notes = await host.notes(projectId);
    expect(notes.map((n) => n.title)).toEqual(['Onboarding emails land in spam']);
    expect(notes[0]!.contentText).toContain('https://relay.example.com/messages/m-1?from=fieldbook');
    expect(await host.storedEvents('notes-relay')).toEqual([{ eventId: 'm-1', handled: true }]);
  });

  it('runs an automation action whose parameters are checked in the sandbox first', async () => {
    expect(await host.runAction('notes-relay', 'countProjects', { label: 'Enabled' })).toEqual({
      summary: 'Enabled: 1 of 1',
    });
    await expect(host.runAction('notes-relay', 'countProjects', { label: '' })).rejects.toMatchObject({
      errorCode: 'BAD_USER_INPUT',
      field: 'params.label',
    });
  });

  it("hands the host's permission errors to the plugin as the SDK's class, and back", async () => {
    await expect(host.runAction('notes-relay', 'refuse', {})).rejects.toBeInstanceOf(PluginPermissionError);
    expect(host.outbound.filter((r) => r.url.startsWith('https://elsewhere.example.com'))).toEqual([]);
  });
});

describe('GraphQL fields and jobs of a sandboxed plugin', () => {
  it('answers a query and queues a job from a mutation, which then runs in the sandbox', async () => {
    const count = await host.gql<{ notesRelayProjectCount: number }>('{ notesRelayProjectCount }');
    expect(count.data?.notesRelayProjectCount).toBe(1);
    const queued = await host.gql<{ notesRelaySaveLater: boolean }>(
      'mutation { notesRelaySaveLater(text: "Pricing questions from the webinar") }',
    );
    expect(queued.data?.notesRelaySaveLater).toBe(true);
    await host.drainJobs();
    const notes = await host.notes(projectId);
    expect(notes.find((n) => n.title === 'Pricing questions from the webinar')?.contentText).toMatch(/^Queued by /);
  });
});

describe('the catalog', () => {
  it('sandboxes every plugin package by default; the operator names bundled ones to trust, or turns it off', () => {
    const settings = { secretKey: 'a-secret-key-of-at-least-thirty-two-characters', databaseUrl: 'postgres://unused' };
    expect(loadConfig({}, settings).plugins.isolation).toEqual({ sandbox: true, trusted: [] });
    expect(loadConfig({ FIELDBOOK_TRUSTED_PLUGINS: 'slack, zoom' }, settings).plugins.isolation).toEqual({
      sandbox: true,
      trusted: ['slack', 'zoom'],
    });
    expect(loadConfig({ FIELDBOOK_PLUGIN_SANDBOX: 'off' }, settings).plugins.isolation?.sandbox).toBe(false);
  });

  it("sandboxes plugin packages unless the operator trusts them, and refuses one that imports node:fs or claims one of Fieldbook's paths", async () => {
    const catalog = await loadPluginCatalog({
      dir: fixtures,
      packages: [],
      env: { NOTES_RELAY_SECRET: SECRET },
      projectRoot: join(import.meta.dirname, '..', '..', '..'),
      logger,
      isolation: { sandbox: true, trusted: ['notes-relay'] },
    });
    expect(catalog.plugins.map((p) => [p.id, p.state, p.isolation])).toEqual([
      ['escape-artist', 'ready', 'sandbox'],
      ['notes-relay', 'ready', 'in-process'],
    ]);
    expect(catalog.broken.map(({ source, problem }) => ({ source, problem }))).toEqual([
      { source: join(fixtures, 'file-reader'), problem: expect.stringMatching(/cannot use node:fs/) },
      {
        source: join(fixtures, 'route-taker'),
        problem: 'The webhook path /api/graphql must start with /route-taker/.',
      },
    ]);
  });
});
