import type { Knex } from 'knex';
import type { WorkspaceDirectory } from '../kernel/ports.ts';
import type { Membership, WorkspaceRef } from '../kernel/request-context.ts';
import { effectiveRole, type ProductRole } from '../permissions/roles.ts';
import { UserGroupMember, Workspace, WorkspaceMember } from './models/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const toWorkspaceRef = (w: Workspace): WorkspaceRef => ({ id: w.id, name: w.name, subdomain: w.subdomain, region: w.region });

/** A workspace by id or subdomain; the registry has no row-level security, so any connection reads it. */
export async function findWorkspace(db: Knex | Knex.Transaction, key: string): Promise<Workspace | null> {
  const k = key.trim().toLowerCase();
  if (!k) return null;
  const row = UUID.test(k) ? await Workspace.query(db).findById(k) : await Workspace.query(db).findOne({ subdomain: k });
  return row ?? null;
}

/** A person's membership, read in a transaction scoped to that workspace. */
export async function loadMembership(trx: Knex.Transaction, workspaceId: string, userId: string): Promise<Membership | null> {
  const member = await WorkspaceMember.query(trx).findOne({ workspace_id: workspaceId, user_id: userId });
  if (!member) return null;
  const groups = await UserGroupMember.query(trx).where({ workspace_id: workspaceId, user_id: userId }).select('group_id').orderBy('group_id');
  return {
    role: member.role,
    workspaceAdmin: member.workspaceAdmin,
    effectiveRole: effectiveRole(member),
    groupIds: groups.map((g) => g.groupId),
  };
}

/** Core's port for resolving the workspace a request addresses and the caller's place in it. */
export function createWorkspaceDirectory(app: Knex): WorkspaceDirectory {
  return {
    async find(key) {
      const row = await findWorkspace(app, key);
      return row ? toWorkspaceRef(row) : null;
    },
    // One statement (see migration 0004): this runs on every request addressed to a workspace.
    async membership(workspaceId, userId) {
      const { rows } = await app.raw<{ rows: Array<{ role: ProductRole; workspace_admin: boolean; group_ids: string[] }> }>(
        'select role, workspace_admin, group_ids from app_membership(?, ?)',
        [workspaceId, userId],
      );
      const row = rows[0];
      if (!row) return null;
      const role = row.role;
      return { role, workspaceAdmin: row.workspace_admin, effectiveRole: effectiveRole({ role, workspaceAdmin: row.workspace_admin }), groupIds: row.group_ids };
    },
  };
}
