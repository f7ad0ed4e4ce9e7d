import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PluginDefinition } from '../../../extensions-sdk/src/server/index.ts';
import { createTestHost, type TestAdmin, type TestHost } from '../../../extensions-sdk/src/testing/index.ts';
import { loadSandboxedPlugin, type SandboxedPlugin } from '../../../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../../../core/src/logger.ts';

const PLUGIN = 'linear-like';
const logger = createLogger('silent');

interface Workspace {
  admin: TestAdmin;
  projectId: string;
  secret: string;
}

let host: TestHost;
let first: Workspace;
let second: Workspace;

/** A delivery as Linear sends it: the body, its delivery id, and the HMAC of the body with `secret`. */
function delivery(secret: string, issue: { id: string; title: string }, deliveryId = randomUUID()) {
  const body = JSON.stringify({
    action: 'create',
    type: 'Issue',
    data: { ...issue, description: 'Reported by three customers.' },
    webhookTimestamp: Date.now(),
  });
  const headers = {
    'content-type': 'application/json',
    'linear-delivery': deliveryId,
    'linear-signature': createHmac('sha256', secret).update(body).digest('hex'),
  };
  return { body, headers, deliveryId };
}

async function webhookUrl(as: TestAdmin): Promise<string> {
  const answer = await host.gql<{ plugins: Array<{ id: string; installation: { webhookUrl: string | null } | null }> }>(
    '{ plugins { id installation { webhookUrl } } }',
    {},
    as,
  );
  const url = answer.data?.plugins.find((p) => p.id === PLUGIN)?.installation?.webhookUrl;
  if (!url) throw new Error(`No webhook URL: ${JSON.stringify(answer.errors)}`);
  return url;
}

const pathOf = (url: string) => new URL(url).pathname;
const send = (url: string, d: { body: string; headers: Record<string, string> }) =>
  host.sendWebhook(pathOf(url), d.body, d.headers);

async function workspace(secret: string): Promise<Workspace> {
  const admin = await host.signUpAdmin();
  const projectId = await host.createProject('Issues from Linear', admin);
  await host.install(PLUGIN, { signingSecret: secret, projectId }, admin);
  await host.enable(PLUGIN, projectId, admin);
  return { admin, projectId, secret };
}

const FIXTURE = join(import.meta.dirname, 'fixtures', 'installation-webhooks', PLUGIN);

