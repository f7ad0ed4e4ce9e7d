import type Router from '@koa/router';
import type Koa from 'koa';
import type { IResolvers } from '@graphql-tools/utils';
import type { AiService } from '../ai/provider.ts';
import type { Config } from '../config.ts';
import type { Databases } from '../db/connections.ts';
import type { Entitlements, EntitlementSource } from '../entitlements/index.ts';
import type { Invalidations } from '../db/invalidations.ts';
import type { Mailer } from '../email/mailer.ts';
import type { Logger } from '../logger.ts';
import type { NotificationKind } from '../notifications/kinds.ts';
import type { DomainEvent, EventBus, EventHandler } from '../jobs/events.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { RequestContext } from './request-context.ts';

/** The part of a module others may refer to: its name and (for typing only) its services. */
export interface ModuleRef {
  readonly name: string;
  /** Phantom field carrying the services type; never set at run time. */
  readonly __services?: unknown;
}

export type ServicesOf<M> = M extends { readonly __services?: infer S } ? S : never;

/** Services of the modules a module declared, keyed by module name and fully typed. */
export type DependencyServices<Deps extends readonly ModuleRef[]> = {
  [M in Deps[number] as M['name']]: ServicesOf<M>;
};

/** Services of modules used when present: each key is undefined when that module is not loaded. */
export type OptionalDependencyServices<Opt extends readonly ModuleRef[]> = {
  [M in Opt[number] as M['name']]?: ServicesOf<M>;
};

/** What a module receives from core: exactly the parts it may use. */
export interface ModuleContext<
  Deps extends readonly ModuleRef[] = readonly ModuleRef[],
  Opt extends readonly ModuleRef[] = readonly [],
> {
  config: Config;
  db: Databases;
  logger: Logger;
  jobs: JobQueue;
  events: EventBus;
  mailer: Mailer;
  /** Tells every process to forget what it keeps in memory when that changes (an ended session). */
  invalidations: Invalidations;
  /**
   * The request context of an HTTP request, exactly as GraphQL resolvers get it (who calls, for
   * which workspace, with which role); a module's own routes authorize through it.
   */
  requestContext(koa: Koa.Context): Promise<RequestContext>;
  /** The context of a member acting outside a request (null when they are not a member). */
  memberContext(workspaceId: string, userId: string): Promise<RequestContext | null>;
  /** The one AI provider: channels, agents, automation and summaries all call models through it. */
  ai: AiService;
  /**
   * What the workspace's plan allows: every module asks it before a gated feature or before adding
   * to a limited count (001 §3.9). Without billing, the Self-hosted plan answers.
   */
  entitlements: Entitlements;
  /**
   * The services of the modules declared in `dependsOn`, and of those in `optionalDependsOn`
   * that are loaded (the others are undefined: say plainly what is missing, never fail).
   */
  deps: DependencyServices<Deps> & OptionalDependencyServices<Opt>;
}

export interface ModuleGraphql {
  typeDefs: string;
  resolvers: IResolvers<unknown, RequestContext>;
}

export interface EventSubscription {
  /** A domain event name, e.g. `note:created` (001 §3.1). */
  event: string;
  /** Names the subscriber's own queue, so one slow subscriber never holds up another. */
  name: string;
  handler: EventHandler;
  /**
   * Handles a fetched batch of events as a whole (`handler` then serves where a single job runs),
   * so events that concern nothing here (no automation listens, nobody follows) cost one shared
   * read instead of a transaction each. Answers each event's outcome in order: null when done, or
   * the error that fails it alone (retried as its queue says).
   */
  handleBatch?(events: ReadonlyArray<DomainEvent>): Promise<ReadonlyArray<unknown>>;
  /** Events fetched per poll (default 1); a busy subscriber takes a batch and fetches again at once. */
  batchSize?: number;
  /** Workers for the subscriber's queue in each process (default 1). */
  concurrency?: number;
}

export interface ModuleDefinition<
  Name extends string,
  Deps extends readonly ModuleRef[],
  Services,
  Opt extends readonly ModuleRef[] = readonly [],
> {
  name: Name;
  dependsOn?: Deps;
  /**
   * Modules used when they are loaded: they load first, and their services appear in `ctx.deps`.
   * This lets two modules cooperate (automation runs channel-scoped triggers, agents list themes)
   * without one requiring the other.
   */
  optionalDependsOn?: Opt;
  /** One contribution, or one per part of a larger module (each part keeps its own schema file). */
  graphql?: (ctx: ModuleContext<Deps, Opt>) => ModuleGraphql | readonly ModuleGraphql[];
  jobs?: (ctx: ModuleContext<Deps, Opt>) => readonly JobDefinition[];
  events?: (ctx: ModuleContext<Deps, Opt>) => readonly EventSubscription[];
  routes?: (router: Router, ctx: ModuleContext<Deps, Opt>) => void;
  services?: (ctx: ModuleContext<Deps, Opt>) => Services;
  /**
   * The module that answers what plans allow (billing) gives its source here; at most one module
   * may. Core installs it before the first request.
   */
  entitlements?: (ctx: ModuleContext<Deps, Opt>) => EntitlementSource;
  /** The notification kinds the module sends (each with its label, group and email delivery). */
  notificationKinds?: readonly NotificationKind[];
}

export interface FieldbookModule<
  Name extends string,
  Deps extends readonly ModuleRef[],
  Services,
  Opt extends readonly ModuleRef[] = readonly [],
> extends ModuleRef {
  readonly name: Name;
  readonly dependsOn: Deps;
  readonly optionalDependsOn: Opt;
  readonly definition: ModuleDefinition<Name, Deps, Services, Opt>;
  readonly __services?: Services;
}

/**
 * Declares a module. It does nothing at run time: it exists so the module's context, and the
 * services of the modules it depends on, are typed from its declaration.
 */
export function defineModule<
  const Name extends string,
  const Deps extends readonly ModuleRef[] = [],
  Services = undefined,
  const Opt extends readonly ModuleRef[] = [],
>(definition: ModuleDefinition<Name, Deps, Services, Opt>): FieldbookModule<Name, Deps, Services, Opt> {
  return {
    name: definition.name,
    dependsOn: (definition.dependsOn ?? []) as Deps,
    optionalDependsOn: (definition.optionalDependsOn ?? []) as Opt,
    definition,
  };
}
