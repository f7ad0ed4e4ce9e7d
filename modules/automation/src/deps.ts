import type { Knex } from 'knex';
import type { EventBus, JobQueue, ModuleContext, RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
type Logger = ModuleContext['logger'];
import type { ActionType, ChannelsPort } from './actions/types.ts';

export interface AutomationOptions {
  /** How long one action may run before it is cut off and counts as failed (default 30 s). */
  actionTimeoutMs: number;
  /** Retries of a failed action, with doubling delays, before its run fails (default 3). */
  retryLimit: number;
  retryDelaySeconds: number;
  /** Runs per minute per workspace until a workspace admin sets its own (default 600). */
  defaultRunsPerMinute: number;
}

export const DEFAULT_OPTIONS: AutomationOptions = {
  actionTimeoutMs: 30_000,
  retryLimit: 3,
  retryDelaySeconds: 5,
  defaultRunsPerMinute: 600,
};

/** What the automation module's parts share. */
export interface AutomationDeps {
  app: Knex;
  /** For the schedule sweep only: due automations of every workspace. */
  owner: Knex;
  jobs: JobQueue;
  events: EventBus;
  logger: Logger;
  research: ResearchServices;
  actionTypes(): ActionType[];
  channels(): ChannelsPort | null;
  memberContext(workspaceId: string, userId: string): Promise<RequestContext | null>;
  options: AutomationOptions;
}

export const RUN_QUEUE = 'automation.run';
export const SWEEP_QUEUE = 'automation.schedule-sweep';