// Sandboxed is how plugin packages run by default; in-process is how the operator's trusted ones do.
describe.each(['sandboxed', 'in-process'] as const)("a %s plugin's webhook at each installation's own URL", (mode) => {
  let sandboxed: SandboxedPlugin | null = null;

  beforeAll(async () => {
    let definition: PluginDefinition;
    if (mode === 'sandboxed') {
      sandboxed = await loadSandboxedPlugin({ packageDir: FIXTURE, serverEntry: './server.ts', logger });
      definition = sandboxed.definition;
    } else {
      definition = ((await import(join(FIXTURE, 'server.ts'))) as { default: PluginDefinition }).default;
    }
    host = await createTestHost({ plugins: [definition] });
    first = await workspace('first-workspace-signing-secret');
    second = await workspace('second-workspace-signing-secret');
  });

  afterAll(async () => {
    await host?.close();
    sandboxed?.isolate.dispose();
  });

  it('gives each installation an unguessable URL under the public address', async () => {
    const url = await webhookUrl(first.admin);
    expect(url).toMatch(new RegExp(`^http://localhost:3000/hooks/${PLUGIN}/[A-Za-z0-9_-]{43}$`));
    expect(await webhookUrl(second.admin)).not.toBe(url);
    // Signed out, nobody learns it.
    const anonymous = await host.gql('{ plugins { id installation { webhookUrl } } }', {}, null);
    expect(JSON.stringify(anonymous.data ?? {})).not.toContain('/hooks/');
  });

  it('turns a correctly signed delivery into exactly one note, and the same delivery again into nothing more', async () => {
    const d = delivery(first.secret, { id: 'ISS-1', title: 'Exports time out for large projects' });
    const url = await webhookUrl(first.admin);
    expect((await send(url, d)).status).toBe(200);
    expect((await send(url, d)).status).toBe(200);
    await host.drainJobs();
    const notes = await host.notes(first.projectId, first.admin);
    expect(notes.filter((n) => n.title === 'Exports time out for large projects')).toHaveLength(1);
    expect(notes.find((n) => n.title === 'Exports time out for large projects')?.contentText).toContain(
      'create in Linear',
    );
    expect((await host.storedEvents(PLUGIN)).filter((e) => e.eventId === d.deliveryId)).toEqual([
      { eventId: d.deliveryId, handled: true },
    ]);
  });

  it('answers a forged delivery 401 and stores nothing of it', async () => {
    const before = (await host.storedEvents(PLUGIN)).length;
    const forged = delivery('a-guessed-secret', { id: 'ISS-X', title: 'Forged issue' });
    const res = await send(await webhookUrl(first.admin), forged);
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain('Forged issue');
    const unsigned = await send(await webhookUrl(first.admin), {
      body: forged.body,
      headers: { 'content-type': 'application/json', 'linear-delivery': forged.deliveryId },
    });
    expect(unsigned.status).toBe(401);
    expect(await host.storedEvents(PLUGIN)).toHaveLength(before);
    await host.drainJobs();
    expect((await host.notes(first.projectId, first.admin)).map((n) => n.title)).not.toContain('Forged issue');
  });

  it('still handles a genuine delivery whose id a forged one used first', async () => {
    const url = await webhookUrl(first.admin);
    const genuine = delivery(first.secret, { id: 'ISS-2', title: 'Search misses quoted phrases' });
    const forged = {
      body: genuine.body.replace('Search misses', 'Forged:'),
      headers: { ...genuine.headers, 'linear-signature': '00'.repeat(32) },
    };
    expect((await send(url, forged)).status).toBe(401);
    expect((await send(url, genuine)).status).toBe(200);
    await host.drainJobs();
    const titles = (await host.notes(first.projectId, first.admin)).map((n) => n.title);
    expect(titles).toContain('Search misses quoted phrases');
    expect(titles.some((t) => t.startsWith('Forged:'))).toBe(false);
  });

  it('answers the plugin’s own reply without storing anything', async () => {
    const before = (await host.storedEvents(PLUGIN)).length;
    const body = JSON.stringify({ type: 'Ping' });
    const res = await host.sendWebhook(pathOf(await webhookUrl(first.admin)), body, {
      'linear-delivery': randomUUID(),
      'linear-signature': createHmac('sha256', first.secret).update(body).digest('hex'),
    });
    expect(await res.json()).toEqual({ pong: true });
    expect(await host.storedEvents(PLUGIN)).toHaveLength(before);
  });

  it('delivers to each workspace only its own events, each verified with its own secret', async () => {
    const [firstUrl, secondUrl] = [await webhookUrl(first.admin), await webhookUrl(second.admin)];
    // The same delivery id at two accounts: each installation deduplicates on its own.
    const shared = randomUUID();
    expect(
      (await send(firstUrl, delivery(first.secret, { id: 'ISS-3', title: 'First workspace issue' }, shared))).status,
    ).toBe(200);
    expect(
      (await send(secondUrl, delivery(second.secret, { id: 'ISS-4', title: 'Second workspace issue' }, shared))).status,
    ).toBe(200);
    // Signed with the other workspace's secret: refused.
    expect((await send(secondUrl, delivery(first.secret, { id: 'ISS-5', title: 'Crossed over' }))).status).toBe(401);
    await host.drainJobs();
    const firstTitles = (await host.notes(first.projectId, first.admin)).map((n) => n.title);
    const secondTitles = (await host.notes(second.projectId, second.admin)).map((n) => n.title);
    expect(firstTitles).toContain('First workspace issue');
    expect(firstTitles).not.toContain('Second workspace issue');
    expect(secondTitles).toEqual(['Second workspace issue']);
  });

  it('answers 404 for a key that is no installation’s, and stores nothing', async () => {
    const before = (await host.storedEvents(PLUGIN)).length;
    const d = delivery(first.secret, { id: 'ISS-6', title: 'Nowhere' });
    expect((await host.sendWebhook(`/hooks/${PLUGIN}/${'A'.repeat(43)}`, d.body, d.headers)).status).toBe(404);
    expect((await host.sendWebhook(`/hooks/${PLUGIN}/short`, d.body, d.headers)).status).toBe(404);
    expect(
      (
        await host.sendWebhook(
          `/hooks/another-plugin/${pathOf(await webhookUrl(first.admin))
            .split('/')
            .pop()}`,
          d.body,
          d.headers,
        )
      ).status,
    ).toBe(404);
    expect(await host.storedEvents(PLUGIN)).toHaveLength(before);
  });

  it('refuses a 3 MB body before verifying or storing it', async () => {
    const before = (await host.storedEvents(PLUGIN)).length;
    const huge = delivery(first.secret, { id: 'ISS-7', title: 'x'.repeat(3 * 1024 * 1024) });
    expect((await send(await webhookUrl(first.admin), huge)).status).toBe(413);
    expect(await host.storedEvents(PLUGIN)).toHaveLength(before);
  });

  it('gives a new URL on rotation; the old one answers 404 at once and the new one works', async () => {
    const old = await webhookUrl(first.admin);
    const rotated = await host.gql<{ rotatePluginWebhookKey: { installation: { webhookUrl: string } } }>(
      `mutation($p: ID!) { rotatePluginWebhookKey(pluginId: $p) { installation { webhookUrl } } }`,
      { p: PLUGIN },
      first.admin,
    );
    const next = rotated.data!.rotatePluginWebhookKey.installation.webhookUrl;
    expect(next).not.toBe(old);
    expect(await webhookUrl(first.admin)).toBe(next);
    expect((await send(old, delivery(first.secret, { id: 'ISS-8', title: 'Sent to the old URL' }))).status).toBe(404);
    expect((await send(next, delivery(first.secret, { id: 'ISS-9', title: 'Sent to the new URL' }))).status).toBe(200);
    await host.drainJobs();
    const titles = (await host.notes(first.projectId, first.admin)).map((n) => n.title);
    expect(titles).toContain('Sent to the new URL');
    expect(titles).not.toContain('Sent to the old URL');
    // The other workspace's URL is untouched.
    expect(
      (await send(await webhookUrl(second.admin), delivery(second.secret, { id: 'ISS-10', title: 'Still arriving' })))
        .status,
    ).toBe(200);
  });

  it('lets only a signed-in workspace admin rotate, and only a plugin with such a webhook', async () => {
    const anonymous = await host.gql(`mutation { rotatePluginWebhookKey(pluginId: "${PLUGIN}") { id } }`, {}, null);
    expect(anonymous.errors?.[0]?.extensions?.errorCode).toMatch(/UNAUTHENTICATED|FORBIDDEN/);
    const unknown = await host.gql(
      `mutation { rotatePluginWebhookKey(pluginId: "no-such-plugin") { id } }`,
      {},
      first.admin,
    );
    expect(unknown.errors?.[0]?.extensions?.errorCode).toBe('NOT_FOUND');
  });

  it('tells the plugin that an internal address can never be reached, not that a permission is missing', async () => {
    for (const [url, host_] of [
      ['http://127.0.0.1:5432/', '127.0.0.1'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
      ['http://localhost:3000/', 'localhost'],
    ]) {
      const answer = await host.gql<{ linearLikeReach: string }>(
        'query($u: String!) { linearLikeReach(url: $u) }',
        { u: url },
        first.admin,
      );
      expect(answer.data?.linearLikeReach, url).toBe(`${host_} is an internal address and can never be reached.`);
    }
  });

  it('stores a burst of deliveries sent at once, repeats among them, each exactly once', async () => {
    // Concurrent deliveries are written together (one commit for many): a repeat inside the same
    // commit, or across commits, must still be stored and handled once, in its own workspace.
    const firstUrl = await webhookUrl(first.admin);
    const secondUrl = await webhookUrl(second.admin);
    const burst = Array.from({ length: 12 }, (_, i) => ({
      url: i % 2 ? secondUrl : firstUrl,
      d: delivery(i % 2 ? second.secret : first.secret, { id: `BURST-${i}`, title: `Burst issue ${i}` }),
    }));
    const answers = await Promise.all([...burst, ...burst].map(({ url, d }) => send(url, d)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    await host.drainJobs();
    const titles = async (w: Workspace) =>
      (await host.notes(w.projectId, w.admin))
        .map((n) => n.title)
        .filter((t) => t.startsWith('Burst issue'))
        .sort();
    expect(await titles(first)).toEqual([
      'Burst issue 0',
      'Burst issue 10',
      'Burst issue 2',
      'Burst issue 4',
      'Burst issue 6',
      'Burst issue 8',
    ]);
    expect(await titles(second)).toEqual([
      'Burst issue 1',
      'Burst issue 11',
      'Burst issue 3',
      'Burst issue 5',
      'Burst issue 7',
      'Burst issue 9',
    ]);
    const stored = (await host.storedEvents(PLUGIN)).filter((e) => burst.some((b) => b.d.deliveryId === e.eventId));
    expect(stored).toHaveLength(12);
    expect(stored.every((e) => e.handled)).toBe(true);
  });
});
