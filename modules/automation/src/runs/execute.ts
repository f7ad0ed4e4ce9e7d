import type { Knex } from 'knex';
import { AppError, notifications, withEventCause, withTenant, type Job, type RequestContext } from '@fieldbook/core';
import type { JsonObject } from '@fieldbook/extensions-sdk/server';
import { fillParameters } from '../actions/placeholders.ts';
import { findAction } from '../actions/registry.ts';
import type { ActionOutput, ActionTrigger } from '../actions/types.ts';
import { ordered, RUN_COLUMNS, type AutomationRow, type RunActionRow, type RunRow } from '../automations/rows.ts';
import type { AutomationDeps } from '../deps.ts';

export interface RunJobData {
  runId: string;
  workspaceId: string;
  /** The automations that led to this run, itself last: events its actions publish carry it. */
  chain?: string[];
}

/** An error that no retry can fix: the run fails at once. */
class Permanent extends Error {}

const sys = <T>(deps: AutomationDeps, workspaceId: string, fn: (trx: Knex.Transaction) => Promise<T>) =>
  withTenant(deps.app, { workspaceId }, fn);

/** A context whose transactions are `trx` itself, so an action's writes commit with its record. */
function boundTo(member: RequestContext, trx: Knex.Transaction): RequestContext {
  return { ...member, tx: <T>(fn: (t: Knex.Transaction) => Promise<T>) => fn(trx) };
}

