import type { Knex } from 'knex';
import { atLeast, type Membership, type ProductRole } from '@fieldbook/core';
import { projectAccess } from './access.ts';

interface Reader {
  userId: string;
  canRead: boolean;
}

/**
 * Which of `userIds` are members of the workspace, and whether each may read the project (by the
 * same rule as every project resolver). Non-members are absent from the map.
 */
export async function membersReading(
  trx: Knex.Transaction,
  workspaceId: string,
  projectPermissions: unknown,
  userIds: readonly string[],
): Promise<Map<string, Reader>> {
  if (!userIds.length) return new Map();
  const members = (await trx('workspace_members')
    .where({ workspace_id: workspaceId })
    .whereIn('user_id', userIds)
    .select('user_id', 'role', 'workspace_admin')) as Array<{
    user_id: string;
    role: ProductRole;
    workspace_admin: boolean;
  }>;
  const groups = (await trx('user_group_members')
    .where({ workspace_id: workspaceId })
    .whereIn('user_id', userIds)
    .select('user_id', 'group_id')) as Array<{
    user_id: string;
    group_id: string;
  }>;
  const out = new Map<string, Reader>();
  for (const m of members) {
    const membership: Membership = {
      role: m.role,
      workspaceAdmin: m.workspace_admin,
      effectiveRole: m.workspace_admin ? 'WORKSPACE_ADMIN' : m.role,
      groupIds: groups.filter((g) => g.user_id === m.user_id).map((g) => g.group_id),
    };
    out.set(m.user_id, {
      userId: m.user_id,
      canRead: atLeast(projectAccess(membership, m.user_id, projectPermissions).level, 'read'),
    });
  }
  return out;
}
