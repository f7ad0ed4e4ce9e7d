import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule, workspacesModule, type DomainEvent, type EventBus } from '@fieldbook/core';
import { startTestServer, type TestServer } from '../support/server.ts';

/**
 * Two small modules run through the real createFieldbook: `digest` (depends on workspaces) and
 * `digestReader` (depends on digest). What they see and contribute is recorded here.
 */
const loadOrder: string[] = [];
const depsSeen: Record<string, string[]> = {};
const compiled: unknown[] = [];
const deliveredEvents: DomainEvent[] = [];
let digestEvents: EventBus | undefined;

const digest = defineModule({
  name: 'digest',
  dependsOn: [workspacesModule],
  services: (ctx) => {
    loadOrder.push('digest');
    depsSeen.digest = Object.keys(ctx.deps).sort();
    digestEvents = ctx.events;
    return {
      hasDirectory: () => typeof ctx.deps.workspaces.directory.find === 'function',
      headline: (count: number) => `${count} new insights this week`,
    };
  },
  graphql: () => ({
    typeDefs: 'extend type Query { digestHeadline(count: Int!): String! }',
    resolvers: {
      Query: { digestHeadline: (_: unknown, args: { count: number }) => `${args.count} new insights this week` },
    },
  }),
  routes: (router) => {
    router.get('/api/digest/health', (ctx) => {
      ctx.body = { digest: 'ok' };
    });
  },
  jobs: () => [
    {
      queue: 'digest.compile',
      handler: async (job) => {
        compiled.push(job.data);
      },
    },
  ],
  events: () => [
    {
      event: 'digest:requested',
      name: 'digest',
      handler: async (event) => {
        deliveredEvents.push(event);
      },
    },
  ],
});

const digestReader = defineModule({
  name: 'digestReader',
  dependsOn: [digest],
  services: (ctx) => {
    loadOrder.push('digestReader');
    depsSeen.digestReader = Object.keys(ctx.deps).sort();
    return { read: () => ctx.deps.digest.headline(2) };
  },
  graphql: (ctx) => ({
    typeDefs: 'extend type Query { digestReaderLine: String! }',
    // The service of the module it declared, reached through its typed context.
    resolvers: { Query: { digestReaderLine: () => `read: ${ctx.deps.digest.headline(5)}` } },
  }),
});

async function waitFor(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('modules in a running Fieldbook', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Given dependents first: the registry must still load dependencies first.
    server = await startTestServer({}, { modules: [digestReader, digest] });
  });
  afterAll(() => server?.close());

  it('loads modules in dependency order', () => {
    expect(loadOrder).toEqual(['digest', 'digestReader']);
  });

  it('passes each module the services of exactly the modules it declared', () => {
    expect(depsSeen).toEqual({ digest: ['workspaces'], digestReader: ['digest'] });
    const services = server.fieldbook.services as {
      digest: { hasDirectory(): boolean };
      digestReader: { read(): string };
    };
    expect(services.digest.hasDirectory()).toBe(true);
    expect(services.digestReader.read()).toBe('2 new insights this week');
  });

  it('mounts a module’s routes', async () => {
    const res = await fetch(`${server.url}/api/digest/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ digest: 'ok' });
  });

  it('adds a module’s GraphQL to the one schema', async () => {
    const res = await server.gql<{ digestHeadline: string; digestReaderLine: string; release: string }>(
      '{ digestHeadline(count: 3) digestReaderLine release }',
    );
    expect(res.errors).toBeUndefined();
    expect(res.data).toMatchObject({
      digestHeadline: '3 new insights this week',
      digestReaderLine: 'read: 5 new insights this week',
    });
  });

  it('runs a module’s jobs', async () => {
    await server.fieldbook.jobs.queue.send('digest.compile', { week: '2026-W47' });
    await waitFor('the digest job', () => compiled.length > 0);
    expect(compiled).toEqual([{ week: '2026-W47' }]);
  });

  it('delivers the events a module subscribed to', async () => {
    await digestEvents!.publish('digest:requested', null, { insightId: 'ins-1' });
    await waitFor('the event', () => deliveredEvents.length > 0);
    expect(deliveredEvents[0]).toMatchObject({ event: 'digest:requested', payload: { insightId: 'ins-1' } });
  });

  it('refuses to start with a module whose dependency is not loaded', async () => {
    await expect(startTestServer({}, { modules: [digestReader] })).rejects.toThrow(
      'Module "digestReader" depends on "digest", which is not loaded',
    );
  });
});
