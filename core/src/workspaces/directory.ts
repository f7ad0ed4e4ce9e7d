import type { Knex } from 'knex';
import { MemoryCache } from '../cache/memory-cache.ts';
import { EVERYTHING, type Invalidations } from '../db/invalidations.ts';
import type { WorkspaceDirectory } from '../kernel/ports.ts';
import type { Membership, WorkspaceRef } from '../kernel/request-context.ts';
import { effectiveRole, type ProductRole } from '../permissions/roles.ts';
import { UserGroupMember, Workspace, WorkspaceMember } from './models/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const toWorkspaceRef = (w: Workspace): WorkspaceRef => ({
  id: w.id,
  name: w.name,
  subdomain: w.subdomain,
  region: w.region,
});

/** A workspace by id or subdomain; the registry has no row-level security, so any connection reads it. */
export async function findWorkspace(db: Knex | Knex.Transaction, key: string): Promise<Workspace | null> {
  const k = key.trim().toLowerCase();
  if (!k) return null;
  const row = UUID.test(k)
    ? await Workspace.query(db).findById(k)
    : await Workspace.query(db).findOne({ subdomain: k });
  return row ?? null;
}

/** A person's membership, read in a transaction scoped to that workspace. */
export async function loadMembership(
  trx: Knex.Transaction,
  workspaceId: string,
  userId: string,
): Promise<Membership | null> {
  const member = await WorkspaceMember.query(trx).findOne({ workspace_id: workspaceId, user_id: userId });
  if (!member) return null;
  const groups = await UserGroupMember.query(trx)
    .where({ workspace_id: workspaceId, user_id: userId })
    .select('group_id')
    .orderBy('group_id');
  return {
    role: member.role,
    workspaceAdmin: member.workspaceAdmin,
    effectiveRole: effectiveRole(member),
    groupIds: groups.map((g) => g.groupId),
  };
}

/** Invalidation topics; the database sends both itself (migration 0035), on commit. */
export const MEMBERSHIP_TOPIC = 'membership';
export const WORKSPACE_TOPIC = 'workspace';
export const membershipKey = (workspaceId: string, userId: string): string => `${workspaceId}:${userId}`;

/**
 * Core's port for resolving the workspace a request addresses and the caller's place in it.
 *
 * Both run on every request addressed to a workspace, so both are kept in memory, as open
 * sessions are: the database notifies every process when a membership, a group membership or a
 * workspace's name or subdomain changes (triggers of migration 0035), and the resolvers that change
 * them also evict in their own process at once (`membershipChanged`). "Not a member" is not kept:
 * a person who just joined, by whatever path, is let in by the very next request.
 */
export function createWorkspaceDirectory(app: Knex, invalidations: Invalidations): WorkspaceDirectory {
  const workspaces = new MemoryCache<WorkspaceRef>(60_000, 10_000);
  const memberships = new MemoryCache<Membership>(60_000, 100_000);
  // Counts evictions, so a read that raced with one does not put the old row back.
  let evictions = 0;
  invalidations.subscribe(WORKSPACE_TOPIC, (id) => {
    evictions++;
    if (id === EVERYTHING) return workspaces.clear();
    workspaces.deleteWhere((w) => w.id === id);
  });
  invalidations.subscribe(MEMBERSHIP_TOPIC, (key) => {
    evictions++;
    if (key === EVERYTHING) return memberships.clear();
    memberships.delete(key);
  });
  const keep = <V>(cache: MemoryCache<V>, key: string, value: V, evictionsBefore: number) => {
    if (invalidations.listening() && evictions === evictionsBefore) cache.set(key, value);
  };

  return {
    async find(key) {
      const k = key.trim().toLowerCase();
      const cached = workspaces.get(k);
      if (cached) return cached;
      const evictionsBefore = evictions;
      const row = await findWorkspace(app, k);
      if (!row) return null; // a workspace created later must be found: absence is not kept
      const ref = toWorkspaceRef(row);
      keep(workspaces, k, ref, evictionsBefore);
      return ref;
    },
    // One statement (see migration 0004) when not in memory.
    async membership(workspaceId, userId) {
      const key = membershipKey(workspaceId, userId);
      const cached = memberships.get(key);
      if (cached) return cached;
      const evictionsBefore = evictions;
      const { rows } = await app.raw<{
        rows: Array<{ role: ProductRole; workspace_admin: boolean; group_ids: string[] }>;
      }>('select role, workspace_admin, group_ids from app_membership(?, ?)', [workspaceId, userId]);
      const row = rows[0];
      if (!row) return null;
      const membership: Membership = {
        role: row.role,
        workspaceAdmin: row.workspace_admin,
        effectiveRole: effectiveRole({ role: row.role, workspaceAdmin: row.workspace_admin }),
        groupIds: row.group_ids,
      };
      keep(memberships, key, membership, evictionsBefore);
      return membership;
    },
  };
}

/**
 * A resolver changed these people's membership (role, removal, groups): forget it in this process
 * now and again once `trx` commits, so the next request here already sees the change. Other
 * processes hear it from the database's own notification.
 */
export async function membershipChanged(
  invalidations: Invalidations,
  trx: Knex.Transaction,
  workspaceId: string,
  userIds: readonly string[],
): Promise<void> {
  for (const userId of userIds) await invalidations.publish(MEMBERSHIP_TOPIC, membershipKey(workspaceId, userId), trx);
}

/** A resolver changed a workspace's name or subdomain; see `membershipChanged`. */
export async function workspaceChanged(
  invalidations: Invalidations,
  trx: Knex.Transaction,
  workspaceId: string,
): Promise<void> {
  await invalidations.publish(WORKSPACE_TOPIC, workspaceId, trx);
}
