import { z } from 'zod';
import {
  AppError,
  badInput,
  forbidden,
  notFound,
  resolveTrigger,
  validate,
  type CompositeTrigger,
  type RequestContext,
} from '@fieldbook/core';
import { findAction } from '../actions/registry.ts';
import type { ActionType, StoredAction } from '../actions/types.ts';
import type { AutomationDeps } from '../deps.ts';
import { buildRules, RulesError } from '../rules/rules.ts';
import { recurrenceSchema } from '../triggers/schedule.ts';
import type { StoredTrigger } from './rows.ts';

export const AUTOMATION_TITLE_MAX = 255;
export const ACTIONS_MAX = 20;

export const automationInput = z.object({
  title: z
    .string({ error: 'title: An automation needs a title.' })
    .trim()
    .min(1, 'title: An automation needs a title.')
    .max(AUTOMATION_TITLE_MAX, `title: An automation title can have at most ${AUTOMATION_TITLE_MAX} characters.`),
  trigger: z.object({
    type: z.enum(['Event', 'Schedule'], { error: 'trigger.type must be Event or Schedule.' }),
    eventKey: z.string().min(1, 'trigger.eventKey: choose an event.'),
    configure: z.record(z.string(), z.string()).nullish(),
    rules: z.unknown().optional(),
    recurrence: recurrenceSchema.nullish(),
  }),
  actions: z
    .array(
      z.object({
        actionType: z.string().min(1, 'actionType: choose an action.'),
        pluginId: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()),
        executionOrder: z.number().int(),
      }),
    )
    .min(1, 'actions: an automation needs at least one action.')
    .max(ACTIONS_MAX, `actions: an automation can have at most ${ACTIONS_MAX} actions.`),
  enabled: z.boolean().optional(),
});

export type AutomationInput = z.infer<typeof automationInput>;

export interface CheckedAutomation {
  title: string;
  projectId: string | null;
  trigger: StoredTrigger;
  actions: StoredAction[];
}

const isAdmin = (ctx: RequestContext) =>
  Boolean(ctx.membership?.workspaceAdmin || ctx.membership?.effectiveRole === 'WORKSPACE_ADMIN');

/**
 * Who may automate what (001 §6 with the brief's rule): a project's events by its managers (full
 * access), a channel's by those who manage the channel, everything workspace-wide by admins.
 */
export async function assertMayAutomate(
  deps: AutomationDeps,
  ctx: RequestContext,
  trigger: Pick<StoredTrigger, 'configure'>,
): Promise<void> {
  ctx.authorize('projects:read');
  const projectId = trigger.configure['project.id'];
  const channelId = trigger.configure['channel.id'];
  if (projectId) {
    const level = await deps.research.projectLevel(ctx, projectId);
    if (!level) throw notFound('That project');
    if (level !== 'full') throw forbidden('Only managers of this project can automate its events.');
    return;
  }
  if (channelId) {
    const channels = deps.channels();
    if (!channels) throw badInput('trigger.configure', 'Channels are not available in this workspace.');
    const level = await channels.channelLevel(ctx, channelId);
    if (!level) throw notFound('That channel');
    if (level !== 'full' && !isAdmin(ctx)) throw forbidden('Only managers of this channel can automate its events.');
    return;
  }
  if (!isAdmin(ctx)) throw forbidden('Only workspace admins can automate workspace-wide events.');
}

function checkTrigger(input: AutomationInput['trigger']): { trigger: StoredTrigger; resolved: CompositeTrigger } {
  const resolved = resolveTrigger(input.eventKey);
  const isSchedule = resolved.events.some((e) => e.key === 'userSchedule');
  if (input.type === 'Schedule' && !isSchedule)
    throw badInput('trigger.eventKey', 'A schedule trigger uses the userSchedule event.');
  if (input.type === 'Event' && isSchedule)
    throw badInput('trigger.type', 'The userSchedule event is a Schedule trigger.');
  if (input.type === 'Schedule' && !input.recurrence)
    throw badInput('trigger.recurrence', 'A schedule needs its recurrence: Daily, Weekly, Monthly or Yearly.');
  const configure: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.configure ?? {})) {
    if (!resolved.configure.includes(key))
      throw badInput(`trigger.configure.${key}`, `${input.eventKey} cannot be configured by ${key}.`);
    if (!z.uuid().safeParse(value).success) throw badInput(`trigger.configure.${key}`, `${key} must be a valid id.`);
    if (value) configure[key] = value.toLowerCase();
  }
  let rules = null;
  if (input.rules !== undefined && input.rules !== null) {
    try {
      rules = buildRules(input.rules, resolved.fields);
    } catch (err) {
      if (err instanceof RulesError) throw new AppError('BAD_USER_INPUT', err.message, { field: 'trigger.rules' });
      throw err;
    }
  }
  return {
    trigger: { type: input.type, eventKey: input.eventKey, configure, rules, recurrence: input.recurrence ?? null },
    resolved,
  };
}

async function checkActions(
  deps: AutomationDeps,
  ctx: RequestContext,
  actions: AutomationInput['actions'],
  resolved: CompositeTrigger,
): Promise<StoredAction[]> {
  const types: readonly ActionType[] = deps.actionTypes();
  const out: StoredAction[] = [];
  for (const [i, action] of actions.entries()) {
    const at = `actions.${i}`;
    const type = findAction(types, action);
    if (!type)
      throw badInput(
        `${at}.actionType`,
        `There is no action ${action.actionType}${action.pluginId ? ` in ${action.pluginId}` : ''}.`,
      );
    if (type.unavailable) throw badInput(`${at}.actionType`, type.unavailable);
    for (const kind of type.needsContext ?? []) {
      if (!resolved.events.every((e) => e.context.includes(kind)))
        throw badInput(`${at}.actionType`, `${type.title} needs an event about a ${kind}; ${resolved.key} is not.`);
    }
    const parsed = type.parameters.safeParse(action.parameters);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = [`${at}.parameters`, ...issue.path.map(String)].join('.');
      throw new AppError('BAD_USER_INPUT', `${type.title}: ${issue.message}`, { field });
    }
    try {
      await type.checkIds?.(ctx, parsed.data as Record<string, unknown>);
    } catch (err) {
      // The message says what is missing; the field says which action.
      if (err instanceof AppError)
        throw new AppError(err.errorCode, `${type.title}: ${err.message}`, {
          field: err.field ? `${at}.parameters.${err.field}` : `${at}.parameters`,
        });
      throw err;
    }
    out.push({
      actionType: type.actionType,
      pluginId: type.pluginId ?? null,
      parameters: action.parameters,
      executionOrder: action.executionOrder,
    });
  }
  return out;
}

/** Everything an automation is checked for when saved: the rules and every action, never at run time. */
export async function checkAutomation(
  deps: AutomationDeps,
  ctx: RequestContext,
  raw: unknown,
): Promise<CheckedAutomation & { enabled?: boolean }> {
  const input = validate(automationInput, raw);
  const { trigger, resolved } = checkTrigger(input.trigger);
  await assertMayAutomate(deps, ctx, trigger);
  const actions = await checkActions(deps, ctx, input.actions, resolved);
  return {
    title: input.title,
    projectId: trigger.configure['project.id'] ?? null,
    trigger,
    actions,
    enabled: input.enabled,
  };
}
