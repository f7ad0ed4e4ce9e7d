import type { Knex } from 'knex';
import { recordAudit } from '../audit/audit-log.ts';
import { badInput } from '../errors/app-error.ts';
import type { ProductRole } from '../permissions/roles.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { WorkspaceMember, type JoinedVia } from './models/index.ts';

/** Members of the workspace the transaction is scoped to. */
export async function memberCount(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  return WorkspaceMember.query(trx).where({ workspace_id: workspaceId }).resultSize();
}

export const usersLimitMessage = (): string =>
  `A workspace can have at most ${WORKSPACE_LIMITS.usersPerWorkspace} users, and this one is full.`;

/**
 * Adds a person to a workspace, within the users-per-workspace limit (000 §9), and audits it.
 * `field` names the input the limit error is about.
 */
export async function addMember(
  trx: Knex.Transaction,
  input: {
    workspaceId: string;
    userId: string;
    role: ProductRole;
    workspaceAdmin: boolean;
    joinedVia: JoinedVia;
    actorUserId: string;
    field: string;
    metadata?: Record<string, unknown>;
  },
): Promise<void> {
  // One member joins at a time per workspace, so two joins cannot both take the last seat.
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`members:${input.workspaceId}`]);
  if ((await memberCount(trx, input.workspaceId)) >= WORKSPACE_LIMITS.usersPerWorkspace)
    throw badInput(input.field, usersLimitMessage());
  await WorkspaceMember.query(trx).insert({
    workspaceId: input.workspaceId,
    userId: input.userId,
    role: input.role,
    workspaceAdmin: input.workspaceAdmin,
    joinedVia: input.joinedVia,
  });
  await recordAudit(trx, {
    workspaceId: input.workspaceId,
    actorUserId: input.actorUserId,
    kind: 'MEMBER_ADDED',
    subjectType: 'user',
    subjectId: input.userId,
    metadata: { via: input.joinedVia, role: input.role, workspaceAdmin: input.workspaceAdmin, ...input.metadata },
  });
}

/** Workspace admins left in the workspace; one must always remain (002 §6). */
export async function adminCount(trx: Knex.Transaction, workspaceId: string): Promise<number> {
  return WorkspaceMember.query(trx).where({ workspace_id: workspaceId, workspace_admin: true }).resultSize();
}
