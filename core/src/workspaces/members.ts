import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { badInput, notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { uuidSchema } from '../identity/inputs.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import { effectiveRole, PRODUCT_ROLES, type ProductRole, type Role } from '../permissions/roles.ts';
import type { WorkspacesDeps } from './deps.ts';
import { membershipChanged } from './directory.ts';
import { decodeOffset, encodeOffset } from './cursor.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { adminCount } from './membership-changes.ts';
import { UserGroupMember, WorkspaceMember } from './models/index.ts';
import { userColumns, userFromPrefixed, type UserView } from './views.ts';

export interface MemberView {
  user: UserView;
  role: ProductRole;
  workspaceAdmin: boolean;
  effectiveRole: Role;
  joinedAt: Date;
}

type MemberRow = Record<string, unknown> & { role: ProductRole; workspace_admin: boolean; joined_at: Date };

const toMemberView = (row: MemberRow): MemberView => ({
  user: userFromPrefixed(row),
  role: row.role,
  workspaceAdmin: row.workspace_admin,
  effectiveRole: effectiveRole({ role: row.role, workspaceAdmin: row.workspace_admin }),
  joinedAt: row.joined_at,
});

function membersQuery(trx: Knex.Transaction, workspaceId: string) {
  return trx('workspace_members as m').join('users as u', 'u.id', 'm.user_id').where('m.workspace_id', workspaceId);
}

async function memberView(trx: Knex.Transaction, workspaceId: string, userId: string): Promise<MemberView | null> {
  const row = await membersQuery(trx, workspaceId)
    .where('m.user_id', userId)
    .first<MemberRow | undefined>([
      ...userColumns(trx, 'u'),
      'm.role',
      'm.workspace_admin',
      'm.created_at as joined_at',
    ]);
  return row ? toMemberView(row) : null;
}

const listSchema = z.object({
  first: z
    .number()
    .int()
    .min(1, 'Ask for at least 1 member.')
    .max(WORKSPACE_LIMITS.pageSize, `Ask for at most ${WORKSPACE_LIMITS.pageSize} members at once.`)
    .nullish(),
  after: z.string().max(100).nullish(),
  search: z.string().trim().max(320, 'A member search can be at most 320 characters long.').nullish(),
});

/** Members by name, optionally those whose name or email contains `search`. */
export async function listMembers(
  ctx: RequestContext,
  args: unknown,
): Promise<{ nodes: MemberView[]; totalCount: number; endCursor: string | null }> {
  const { workspace } = ctx.authorize('members:read');
  const valid = validate(listSchema, args);
  const first = valid.first ?? 100;
  const offset = decodeOffset(valid.after);
  return ctx.tx(async (trx) => {
    const filtered = () => {
      const q = membersQuery(trx, workspace.id);
      if (valid.search) {
        const like = `%${valid.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q.where((w) => w.whereILike('u.name', like).orWhereILike('u.email', like));
      }
      return q;
    };
    const [counted] = await filtered().count<Array<{ n: number }>>({ n: '*' });
    const totalCount = Number(counted?.n ?? 0);
    const rows = await filtered()
      .select<MemberRow[]>([...userColumns(trx, 'u'), 'm.role', 'm.workspace_admin', 'm.created_at as joined_at'])
      .orderByRaw('lower(u.name), lower(u.email), u.id')
      .offset(offset)
      .limit(first);
    const end = offset + rows.length;
    return { nodes: rows.map(toMemberView), totalCount, endCursor: end < totalCount ? encodeOffset(end) : null };
  });
}

const LAST_ADMIN = 'A workspace needs at least one workspace admin. Make someone else an admin first.';

const roleSchema = z.object({
  userId: uuidSchema,
  role: z.enum(PRODUCT_ROLES, { error: `The role is one of ${PRODUCT_ROLES.join(', ')}.` }),
  workspaceAdmin: z.boolean({ error: 'Say whether the member is a workspace admin.' }),
});

/** Changes a member's role and admin flag (workspace admins); the last admin stays an admin. */
export async function updateMemberRole(
  deps: Pick<WorkspacesDeps, 'invalidations'>,
  ctx: RequestContext,
  args: unknown,
): Promise<MemberView> {
  const { viewer, workspace } = ctx.authorize('members:manage');
  const valid = validate(roleSchema, args);
  return ctx.tx(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`members:${workspace.id}`]);
    const member = await WorkspaceMember.query(trx).findOne({ workspace_id: workspace.id, user_id: valid.userId });
    if (!member) throw notFound('That member');
    if (member.workspaceAdmin && !valid.workspaceAdmin && (await adminCount(trx, workspace.id)) <= 1)
      throw badInput('workspaceAdmin', LAST_ADMIN);
    await WorkspaceMember.query(trx)
      .where({ workspace_id: workspace.id, user_id: valid.userId })
      .patch({ role: valid.role, workspaceAdmin: valid.workspaceAdmin });
    await membershipChanged(deps.invalidations, trx, workspace.id, [valid.userId]);
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'ROLE_CHANGE',
      subjectType: 'user',
      subjectId: valid.userId,
      metadata: {
        old: { role: member.role, workspaceAdmin: member.workspaceAdmin },
        new: { role: valid.role, workspaceAdmin: valid.workspaceAdmin },
      },
    });
    return (await memberView(trx, workspace.id, valid.userId))!;
  });
}

/**
 * Removes a member (workspace admins), or lets a member leave. Their group memberships and API
 * tokens in the workspace go with them; the last admin cannot be removed.
 */
export async function removeMember(
  deps: Pick<WorkspacesDeps, 'invalidations'>,
  ctx: RequestContext,
  args: unknown,
): Promise<boolean> {
  const { userId } = validate(z.object({ userId: uuidSchema }), args);
  const leaving = ctx.viewer?.userId === userId;
  const { viewer, workspace } = ctx.authorize(leaving ? 'profile:update' : 'members:manage');
  return ctx.tx(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`members:${workspace.id}`]);
    const member = await WorkspaceMember.query(trx).findOne({ workspace_id: workspace.id, user_id: userId });
    if (!member) throw notFound('That member');
    if (member.workspaceAdmin && (await adminCount(trx, workspace.id)) <= 1) {
      throw badInput('userId', 'The last workspace admin cannot be removed. Make someone else an admin first.');
    }
    await UserGroupMember.query(trx).where({ workspace_id: workspace.id, user_id: userId }).delete();
    await trx('api_tokens')
      .where({ workspace_id: workspace.id, user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now(), updated_at: trx.fn.now() });
    await WorkspaceMember.query(trx).where({ workspace_id: workspace.id, user_id: userId }).delete();
    await membershipChanged(deps.invalidations, trx, workspace.id, [userId]);
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'MEMBER_REMOVED',
      subjectType: 'user',
      subjectId: userId,
      metadata: { role: member.role, workspaceAdmin: member.workspaceAdmin, left: leaving },
    });
    return true;
  });
}
