import {
  defineModule,
  extensionsModule,
  TRIGGER_EVENTS,
  workspacesModule,
  type DomainEvent,
  type Job,
  type ModuleContext,
} from '@fieldbook/core';
import agentsModule from '@fieldbook/agents';
import researchModule from '@fieldbook/research';
import channelsModule from '@fieldbook/channels';
import { builtinActions } from './actions/builtins.ts';
import { pluginActions } from './actions/registry.ts';
import type { AgentsPort } from './actions/types.ts';
import { automationGraphql } from './api/resolvers.ts';
import { DEFAULT_OPTIONS, RUN_QUEUE, SWEEP_QUEUE, type AutomationDeps, type AutomationOptions } from './deps.ts';
import { dispatchEvent, dispatchEvents, type DispatchResult } from './runs/dispatch.ts';
import { executeRun, type RunJobData } from './runs/execute.ts';
import { sweepSchedules } from './triggers/sweep.ts';

export type { AgentsPort, ChannelsPort, ActionOutput, ActionTrigger } from './actions/types.ts';
export type { AutomationOptions } from './deps.ts';
export type { DispatchResult } from './runs/dispatch.ts';

export interface AutomationServices {
  /** Fires every due schedule now (the minute job calls this; so may tests and the bench). */
  sweepSchedules(now?: Date): Promise<number>;
  /** Evaluates one event against the workspace's automations, as its subscription does. */
  dispatch(event: DomainEvent): Promise<DispatchResult>;
}

/** Subscriber name of automation's queues (`event.note:created.automation`). */
export const SUBSCRIBER = 'automation';

/**
 * Automation: on a domain event or a schedule, rules decide and ordered actions run as the
 * automation's owner (001 §3.1, §3.2, §5). Every catalogued event is subscribed to; each
 * automation handles an event once (one run per automation and event id).
 */
export function createAutomationModule(options: Partial<AutomationOptions> = {}) {
  const opts: AutomationOptions = { ...DEFAULT_OPTIONS, ...options };
  const cache = new WeakMap<object, AutomationDeps>();
  const depsOf = (
    ctx: ModuleContext<
      readonly [typeof workspacesModule, typeof extensionsModule, typeof researchModule],
      readonly [typeof agentsModule, typeof channelsModule]
    >,
  ): AutomationDeps => {
    let deps = cache.get(ctx.deps);
    if (!deps) {
      // invokeAgent runs through the agents module when it is loaded; without it, it is refused on save.
      const agents: AgentsPort | null = ctx.deps.agents?.automationPort ?? null;
      const builtins = builtinActions({
        research: ctx.deps.research,
        mailer: ctx.mailer,
        app: ctx.db.app,
        agents: () => agents,
        memberContext: ctx.memberContext,
      });
      deps = {
        app: ctx.db.app,
        owner: ctx.db.owner,
        jobs: ctx.jobs,
        events: ctx.events,
        logger: ctx.logger,
        research: ctx.deps.research,
        actionTypes: () => [...builtins, ...pluginActions(ctx.deps.extensions.host)],
        // Channel-scoped triggers are checked by the channels module when it is loaded.
        channels: () => ctx.deps.channels ?? null,
        memberContext: ctx.memberContext,
        options: opts,
      };
      cache.set(ctx.deps, deps);
    }
    return deps;
  };
  return defineModule({
    name: 'automation',
    dependsOn: [workspacesModule, extensionsModule, researchModule],
    // Agents run invokeAgent; channels check channel-scoped triggers. Each is used when loaded.
    optionalDependsOn: [agentsModule, channelsModule],
    services: (ctx): AutomationServices => ({
      sweepSchedules: (now) => sweepSchedules(depsOf(ctx), now),
      dispatch: (event) => dispatchEvent(depsOf(ctx), event),
    }),
    graphql: (ctx) => automationGraphql(depsOf(ctx)),
    events: (ctx) =>
      TRIGGER_EVENTS.filter((e) => e.key !== 'userSchedule').map((e) => ({
        event: e.key,
        name: SUBSCRIBER,
        // A burst of events is fetched in batches, not one per polling interval.
        batchSize: 20,
        concurrency: 2,
        handler: async (event: DomainEvent) => {
          await dispatchEvent(depsOf(ctx), event);
        },
        handleBatch: (events: ReadonlyArray<DomainEvent>) => dispatchEvents(depsOf(ctx), events),
      })),
    jobs: (ctx) => [
      {
        queue: RUN_QUEUE,
        // A hanging action is cut off by its own timeout; expiry is the backstop for a run as a whole.
        settings: {
          retryLimit: opts.retryLimit,
          retryDelaySeconds: opts.retryDelaySeconds,
          expireInSeconds: Math.max(60, Math.ceil((opts.actionTimeoutMs * 25) / 1000)),
          notify: true,
        },
        concurrency: 4,
        handler: (job: Job<unknown>) => executeRun(depsOf(ctx), job as Job<RunJobData>),
      },
      {
        queue: SWEEP_QUEUE,
        settings: { retryLimit: 0, deadLetter: false },
        schedule: { cron: '* * * * *' },
        handler: async () => {
          await sweepSchedules(depsOf(ctx));
        },
      },
    ],
  });
}

const automationModule = createAutomationModule();
export default automationModule;
