import { badInput, notFound, parseEventPayload, resolveTrigger, type RequestContext } from '@fieldbook/core';
import { fillParameters } from '../actions/placeholders.ts';
import { findAction } from '../actions/registry.ts';
import { ordered, RUN_COLUMNS, type AutomationRow, type RunRow } from '../automations/rows.ts';
import type { AutomationDeps } from '../deps.ts';
import { evaluateRules, valueAt } from '../rules/rules.ts';

export interface DryRunStep {
  position: number;
  actionType: string;
  title: string;
  /** The parameters with the event's values filled in. */
  parameters: Record<string, unknown>;
  wouldRun: boolean;
  problem: string | null;
}

export interface DryRun {
  eventKey: string;
  payload: Record<string, unknown>;
  configureMatches: boolean;
  ruleResult: boolean;
  steps: DryRunStep[];
}

/**
 * What an automation would do for an event (a recent run's, or a sample payload), executing
 * nothing: which rules hold, and each action with its parameters filled and checked.
 */
export async function dryRun(
  deps: AutomationDeps,
  ctx: RequestContext,
  automation: AutomationRow,
  input: { runId?: string | null; eventKey?: string | null; payload?: unknown },
): Promise<DryRun> {
  const trigger = resolveTrigger(automation.event_key);
  let eventKey: string;
  let payload: Record<string, unknown>;
  if (input.runId) {
    const run = (await ctx.tx((trx) =>
      trx('automation_runs as r')
        .join('automation_events as e', 'e.id', 'r.event_id')
        .where({ 'r.id': input.runId, 'r.automation_id': automation.id })
        .first(...RUN_COLUMNS),
    )) as RunRow | undefined;
    if (!run) throw notFound('That run');
    eventKey = run.event_key;
    payload = run.payload;
  } else {
    eventKey = input.eventKey ?? trigger.events[0]!.key;
    if (!trigger.events.some((e) => e.key === eventKey))
      throw badInput('eventKey', `This automation does not listen to ${eventKey}.`);
    if (input.payload === undefined || input.payload === null)
      throw badInput('payload', 'Choose a recent event or give a sample payload.');
    payload = parseEventPayload(eventKey, input.payload);
  }
  const configureMatches = Object.entries(automation.trigger.configure ?? {}).every(
    ([path, value]) => String(valueAt(payload, path) ?? '').toLowerCase() === value,
  );
  const ruleResult = configureMatches && evaluateRules(automation.trigger.rules, payload, trigger.fields);
  const types = deps.actionTypes();
  const steps = ordered(automation.actions).map((step, position): DryRunStep => {
    const type = findAction(types, step);
    const parameters = fillParameters(step.parameters, payload);
    let problem: string | null = null;
    if (!type) problem = `The action ${step.actionType} is no longer available.`;
    else if (type.unavailable) problem = type.unavailable;
    else {
      const parsed = type.parameters.safeParse(parameters);
      if (!parsed.success) problem = parsed.error.issues[0]!.message;
    }
    return {
      position,
      actionType: step.actionType,
      title: type?.title ?? step.actionType,
      parameters,
      wouldRun: ruleResult && !problem,
      problem,
    };
  });
  return { eventKey, payload, configureMatches, ruleResult, steps };
}
