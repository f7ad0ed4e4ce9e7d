import type { Knex } from 'knex';
import { atLeast, notFound, forbidden, projectAccess, type Membership, type PermissionLevel } from '@fieldbook/core';

/**
 * Per-project access: the rule itself (`projectAccess`, in core so search filters its results by
 * the very same rule) and the lookups research resolvers build on it.
 *
 * Below read a project does not exist for the person: every call answers NOT_FOUND. Editing
 * needs write; changing the map needs full (the creator of a project is granted full on it).
 */
export { projectAccess, parsePermissionMap, isRestricted, type ProjectAccess } from '@fieldbook/core';

export interface ProjectRow {
  id: string;
  workspace_id: string;
  category_id: string | null;
  title: string;
  status: string;
  color: string | null;
  icon: string | null;
  readme: unknown;
  enabled_sections: string[] | null;
  rank: number;
  permissions: unknown;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface Caller {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

/**
 * The project if the caller may use it at `needed`: NOT_FOUND when it is in another workspace, in
 * the trash, or unreadable for them; FORBIDDEN when they may read but not do more.
 */
export async function projectFor(
  trx: Knex.Transaction,
  caller: Caller,
  projectId: string,
  needed: PermissionLevel,
  opts: { includeDeleted?: boolean } = {},
): Promise<ProjectRow> {
  const q = trx('projects').where({ id: projectId, workspace_id: caller.workspaceId });
  if (!opts.includeDeleted) q.whereNull('deleted_at');
  const project = (await q.first()) as ProjectRow | undefined;
  if (!project) throw notFound('That project');
  const { level } = projectAccess(caller.membership, caller.userId, project.permissions);
  if (!atLeast(level, 'read')) throw notFound('That project');
  if (!atLeast(level, needed)) {
    throw forbidden(
      needed === 'full'
        ? 'You need full access to this project to do that.'
        : 'You don’t have edit permissions in this project',
    );
  }
  return project;
}

/** The ids of the projects the caller can read, in the workspace, out of the trash. */
export async function readableProjectIds(trx: Knex.Transaction, caller: Caller): Promise<string[]> {
  const rows = (await trx('projects')
    .where({ workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .select('id', 'permissions')) as Array<{ id: string; permissions: unknown }>;
  return rows
    .filter((r) => atLeast(projectAccess(caller.membership, caller.userId, r.permissions).level, 'read'))
    .map((r) => r.id);
}
