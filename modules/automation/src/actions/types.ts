import type { z } from 'zod';
import type { EventObjectKind, RequestContext } from '@fieldbook/core';
import type { JsonObject } from '@fieldbook/extensions-sdk/server';

/** What an action returns to the run history. */
export interface ActionOutput {
  summary?: string;
  [key: string]: unknown;
}

export interface ActionTrigger {
  event: string;
  eventId: string;
  payload: JsonObject;
}

/**
 * One kind of action an automation can take. Parameters are checked with `parameters` when the
 * automation is saved, and every id they name with `checkIds`, as the member saving it.
 */
export interface ActionType {
  actionType: string;
  title: string;
  description: string;
  /** Set for a plugin's action. */
  pluginId?: string;
  /** Why it cannot be used in this workspace now, if so. */
  unavailable?: string;
  parameters: z.ZodType;
  /** Objects the trigger's events must all carry (addTag tags the event's note). */
  needsContext?: readonly EventObjectKind[];
  /**
   * True when the action only writes Fieldbook's own data: it then runs in the transaction that
   * records it done, so a worker that dies half way never applies it twice.
   */
  transactional: boolean;
  checkIds?(member: RequestContext, params: Record<string, unknown>): Promise<void>;
  execute(
    member: RequestContext,
    params: Record<string, unknown>,
    trigger: ActionTrigger,
  ): Promise<ActionOutput | void>;
}

/** An action as stored on an automation (001 §3.2). */
export interface StoredAction {
  actionType: string;
  pluginId?: string | null;
  parameters: Record<string, unknown>;
  executionOrder: number;
}

/**
 * The agents module's part (an extension point: automation runs without it). When no module has
 * provided it, invokeAgent is refused on save.
 */
export interface AgentsPort {
  agentReadable(member: RequestContext, agentId: string): Promise<boolean>;
  invoke(
    member: RequestContext,
    input: { agentId: string; prompt: string; trigger: ActionTrigger },
  ): Promise<ActionOutput>;
}

/** The channels module's part: checks a channel id an automation is scoped to. */
export interface ChannelsPort {
  channelLevel(member: RequestContext, channelId: string): Promise<'read' | 'write' | 'full' | null>;
}
