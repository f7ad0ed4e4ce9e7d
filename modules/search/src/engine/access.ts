import type { Knex } from 'knex';
import { atLeast, projectAccess, type Membership } from '@fieldbook/core';
import type { SearchAccess } from './engine.ts';

/**
 * What the searcher may read, once per request, by the same per-project rule every research read
 * goes by (core's `projectAccess`, permission maps included). Managers and admins read every project.
 */
export async function searchAccess(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
  membership: Membership,
): Promise<SearchAccess> {
  if (membership.effectiveRole === 'WORKSPACE_ADMIN' || membership.effectiveRole === 'MANAGER')
    return { allProjects: true, projectIds: [] };
  const rows = (await trx('projects')
    .where({ workspace_id: workspaceId })
    .whereNull('deleted_at')
    .select('id', 'permissions')) as Array<{
    id: string;
    permissions: unknown;
  }>;
  const projectIds = rows
    .filter((r) => atLeast(projectAccess(membership, userId, r.permissions).level, 'read'))
    .map((r) => r.id);
  return { allProjects: false, projectIds };
}
