import type Router from '@koa/router';
import type Koa from 'koa';
import type { IResolvers } from '@graphql-tools/utils';
import type { AiService } from '../ai/provider.ts';
import type { Config } from '../config.ts';
import type { Databases } from '../db/connections.ts';
import type { Invalidations } from '../db/invalidations.ts';
import type { Mailer } from '../email/mailer.ts';
import type { Logger } from '../logger.ts';
import type { EventBus, EventHandler } from '../jobs/events.ts';
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

/** What a module receives from core: exactly the parts it may use. */
export interface ModuleContext<Deps extends readonly ModuleRef[] = readonly ModuleRef[]> {
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
  deps: DependencyServices<Deps>;
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
  /** Events fetched per poll (default 1); a busy subscriber takes a batch and fetches again at once. */
  batchSize?: number;
  /** Workers for the subscriber's queue in each process (default 1). */
  concurrency?: number;
}

export interface ModuleDefinition<Name extends string, Deps extends readonly ModuleRef[], Services> {
  name: Name;
  dependsOn?: Deps;
  /** One contribution, or one per part of a larger module (each part keeps its own schema file). */
  graphql?: (ctx: ModuleContext<Deps>) => ModuleGraphql | readonly ModuleGraphql[];
  jobs?: (ctx: ModuleContext<Deps>) => readonly JobDefinition[];
  events?: (ctx: ModuleContext<Deps>) => readonly EventSubscription[];
  routes?: (router: Router, ctx: ModuleContext<Deps>) => void;
  services?: (ctx: ModuleContext<Deps>) => Services;
}

export interface FieldbookModule<Name extends string, Deps extends readonly ModuleRef[], Services> extends ModuleRef {
  readonly name: Name;
  readonly dependsOn: Deps;
  readonly definition: ModuleDefinition<Name, Deps, Services>;
  readonly __services?: Services;
}

/**
 * Declares a module. It does nothing at run time: it exists so the module's context, and the
 * services of the modules it depends on, are typed from its declaration.
 */
export function defineModule<const Name extends string, const Deps extends readonly ModuleRef[] = [], Services = undefined>(
  definition: ModuleDefinition<Name, Deps, Services>,
): FieldbookModule<Name, Deps, Services> {
  return { name: definition.name, dependsOn: (definition.dependsOn ?? []) as Deps, definition };
}
