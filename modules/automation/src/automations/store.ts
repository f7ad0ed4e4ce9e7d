import { z } from 'zod';
import { forbidden, notFound, validate, type RequestContext } from '@fieldbook/core';
import type { AutomationDeps } from '../deps.ts';
import { settingsOf } from '../runs/rate.ts';
import { nextOccurrence } from '../triggers/schedule.ts';
import { RUN_COLUMNS, type AutomationRow, type RunActionRow, type RunRow, type RunStatus } from './rows.ts';
import { assertMayAutomate, checkAutomation } from './save.ts';

const idArg = z.object({ id: z.uuid({ error: 'id must be a valid id.' }) });
const isAdmin = (ctx: RequestContext) =>
  Boolean(ctx.membership?.workspaceAdmin || ctx.membership?.effectiveRole === 'WORKSPACE_ADMIN');

function workspaceOf(ctx: RequestContext): { workspaceId: string; userId: string } {
  const { viewer, workspace } = ctx.authorize('projects:read');
  return { workspaceId: workspace.id, userId: viewer.userId };
}

/** An automation the caller can see: admins see all, others those of projects they can read. */
export async function automationFor(deps: AutomationDeps, ctx: RequestContext, id: string): Promise<AutomationRow> {
  const { workspaceId } = workspaceOf(ctx);
  const row = (await ctx.tx((trx) => trx('automations').where({ id, workspace_id: workspaceId }).first())) as
    | AutomationRow
    | undefined;
  if (!row) throw notFound('That automation');
  if (isAdmin(ctx)) return row;
  if (row.project_id && (await deps.research.projectLevel(ctx, row.project_id))) return row;
  throw notFound('That automation');
}

export async function listAutomations(deps: AutomationDeps, ctx: RequestContext): Promise<AutomationRow[]> {
  const { workspaceId } = workspaceOf(ctx);
  const rows = (await ctx.tx((trx) =>
    trx('automations')
      .where({ workspace_id: workspaceId })
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]),
  )) as AutomationRow[];
  if (isAdmin(ctx)) return rows;
  const visible: AutomationRow[] = [];
  const levels = new Map<string, boolean>();
  for (const row of rows) {
    if (!row.project_id) continue;
    if (!levels.has(row.project_id))
      levels.set(row.project_id, Boolean(await deps.research.projectLevel(ctx, row.project_id)));
    if (levels.get(row.project_id)) visible.push(row);
  }
  return visible;
}

async function nextRunFor(
  ctx: RequestContext,
  deps: AutomationDeps,
  workspaceId: string,
  checked: Awaited<ReturnType<typeof checkAutomation>>,
): Promise<Date | null> {
  if (checked.trigger.type !== 'Schedule') return null;
  const { timeZone } = await ctx.tx((trx) => settingsOf(trx, workspaceId, deps.options.defaultRunsPerMinute));
  return nextOccurrence(checked.trigger.recurrence!, timeZone, new Date());
}

export async function createAutomation(
  deps: AutomationDeps,
  ctx: RequestContext,
  args: { input?: unknown },
): Promise<AutomationRow> {
  const { workspaceId, userId } = workspaceOf(ctx);
  const checked = await checkAutomation(deps, ctx, args.input);
  const nextRunAt = await nextRunFor(ctx, deps, workspaceId, checked);
  const [row] = (await ctx.tx((trx) =>
    trx('automations')
      .insert({
        workspace_id: workspaceId,
        title: checked.title,
        owner_id: userId,
        project_id: checked.projectId,
        trigger_type: checked.trigger.type,
        event_key: checked.trigger.eventKey,
        trigger: JSON.stringify(checked.trigger),
        actions: JSON.stringify(checked.actions),
        enabled: checked.enabled ?? true,
        next_run_at: nextRunAt,
      })
      .returning('*'),
  )) as AutomationRow[];
  return row!;
}

