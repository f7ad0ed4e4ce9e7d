import type Router from '@koa/router';
import type { FieldbookModule, ModuleContext, ModuleGraphql, ModuleRef, EventSubscription } from './module.ts';
import type { EntitlementSource } from '../entitlements/index.ts';
import type { JobDefinition } from '../jobs/queue.ts';
import { registerNotificationKinds } from '../notifications/kinds.ts';

/** Any declared module, seen from the registry (which never needs its exact types). */
export type LoadedModule = FieldbookModule<string, readonly ModuleRef[], unknown, readonly ModuleRef[]>;

export interface ModuleContributions {
  graphql: ModuleGraphql[];
  jobs: JobDefinition[];
  events: EventSubscription[];
  routes: Array<(router: Router) => void>;
  services: Record<string, unknown>;
  /** The source of entitlements a module (billing) gives, if one does. */
  entitlements: { module: string; source: EntitlementSource } | null;
}

/** Orders modules so each comes after the modules it depends on; fails on cycles or gaps. */
export function sortModules(modules: readonly LoadedModule[]): LoadedModule[] {
  const byName = new Map(modules.map((m) => [m.name, m]));
  const sorted: LoadedModule[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (m: LoadedModule, path: string[]): void => {
    if (state.get(m.name) === 'done') return;
    if (state.get(m.name) === 'visiting') throw new Error(`Module dependency cycle: ${[...path, m.name].join(' -> ')}`);
    state.set(m.name, 'visiting');
    for (const dep of m.dependsOn) {
      const found = byName.get(dep.name);
      if (!found) throw new Error(`Module "${m.name}" depends on "${dep.name}", which is not loaded`);
      visit(found, [...path, m.name]);
    }
    // An optional dependency that is loaded comes first too; one that is not is simply absent.
    for (const dep of m.optionalDependsOn ?? []) {
      const found = byName.get(dep.name);
      if (found) visit(found, [...path, m.name]);
    }
    state.set(m.name, 'done');
    sorted.push(m);
  };
  for (const m of modules) visit(m, []);
  return sorted;
}

/**
 * Loads modules in dependency order. Each receives a context whose `deps` holds the services of
 * exactly the modules it declared (optional ones only when loaded), and contributes GraphQL, jobs, events and routes.
 */
export function loadModules(modules: readonly LoadedModule[], base: Omit<ModuleContext, 'deps'>): ModuleContributions {
  const out: ModuleContributions = { graphql: [], jobs: [], events: [], routes: [], services: {}, entitlements: null };
  for (const m of sortModules(modules)) {
    const deps = Object.fromEntries(
      [...m.dependsOn, ...(m.optionalDependsOn ?? [])].map((d) => [d.name, out.services[d.name]]),
    );
    const ctx = { ...base, logger: base.logger.child({ module: m.name }), deps } as ModuleContext<readonly ModuleRef[]>;
    const def = m.definition;
    if (def.notificationKinds) registerNotificationKinds(m.name, def.notificationKinds);
    out.services[m.name] = def.services?.(ctx);
    if (def.graphql) out.graphql.push(...[def.graphql(ctx)].flat());
    if (def.jobs) out.jobs.push(...def.jobs(ctx));
    if (def.events) out.events.push(...def.events(ctx));
    if (def.entitlements) {
      if (out.entitlements)
        throw new Error(`Modules "${out.entitlements.module}" and "${m.name}" both answer entitlements; one may`);
      out.entitlements = { module: m.name, source: def.entitlements(ctx) };
    }
    if (def.routes) {
      const routes = def.routes;
      out.routes.push((router) => routes(router, ctx));
    }
  }
  return out;
}