async function withTimeout<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} seconds and was stopped.`)),
      ms,
    );
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/**
 * Runs one queued run: its actions in order, each once. Actions done by an earlier attempt are
 * skipped; an action that writes only Fieldbook's data commits with its record, so a worker
 * killed in the middle never applies it twice. A failed action fails the job, which the queue
 * retries with growing delays; after the last attempt the run fails with the reason and its owner
 * is notified.
 */
export async function executeRun(deps: AutomationDeps, job: Job<RunJobData>): Promise<void> {
  const { runId, workspaceId } = job.data;
  const loaded = await sys(deps, workspaceId, async (trx) => {
    const run = (await trx('automation_runs as r')
      .join('automation_events as e', 'e.id', 'r.event_id')
      .where({ 'r.id': runId, 'r.workspace_id': workspaceId })
      .first(...RUN_COLUMNS)) as RunRow | undefined;
    if (!run || run.status === 'succeeded' || run.status === 'failed' || run.status === 'skipped') return null;
    const automation = (await trx('automations').where({ id: run.automation_id }).first()) as AutomationRow | undefined;
    if (run.status === 'queued') await trx('automation_runs').where({ id: runId }).update({ status: 'running' });
    return { run, automation };
  });
  if (!loaded) return;
  const { run, automation } = loaded;
  const started = Date.now();
  const lastAttempt = job.retryCount >= deps.options.retryLimit;
  try {
    if (!automation) throw new Permanent('The automation was deleted.');
    const member = await ownerContext(deps, automation);
    const trigger: ActionTrigger = { event: run.event_key, eventId: run.event_id, payload: run.payload as JsonObject };
    const steps = ordered(automation.actions);
    const rows = (await sys(deps, workspaceId, (trx) =>
      trx('automation_run_actions').where({ run_id: runId }).orderBy('position'),
    )) as RunActionRow[];
    for (const row of rows) {
      if (row.status === 'succeeded' || row.status === 'skipped') continue;
      const step = steps[row.position];
      const type = step && step.actionType === row.action_type ? findAction(deps.actionTypes(), step) : undefined;
      if (!step || !type) {
        await mark(deps, workspaceId, runId, row.position, {
          status: 'skipped',
          error: 'The automation changed before this action ran.',
        });
        continue;
      }
      const params = fillParameters(step.parameters, run.payload);
      const t0 = Date.now();
      try {
        const chain = job.data.chain ?? [automation.id];
        await withTimeout(deps.options.actionTimeoutMs, type.title, () =>
          withEventCause({ automationIds: chain }, () =>
            runAction(deps, member, workspaceId, runId, row, type.transactional, (ctx) =>
              type.execute(ctx, params, trigger),
            ),
          ),
        );
      } catch (err) {
        await mark(deps, workspaceId, runId, row.position, {
          status: 'failed',
          error: messageOf(err),
          duration_ms: Date.now() - t0,
          finished_at: new Date(),
        });
        if (
          err instanceof AppError &&
          (err.errorCode === 'BAD_USER_INPUT' || err.errorCode === 'NOT_FOUND' || err.errorCode === 'FORBIDDEN')
        )
          throw new Permanent(`${type.title}: ${err.message}`);
        throw new Error(`${type.title}: ${messageOf(err)}`);
      }
    }
    await sys(deps, workspaceId, (trx) =>
      trx('automation_runs')
        .where({ id: runId })
        .update({
          status: 'succeeded',
          error: null,
          finished_at: trx.fn.now(),
          duration_ms: Date.now() - new Date(run.created_at).getTime(),
        }),
    );
  } catch (err) {
    if (err instanceof Permanent || lastAttempt) {
      await failRun(deps, run, automation, messageOf(err), started);
      return;
    }
    await sys(deps, workspaceId, (trx) =>
      trx('automation_runs')
        .where({ id: runId })
        .update({ error: `Will retry: ${messageOf(err)}` }),
    );
    throw err;
  }
}

/** Runs one action and records it; transactional actions commit with their record. */
async function runAction(
  deps: AutomationDeps,
  member: RequestContext,
  workspaceId: string,
  runId: string,
  row: RunActionRow,
  transactional: boolean,
  execute: (ctx: RequestContext) => Promise<ActionOutput | void>,
): Promise<ActionOutput | void> {
  const t0 = Date.now();
  const done = (output: ActionOutput | void) => ({
    status: 'succeeded' as const,
    output: JSON.stringify(output ?? {}),
    error: null,
    duration_ms: Date.now() - t0,
    finished_at: new Date(),
  });
  if (transactional) {
    return member.tx(async (trx) => {
      // Bounded like the whole action, so a lock it waits on cannot hold the connection for ever.
      await trx.raw(`set local statement_timeout = ${Math.max(1000, deps.options.actionTimeoutMs)}`);
      const output = await execute(boundTo(member, trx));
      await trx('automation_run_actions')
        .where({ run_id: runId, position: row.position })
        .update({ ...done(output), attempts: row.attempts + 1, started_at: new Date(t0) });
      return output;
    });
  }
  // Outward actions cannot join a transaction: their start is recorded first, then the result.
  await mark(deps, workspaceId, runId, row.position, {
    status: 'running',
    attempts: row.attempts + 1,
    started_at: new Date(t0),
  });
  const output = await execute(member);
  await mark(deps, workspaceId, runId, row.position, done(output));
  return output;
}

const mark = (
  deps: AutomationDeps,
  workspaceId: string,
  runId: string,
  position: number,
  patch: Record<string, unknown>,
) => sys(deps, workspaceId, (trx) => trx('automation_run_actions').where({ run_id: runId, position }).update(patch));

/**
 * The owner's context. An owner who left the workspace, or no longer manages the automation's
 * project, stops it: it is disabled with the reason shown on its page.
 */
async function ownerContext(deps: AutomationDeps, automation: AutomationRow): Promise<RequestContext> {
  const member = automation.owner_id ? await deps.memberContext(automation.workspace_id, automation.owner_id) : null;
  let reason: string | null = member ? null : 'Its owner is no longer a member of this workspace.';
  if (member && automation.project_id) {
    const level = await deps.research.projectLevel(member, automation.project_id);
    if (level !== 'full') reason = 'Its owner no longer manages the project it belongs to.';
  } else if (member && !automation.project_id && !automation.trigger.configure['channel.id']) {
    if (!(member.membership?.workspaceAdmin || member.membership?.effectiveRole === 'WORKSPACE_ADMIN'))
      reason = 'Its owner is no longer a workspace admin.';
  }
  if (reason) {
    await disable(deps, automation, reason);
    throw new Permanent(`The automation was turned off: ${reason}`);
  }
  return member!;
}

export const disable = (deps: AutomationDeps, automation: Pick<AutomationRow, 'id' | 'workspace_id'>, reason: string) =>
  sys(deps, automation.workspace_id, (trx) =>
    trx('automations')
      .where({ id: automation.id })
      .update({ enabled: false, disabled_reason: reason, updated_at: trx.fn.now() }),
  );

async function failRun(
  deps: AutomationDeps,
  run: RunRow,
  automation: AutomationRow | undefined,
  reason: string,
  started: number,
): Promise<void> {
  await sys(deps, run.workspace_id, async (trx) => {
    await trx('automation_runs')
      .where({ id: run.id })
      .update({
        status: 'failed',
        error: reason,
        finished_at: trx.fn.now(),
        duration_ms: Date.now() - Math.min(started, new Date(run.created_at).getTime()),
      });
    await trx('automation_run_actions')
      .where({ run_id: run.id })
      .whereIn('status', ['pending', 'running'])
      .update({ status: 'skipped' });
  });
  if (automation?.owner_id) {
    await notifications.notify(deps.app, {
      userId: automation.owner_id,
      workspaceId: run.workspace_id,
      type: 'automation_failed',
      payload: { automationId: automation.id, title: automation.title, runId: run.id, error: reason },
    });
  }
  deps.logger.warn({ automation: automation?.id, run: run.id, reason }, 'an automation run failed');
}
