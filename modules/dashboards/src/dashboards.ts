import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, forbidden, notFound, validate, type Membership, type RequestContext } from '@fieldbook/core';

/**
 * Dashboards (000 §2): a workspace's collections of charts from several projects and channels.
 * Every member reads them; contributors and above create them; their creator, managers and
 * workspace admins change and delete them. What a chart shows is read with the viewer's own
 * access, so a dashboard never shows a project or channel its viewer could not open.
 */
export const DASHBOARD_LIMITS = { title: 300, perWorkspace: 200, chartsPerDashboard: 50 } as const;

export interface DashboardRow {
  id: string;
  workspace_id: string;
  title: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface Caller {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

export interface DashboardRecord extends DashboardRow {
  canEdit: boolean;
}

export const idSchema = (what = 'id') => z.uuid({ error: `${what} must be a valid id.` });

export const titleSchema = z
  .string({ error: 'Give the dashboard a title.' })
  .trim()
  .min(1, 'Give the dashboard a title.')
  .max(DASHBOARD_LIMITS.title, `A dashboard title can be at most ${DASHBOARD_LIMITS.title} characters long.`);

export function callerOf(ctx: RequestContext, permission: 'projects:read' | 'projects:update'): Caller {
  const { viewer, workspace, membership } = ctx.authorize(permission);
  return { userId: viewer.userId, workspaceId: workspace.id, membership };
}

export function canEdit(caller: Caller, row: DashboardRow): boolean {
  const role = caller.membership.effectiveRole;
  if (role === 'VIEWER') return false;
  return role === 'MANAGER' || role === 'WORKSPACE_ADMIN' || row.created_by === caller.userId;
}

const record = (caller: Caller, row: DashboardRow): DashboardRecord => ({ ...row, canEdit: canEdit(caller, row) });

export async function dashboardFor(
  trx: Knex.Transaction,
  caller: Caller,
  id: string,
  needed: 'read' | 'write',
): Promise<DashboardRow> {
  const row = (await trx('dashboards').where({ id, workspace_id: caller.workspaceId }).first()) as
    | DashboardRow
    | undefined;
  if (!row) throw notFound('That dashboard');
  if (needed === 'write' && !canEdit(caller, row))
    throw forbidden('Only the dashboard’s creator, managers and workspace admins can change it.');
  return row;
}

export async function listDashboards(ctx: RequestContext): Promise<DashboardRecord[]> {
  const caller = callerOf(ctx, 'projects:read');
  const rows = (await ctx.tx((trx) =>
    trx('dashboards')
      .where({ workspace_id: caller.workspaceId })
      .orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id' }]),
  )) as DashboardRow[];
  return rows.map((r) => record(caller, r));
}

export async function getDashboard(ctx: RequestContext, args: unknown): Promise<DashboardRecord> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return record(caller, await ctx.tx((trx) => dashboardFor(trx, caller, id, 'read')));
}

export async function createDashboard(ctx: RequestContext, args: unknown): Promise<DashboardRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { input } = validate(z.object({ input: z.object({ title: titleSchema }) }), args);
  return ctx.tx(async (trx) => {
    const [{ count }] = (await trx('dashboards')
      .where({ workspace_id: caller.workspaceId })
      .count<Array<{ count: string }>>('* as count')) as [{ count: string }];
    if (Number(count) >= DASHBOARD_LIMITS.perWorkspace)
      throw badInput('input', `A workspace can have at most ${DASHBOARD_LIMITS.perWorkspace} dashboards.`);
    const [row] = (await trx('dashboards')
      .insert({
        workspace_id: caller.workspaceId,
        title: input.title,
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as DashboardRow[];
    return record(caller, row!);
  });
}

export async function updateDashboard(ctx: RequestContext, args: unknown): Promise<DashboardRecord> {
  const caller = callerOf(ctx, 'projects:update');
  const { id, input } = validate(z.object({ id: idSchema(), input: z.object({ title: titleSchema }) }), args);
  return ctx.tx(async (trx) => {
    await dashboardFor(trx, caller, id, 'write');
    const [row] = (await trx('dashboards')
      .where({ id })
      .update({ title: input.title, updated_by: caller.userId, updated_at: trx.fn.now() })
      .returning('*')) as DashboardRow[];
    return record(caller, row!);
  });
}

export async function deleteDashboard(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:update');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await dashboardFor(trx, caller, id, 'write');
    await trx('dashboards').where({ id }).delete();
    return true;
  });
}
