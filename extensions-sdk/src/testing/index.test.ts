import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, PluginPermissionError } from '../server/index.ts';
import { createTestHost, type TestHost } from './index.ts';

/**
 * A plugin whose webhook queues a job that waits, calls the provider and writes a note: the kit
 * must see the whole chain through drainJobs and record the call.
 */
const relay = definePlugin({
  id: 'relay',
  name: 'Relay',
  version: '1.0.0',
  sdk: '^1',
  permissions: ['notes:write', 'projects:read'],
  config: { apiUrl: { env: 'RELAY_API_URL', description: 'Provider API', required: true, url: true } },
  settings: { projectId: { kind: 'project', label: 'Project' } },
  server: {
    oauth: {
      level: 'workspace',
      authorizeUrl: ({ state, redirectUri }, ctx) =>
        `${ctx.config.apiUrl}/authorize?state=${encodeURIComponent(state)}&redirect_uri=${encodeURIComponent(redirectUri)}`,
      async exchange({ code }, ctx) {
        const res = await ctx.http.fetch(`${ctx.config.apiUrl}/token`, {
          method: 'POST',
          body: new URLSearchParams({ code }),
        });
        const { account } = (await res.json()) as { account: string };
        return { externalId: account, label: 'Relay account', tokens: { access: 'token-1' } };
      },
    },
    webhooks: [
      {
        path: '/relay/hook',
        verify: (req) =>
          req.headers['x-relay-token'] === 'let-me-in' ? { ok: true } : { ok: false, reason: 'wrong token' },
        eventId: (req) => (JSON.parse(req.rawBody.toString('utf8')) as { id: string }).id,
        externalId: () => 'acct-1',
        async handle(ctx, event) {
          await ctx.jobs.send('write', { id: (JSON.parse(event.body) as { id: string }).id });
        },
      },
    ],
    jobs: {
      write: {
        async handler(ctx, data) {
          await new Promise((resolve) => setTimeout(resolve, 400));
          const res = await ctx.http.fetch(`${ctx.config.apiUrl}/lookup`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id: data.id }),
          });
          const { title } = (await res.json()) as { title: string };
          await ctx.notes.create({
            projectId: ctx.installation.settings.projectId!,
            title,
            text: 'From the relay',
            key: String(data.id),
          });
        },
      },
    },
    actions: [
      {
        key: 'fetchElsewhere',
        title: 'Fetch an undeclared host',
        parameters: z.object({}),
        async execute(ctx) {
          await ctx.http.fetch('https://example.org/');
        },
      },
    ],
  },
});

let provider: Server;
let providerUrl: string;
let host: TestHost;

beforeAll(async () => {
  provider = createServer((req, res) => {
    req.resume();
    const answer = req.url === '/token' ? { account: 'acct-1' } : { title: 'Looked up' };
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  host = await createTestHost({ plugins: [relay], env: { RELAY_API_URL: providerUrl } });
});

afterAll(async () => {
  await host?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

describe('createTestHost', () => {
  it('signs up admins of separate workspaces through the API', async () => {
    const first = await host.signUpAdmin();
    const second = await host.signUpAdmin();
    expect(first.workspaceId).not.toBe(second.workspaceId);
    const anonymous = await host.gql(`{ plugins { id } }`, {}, null);
    expect(anonymous.errors?.length).toBeGreaterThan(0);
    const listed = await host.gql<{ plugins: Array<{ id: string; state: string }> }>(
      `{ plugins { id state } }`,
      {},
      second,
    );
    // Only the plugins given to the kit are loaded; the bundled ones are not discovered.
    expect(listed.data?.plugins).toEqual([{ id: 'relay', state: 'READY' }]);
  });

  it('drains the webhook job and the plugin job it queues, and records the outbound calls', async () => {
    const projectId = await host.createProject('Relay inbox');
    await host.install('relay', { projectId });
    await host.enable('relay', projectId);
    const refused = await host.sendWebhook('/relay/hook', JSON.stringify({ id: 'e-0' }));
    expect(refused.status).toBe(401);
    expect(await host.storedEvents('relay')).toEqual([]);

    // Before an account is connected, an event is stored but handed to no installation.
    expect(
      (await host.sendWebhook('/relay/hook', JSON.stringify({ id: 'e-0' }), { 'x-relay-token': 'let-me-in' })).status,
    ).toBe(200);
    await host.drainJobs();
    expect(await host.storedEvents('relay')).toEqual([{ eventId: 'e-0', handled: false }]);

    const { authorizeUrl, cookie } = await host.startAuthorization('relay');
    const callback = await fetch(
      `${host.url}/oauth/relay/authorize?code=c-1&state=${encodeURIComponent(authorizeUrl.searchParams.get('state')!)}`,
      {
        headers: { cookie },
        redirect: 'manual',
      },
    );
    expect(callback.status).toBe(302);
    expect(host.outbound.map((r) => [r.pluginId, r.method, r.url, r.body])).toEqual([
      ['relay', 'POST', `${providerUrl}/token`, 'code=c-1'],
    ]);

    expect(
      (await host.sendWebhook('/relay/hook', JSON.stringify({ id: 'e-1' }), { 'x-relay-token': 'let-me-in' })).status,
    ).toBe(200);
    await host.drainJobs();
    expect((await host.notes(projectId)).map((n) => [n.title, n.contentText])).toEqual([
      ['Looked up', 'From the relay'],
    ]);
    expect(host.outbound.at(-1)).toMatchObject({
      pluginId: 'relay',
      method: 'POST',
      url: `${providerUrl}/lookup`,
      body: '{"id":"e-1"}',
    });
    expect(host.outbound.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('refuses an undeclared host and records nothing for it', async () => {
    const before = host.outbound.length;
    await expect(host.runAction('relay', 'fetchElsewhere', {})).rejects.toBeInstanceOf(PluginPermissionError);
    expect(host.outbound).toHaveLength(before);
  });
});