/** Saving makes the caller its owner: it acts as whoever last vouched for it. */
export async function updateAutomation(
  deps: AutomationDeps,
  ctx: RequestContext,
  args: { id?: unknown; input?: unknown },
): Promise<AutomationRow> {
  const { id } = validate(idArg, { id: args.id });
  const { workspaceId, userId } = workspaceOf(ctx);
  const current = await automationFor(deps, ctx, id);
  await assertMayAutomate(deps, ctx, current.trigger);
  const checked = await checkAutomation(deps, ctx, args.input);
  const nextRunAt = await nextRunFor(ctx, deps, workspaceId, checked);
  const [row] = (await ctx.tx((trx) =>
    trx('automations')
      .where({ id })
      .update({
        title: checked.title,
        owner_id: userId,
        project_id: checked.projectId,
        trigger_type: checked.trigger.type,
        event_key: checked.trigger.eventKey,
        trigger: JSON.stringify(checked.trigger),
        actions: JSON.stringify(checked.actions),
        ...(checked.enabled === undefined ? {} : { enabled: checked.enabled, disabled_reason: null }),
        next_run_at: nextRunAt,
        updated_at: trx.fn.now(),
      })
      .returning('*'),
  )) as AutomationRow[];
  return row!;
}

export async function setEnabled(
  deps: AutomationDeps,
  ctx: RequestContext,
  args: { id?: unknown; enabled?: unknown },
): Promise<AutomationRow> {
  const { id, enabled } = validate(idArg.extend({ enabled: z.boolean() }), args);
  const { userId } = workspaceOf(ctx);
  const current = await automationFor(deps, ctx, id);
  await assertMayAutomate(deps, ctx, current.trigger);
  // Turning it back on is vouching for it: the caller becomes its owner.
  const [row] = (await ctx.tx((trx) =>
    trx('automations')
      .where({ id })
      .update({ enabled, ...(enabled ? { disabled_reason: null, owner_id: userId } : {}), updated_at: trx.fn.now() })
      .returning('*'),
  )) as AutomationRow[];
  return row!;
}

export async function deleteAutomation(
  deps: AutomationDeps,
  ctx: RequestContext,
  args: { id?: unknown },
): Promise<boolean> {
  const { id } = validate(idArg, args);
  const current = await automationFor(deps, ctx, id);
  await assertMayAutomate(deps, ctx, current.trigger);
  await ctx.tx((trx) => trx('automations').where({ id }).delete());
  return true;
}

const runsArgs = z.object({
  automationId: z.uuid({ error: 'automationId must be a valid id.' }),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'skipped']).nullish(),
  since: z.date().nullish(),
  until: z.date().nullish(),
  first: z.number().int().min(1, 'first must be at least 1.').max(200, 'first: at most 200 runs at once.').nullish(),
});

export interface RunView extends RunRow {
  actions: RunActionRow[];
}

export async function listRuns(deps: AutomationDeps, ctx: RequestContext, args: unknown): Promise<RunView[]> {
  const input = validate(runsArgs, args);
  await automationFor(deps, ctx, input.automationId);
  return ctx.tx(async (trx) => {
    const q = trx('automation_runs as r')
      .join('automation_events as e', 'e.id', 'r.event_id')
      .where({ 'r.automation_id': input.automationId, 'r.dry_run': false })
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id' }])
      .limit(input.first ?? 50)
      .select(...RUN_COLUMNS);
    if (input.status) q.where({ 'r.status': input.status as RunStatus });
    if (input.since) q.where('r.created_at', '>=', input.since);
    if (input.until) q.where('r.created_at', '<', input.until);
    const runs = (await q) as RunRow[];
    const actions = runs.length
      ? ((await trx('automation_run_actions')
          .whereIn(
            'run_id',
            runs.map((r) => r.id),
          )
          .orderBy('position')) as RunActionRow[])
      : [];
    return runs.map((r) => ({ ...r, actions: actions.filter((a) => a.run_id === r.id) }));
  });
}

export async function lastRun(ctx: RequestContext, automationId: string): Promise<RunView | null> {
  return ctx.tx(async (trx) => {
    const run = (await trx('automation_runs as r')
      .join('automation_events as e', 'e.id', 'r.event_id')
      .where({ 'r.automation_id': automationId, 'r.dry_run': false })
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id' }])
      .first(...RUN_COLUMNS)) as RunRow | undefined;
    if (!run) return null;
    return {
      ...run,
      actions: (await trx('automation_run_actions').where({ run_id: run.id }).orderBy('position')) as RunActionRow[],
    };
  });
}

export function assertAdmin(ctx: RequestContext): void {
  ctx.authorize('projects:read');
  if (!isAdmin(ctx)) throw forbidden('Only workspace admins can change automation settings.');
}
