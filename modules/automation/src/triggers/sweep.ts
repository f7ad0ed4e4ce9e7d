import { withTenant } from '@fieldbook/core';
import type { AutomationRow } from '../automations/rows.ts';
import type { AutomationDeps } from '../deps.ts';
import { dispatchEvent } from '../runs/dispatch.ts';
import { settingsOf } from '../runs/rate.ts';
import { nextOccurrence } from './schedule.ts';

/**
 * The minute sweep: every schedule whose next occurrence is due fires once. The sweep is a
 * scheduled job (one per minute across every worker), and each occurrence is claimed by moving
 * `next_run_at` forward only from the value read, so two sweeps never fire one twice; the run's
 * event id names the occurrence, so neither does a sweep retried after a crash.
 */
export async function sweepSchedules(deps: AutomationDeps, now = new Date()): Promise<number> {
  // Due automations of every workspace: the owner connection, as job workers use it.
  const due = (await deps
    .owner('automations')
    .where({ enabled: true, trigger_type: 'Schedule' })
    .where('next_run_at', '<=', now)
    .select('id', 'workspace_id', 'next_run_at', 'trigger')) as Array<
    Pick<AutomationRow, 'id' | 'workspace_id' | 'next_run_at' | 'trigger'>
  >;
  let fired = 0;
  for (const a of due) {
    const occurrence = a.next_run_at!;
    const claimed = await withTenant(deps.app, { workspaceId: a.workspace_id }, async (trx) => {
      const { timeZone } = await settingsOf(trx, a.workspace_id, deps.options.defaultRunsPerMinute);
      const next = nextOccurrence(a.trigger.recurrence!, timeZone, now);
      const n = await trx('automations').where({ id: a.id, next_run_at: occurrence }).update({ next_run_at: next });
      return n === 1;
    });
    if (!claimed) continue;
    await dispatchEvent(deps, {
      id: `schedule:${a.id}:${occurrence.toISOString()}`,
      event: 'userSchedule',
      workspaceId: a.workspace_id,
      payload: {
        automationId: a.id,
        scheduledFor: occurrence.toISOString(),
        recurrence: a.trigger.recurrence!.frequency,
      },
      occurredAt: now.toISOString(),
    });
    fired++;
  }
  return fired;
}
