import type { Knex } from 'knex';
import { atLeast, forbidden, notFound, projectAccess, type Membership, type RequestContext } from '@fieldbook/core';

export interface Caller {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

export function callerOf(ctx: RequestContext, permission: Parameters<RequestContext['authorize']>[0]): Caller {
  const { viewer, workspace, membership } = ctx.authorize(permission);
  return { userId: viewer.userId, workspaceId: workspace.id, membership };
}

/** Projects of the workspace (out of the trash) the caller may read, with their titles. */
export async function readableProjects(trx: Knex.Transaction, caller: Caller): Promise<Map<string, string>> {
  const rows = (await trx('projects')
    .where({ workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .select('id', 'title', 'permissions')) as Array<{
    id: string;
    title: string;
    permissions: unknown;
  }>;
  return new Map(
    rows
      .filter((r) => atLeast(projectAccess(caller.membership, caller.userId, r.permissions).level, 'read'))
      .map((r) => [r.id, r.title]),
  );
}

export interface ItemRow {
  id: string;
  project_id: string;
  title: string;
  content_text: string;
  updated_by: string | null;
  created_by: string | null;
}

/**
 * A note or insight the caller may read (NOT_FOUND otherwise, as research answers), and with
 * `write`, may edit (FORBIDDEN with the product's message otherwise).
 */
export async function itemFor(
  trx: Knex.Transaction,
  caller: Caller,
  table: 'notes' | 'insights',
  id: string,
  needed: 'read' | 'write',
): Promise<ItemRow & { projectTitle: string }> {
  const label = table === 'notes' ? 'That note' : 'That insight';
  const row = (await trx(table)
    .where({ id, workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .first('id', 'project_id', 'title', 'content_text', 'updated_by', 'created_by')) as ItemRow | undefined;
  if (!row) throw notFound(label);
  const project = (await trx('projects')
    .where({ id: row.project_id })
    .whereNull('deleted_at')
    .first('title', 'permissions')) as { title: string; permissions: unknown } | undefined;
  if (!project) throw notFound(label);
  const { level } = projectAccess(caller.membership, caller.userId, project.permissions);
  if (!atLeast(level, 'read')) throw notFound(label);
  if (needed === 'write' && !atLeast(level, 'write'))
    throw forbidden('You don’t have edit permissions in this project');
  return { ...row, projectTitle: project.title };
}
