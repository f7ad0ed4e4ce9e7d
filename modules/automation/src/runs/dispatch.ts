import type { Knex } from 'knex';
import { COMPOSITE_TRIGGERS, outcomesOf, resolveTrigger, withTenant, type DomainEvent } from '@fieldbook/core';
import { ordered, type AutomationRow } from '../automations/rows.ts';
import { RUN_QUEUE, type AutomationDeps } from '../deps.ts';
import { evaluateRules, valueAt } from '../rules/rules.ts';
import { rateLimitMessage, settingsOf, takeRuns } from './rate.ts';

/** Trigger keys that listen to an event: its own, and every composite it belongs to. */
export function triggerKeysOf(event: string): string[] {
  return [
    event,
    ...Object.entries(COMPOSITE_TRIGGERS)
      .filter(([, members]) => members.includes(event))
      .map(([key]) => key),
  ];
}

/** Automations leading to automations no deeper than this: a chain longer is a loop in the making. */
export const MAX_CHAIN = 5;

/** Events addressed to one automation (a manual run, a schedule's occurrence) name it. */
const TARGETED = new Set(['manual', 'userSchedule']);

export interface DispatchResult {
  matched: number;
  queued: number;
}

/**
 * Evaluates an event against the workspace's enabled automations and records one run per
 * automation and event (a redelivered event finds its runs and adds none); runs whose rules hold
 * are queued in the same transaction. Rules were checked when saved, so evaluation cannot fail.
 */
export async function dispatchEvent(deps: AutomationDeps, event: DomainEvent): Promise<DispatchResult> {
  if (!event.workspaceId) return { matched: 0, queued: 0 };
  const workspaceId = event.workspaceId;
  // An automation never reacts to what it (or an automation it set off) did.
  const chain = event.cause?.automationIds ?? [];
  if (chain.length >= MAX_CHAIN) return { matched: 0, queued: 0 };
  return withTenant(deps.app, { workspaceId }, async (trx) => {
    const q = trx('automations')
      .where({ workspace_id: workspaceId, enabled: true })
      .whereIn('event_key', triggerKeysOf(event.event));
    if (TARGETED.has(event.event)) q.where({ id: String(event.payload.automationId ?? '') });
    if (chain.length) q.whereNotIn('id', chain);
    // An automation handles what happens after it exists, not a backlog from before.
    q.where('created_at', '<=', new Date(event.occurredAt));
    const candidates = ((await q) as AutomationRow[]).filter((a) =>
      Object.entries(a.trigger.configure ?? {}).every(
        ([path, value]) => String(valueAt(event.payload, path) ?? '').toLowerCase() === value,
      ),
    );
    if (!candidates.length) return { matched: 0, queued: 0 };
    const fields = new Map<string, ReturnType<typeof resolveTrigger>['fields']>();
    const fieldsOf = (key: string) => fields.get(key) ?? fields.set(key, resolveTrigger(key).fields).get(key)!;
    const evaluated = candidates.map((a) => ({
      a,
      result: evaluateRules(a.trigger.rules, event.payload, fieldsOf(a.event_key)),
    }));
    return recordRuns(deps, trx, workspaceId, event, evaluated);
  });
}

/**
 * A batch of events, as `dispatchEvent` would take them one by one: one read per workspace first
 * finds which trigger keys any enabled automation listens to, and only events of those keys go on
 * to be dispatched. A burst of events no automation listens to (notes from an import, say) costs
 * one transaction, not one each. Answers each event's outcome (null, or its error).
 */
export async function dispatchEvents(deps: AutomationDeps, events: ReadonlyArray<DomainEvent>): Promise<unknown[]> {
  const byWorkspace = new Map<string, Set<string>>();
  for (const e of events) {
    if (!e.workspaceId) continue;
    const keys = byWorkspace.get(e.workspaceId) ?? new Set<string>();
    for (const key of triggerKeysOf(e.event)) keys.add(key);
    byWorkspace.set(e.workspaceId, keys);
  }
  // Per workspace: the keys listened to, or the error that fails its events.
  const listened = new Map<string, Set<string> | Error>();
  for (const [workspaceId, keys] of byWorkspace) {
    try {
      const rows = await withTenant(deps.app, { workspaceId }, (trx) =>
        trx('automations')
          .where({ workspace_id: workspaceId, enabled: true })
          .whereIn('event_key', [...keys])
          .distinct<Array<{ event_key: string }>>('event_key'),
      );
      listened.set(workspaceId, new Set(rows.map((r) => r.event_key)));
    } catch (err) {
      listened.set(workspaceId, err instanceof Error ? err : new Error(String(err)));
    }
  }
  return outcomesOf(events, async (e) => {
    const keys = e.workspaceId ? listened.get(e.workspaceId) : undefined;
    if (keys instanceof Error) throw keys;
    if (keys && triggerKeysOf(e.event).some((key) => keys.has(key))) await dispatchEvent(deps, e);
  });
}

async function recordRuns(
  deps: AutomationDeps,
  trx: Knex.Transaction,
  workspaceId: string,
  event: DomainEvent,
  evaluated: Array<{ a: AutomationRow; result: boolean }>,
): Promise<DispatchResult> {
  // The payload once per event, however many automations evaluated it.
  await trx('automation_events')
    .insert({
      id: event.id,
      workspace_id: workspaceId,
      event_key: event.event,
      payload: JSON.stringify(event.payload),
      occurred_at: event.occurredAt,
    })
    .onConflict('id')
    .ignore();
  const inserted = (await trx('automation_runs')
    .insert(
      evaluated.map(({ a, result }) => ({
        workspace_id: workspaceId,
        automation_id: a.id,
        event_id: event.id,
        event_key: event.event,
        rule_result: result,
        status: result ? 'queued' : 'skipped',
        ...(result ? {} : { finished_at: trx.fn.now(), duration_ms: 0 }),
      })),
    )
    .onConflict(['automation_id', 'event_id'])
    .ignore()
    .returning(['id', 'automation_id', 'rule_result'])) as Array<{
    id: string;
    automation_id: string;
    rule_result: boolean;
  }>;
  const toRun = inserted.filter((r) => r.rule_result);
  if (!toRun.length) return { matched: evaluated.length, queued: 0 };

  const { runsPerMinute } = await settingsOf(trx, workspaceId, deps.options.defaultRunsPerMinute);
  const granted = await takeRuns(trx, workspaceId, toRun.length, runsPerMinute);
  const started = toRun.slice(0, granted);
  const refused = toRun.slice(granted);
  if (refused.length) {
    await trx('automation_runs')
      .whereIn(
        'id',
        refused.map((r) => r.id),
      )
      .update({ status: 'skipped', error: rateLimitMessage(runsPerMinute), finished_at: trx.fn.now(), duration_ms: 0 });
  }
  const byId = new Map(evaluated.map(({ a }) => [a.id, a]));
  const actionRows = started.flatMap((run) =>
    ordered(byId.get(run.automation_id)!.actions).map((action, position) => ({
      workspace_id: workspaceId,
      run_id: run.id,
      position,
      action_type: action.actionType,
    })),
  );
  if (actionRows.length) await trx('automation_run_actions').insert(actionRows);
  await deps.jobs.insert(
    RUN_QUEUE,
    started.map((run) => ({
      runId: run.id,
      workspaceId,
      chain: [...(event.cause?.automationIds ?? []), run.automation_id],
    })),
    { trx },
  );
  return { matched: evaluated.length, queued: started.length };
}
