import { describe, expect, it } from 'vitest';
import type { Config } from '../config.ts';
import type { Databases } from '../db/connections.ts';
import type { Invalidations } from '../db/invalidations.ts';
import type { Mailer } from '../email/mailer.ts';
import type { EventBus } from '../jobs/events.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { createLogger } from '../logger.ts';
import { defineModule, type ModuleContext } from './module.ts';
import type { Entitlements } from '../entitlements/index.ts';
import type { AiService } from '../ai/provider.ts';
import { loadModules, sortModules, type LoadedModule } from './registry.ts';

// The registry only hands these on; it never calls them.
const base: Omit<ModuleContext, 'deps'> = {
  config: {} as Config,
  db: {} as Databases,
  logger: createLogger('silent'),
  jobs: {} as JobQueue,
  events: {} as EventBus,
  mailer: {} as Mailer,
  invalidations: {} as Invalidations,
  ai: {} as AiService,
  entitlements: {} as Entitlements,
  requestContext: () => Promise.reject(new Error('no requests here')),
  memberContext: () => Promise.reject(new Error('no members here')),
};

const people = defineModule({ name: 'people', services: () => ({ countPeople: () => 3 }) });
const tags = defineModule({ name: 'tags', services: () => ({ tagNames: () => ['pricing'] }) });
const notes = defineModule({
  name: 'notes',
  dependsOn: [people, tags],
  services: (ctx) => ({
    summary: () => `${ctx.deps.people.countPeople()} people, tags ${ctx.deps.tags.tagNames().join(',')}`,
  }),
});
const insights = defineModule({
  name: 'insights',
  dependsOn: [notes],
  services: (ctx) => ({ fromNotes: () => ctx.deps.notes.summary() }),
});

const names = (modules: readonly LoadedModule[]) => modules.map((m) => m.name);

describe('module registry', () => {
  it('orders modules after the modules they depend on, whatever order they are given in', () => {
    const sorted = names(sortModules([insights, notes, tags, people]));
    expect(sorted.indexOf('people')).toBeLessThan(sorted.indexOf('notes'));
    expect(sorted.indexOf('tags')).toBeLessThan(sorted.indexOf('notes'));
    expect(sorted.indexOf('notes')).toBeLessThan(sorted.indexOf('insights'));
    expect(sorted).toHaveLength(4);
  });

  it('keeps the given order where no dependency decides it', () => {
    expect(names(sortModules([tags, people]))).toEqual(['tags', 'people']);
  });

  it('fails on a dependency cycle, naming the cycle', () => {
    const a: LoadedModule = { name: 'a', dependsOn: [{ name: 'b' }], optionalDependsOn: [], definition: { name: 'a' } };
    const b: LoadedModule = { name: 'b', dependsOn: [{ name: 'c' }], optionalDependsOn: [], definition: { name: 'b' } };
    const c: LoadedModule = { name: 'c', dependsOn: [{ name: 'a' }], optionalDependsOn: [], definition: { name: 'c' } };
    expect(() => sortModules([a, b, c])).toThrow('Module dependency cycle: a -> b -> c -> a');
  });

  it('fails on a module that depends on itself', () => {
    const self: LoadedModule = {
      name: 'self',
      dependsOn: [{ name: 'self' }],
      optionalDependsOn: [],
      definition: { name: 'self' },
    };
    expect(() => sortModules([self])).toThrow('Module dependency cycle: self -> self');
  });

  it('fails when a dependency is not loaded, naming both modules', () => {
    expect(() => sortModules([notes, people])).toThrow('Module "notes" depends on "tags", which is not loaded');
  });

  it('gives each module the services of exactly the modules it declared', () => {
    const seen = new Map<string, string[]>();
    const spy = (m: LoadedModule): LoadedModule => ({
      ...m,
      definition: {
        ...m.definition,
        services: (ctx: ModuleContext) => {
          seen.set(m.name, Object.keys(ctx.deps).sort());
          return m.definition.services?.(ctx);
        },
      },
    });
    const out = loadModules([insights, notes, people, tags].map(spy), base);
    expect(Object.fromEntries(seen)).toEqual({ people: [], tags: [], notes: ['people', 'tags'], insights: ['notes'] });
    const insightServices = out.services.insights as { fromNotes(): string };
    expect(insightServices.fromNotes()).toBe('3 people, tags pricing');
  });

  it('loads an optional dependency first when it is there, and leaves it undefined when it is not', () => {
    const reports = defineModule({
      name: 'reports',
      optionalDependsOn: [tags],
      services: (ctx) => ({
        describe: () => (ctx.deps.tags ? `tags ${ctx.deps.tags.tagNames().join(',')}` : 'no tags module'),
      }),
    });
    expect(names(sortModules([reports, tags]))).toEqual(['tags', 'reports']);
    const withTags = loadModules([reports, tags], base).services.reports as { describe(): string };
    expect(withTags.describe()).toBe('tags pricing');
    const alone = loadModules([reports], base).services.reports as { describe(): string };
    expect(alone.describe()).toBe('no tags module');
  });

  it('collects every module’s GraphQL, jobs, event subscriptions and routes', () => {
    const mounted: string[] = [];
    const full = defineModule({
      name: 'full',
      graphql: () => ({ typeDefs: 'extend type Query { full: Int }', resolvers: {} }),
      jobs: () => [{ queue: 'full.rebuild', handler: async () => {} }],
      events: () => [{ event: 'note:created', name: 'full', handler: async () => {} }],
      routes: (router) => void mounted.push(typeof router),
    });
    const out = loadModules([full], base);
    expect(out.graphql.map((g) => g.typeDefs)).toEqual(['extend type Query { full: Int }']);
    expect(out.jobs.map((j) => j.queue)).toEqual(['full.rebuild']);
    expect(out.events.map((e) => `${e.event}/${e.name}`)).toEqual(['note:created/full']);
    expect(out.routes).toHaveLength(1);
    out.routes[0]!({} as never);
    expect(mounted).toEqual(['object']);
  });

  it('takes the entitlement source of the one module that answers them, and refuses a second', () => {
    const source = { entitlements: () => Promise.reject(new Error('unused')) };
    const billing = defineModule({ name: 'billing', entitlements: () => source });
    expect(loadModules([billing], base).entitlements).toEqual({ module: 'billing', source });
    expect(loadModules([tags], base).entitlements).toBeNull();
    const other = defineModule({ name: 'other-billing', entitlements: () => source });
    expect(() => loadModules([billing, other], base)).toThrow(/"billing" and "other-billing" both answer entitlements/);
  });
});
