import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log.ts';
import { badInput, notFound } from '../errors/app-error.ts';
import { validate } from '../errors/validate.ts';
import { uuidSchema } from '../identity/inputs.ts';
import type { RequestContext } from '../kernel/request-context.ts';
import type { WorkspacesDeps } from './deps.ts';
import { membershipChanged } from './directory.ts';
import { WORKSPACE_LIMITS } from './limits.ts';
import { UserGroup, UserGroupMember, WorkspaceMember } from './models/index.ts';
import { usersById, type UserView } from './views.ts';

export interface UserGroupView {
  id: string;
  name: string;
  members: UserView[];
  memberCount: number;
}

async function groupViews(trx: Knex.Transaction, groups: readonly UserGroup[]): Promise<UserGroupView[]> {
  const links = groups.length
    ? await UserGroupMember.query(trx)
        .whereIn(
          'group_id',
          groups.map((g) => g.id),
        )
        .orderBy('created_at')
    : [];
  const users = await usersById(
    trx,
    links.map((l) => l.userId),
  );
  return groups.map((g) => {
    const members = links.filter((l) => l.groupId === g.id).flatMap((l) => users.get(l.userId) ?? []);
    return { id: g.id, name: g.name, members, memberCount: members.length };
  });
}

const nameSchema = z
  .string({ error: 'Give the group a name.' })
  .trim()
  .min(1, 'Give the group a name.')
  .max(
    WORKSPACE_LIMITS.userGroupName,
    `A group name can be at most ${WORKSPACE_LIMITS.userGroupName} characters long.`,
  );

const DUPLICATE = 'A group with this name already exists.';

async function assertNameFree(
  trx: Knex.Transaction,
  workspaceId: string,
  name: string,
  except?: string,
): Promise<void> {
  const q = UserGroup.query(trx).where({ workspace_id: workspaceId }).whereRaw('lower(name) = lower(?)', [name]);
  if (except) q.whereNot('id', except);
  if (await q.first()) throw badInput('name', DUPLICATE);
}

async function groupOf(trx: Knex.Transaction, workspaceId: string, id: string): Promise<UserGroup> {
  const group = await UserGroup.query(trx).findOne({ id, workspace_id: workspaceId });
  if (!group) throw notFound('That group');
  return group;
}

export async function listUserGroups(ctx: RequestContext): Promise<UserGroupView[]> {
  const { workspace } = ctx.authorize('members:read');
  return ctx.tx(async (trx) =>
    groupViews(trx, await UserGroup.query(trx).where({ workspace_id: workspace.id }).orderByRaw('lower(name)')),
  );
}

/** Creates a group, within the 50 groups a workspace may have (000 §9). */
export async function createUserGroup(ctx: RequestContext, args: unknown): Promise<UserGroupView> {
  const { viewer, workspace } = ctx.authorize('userGroups:manage');
  const { name } = validate(z.object({ name: nameSchema }), args);
  return ctx.tx(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`groups:${workspace.id}`]);
    const count = await UserGroup.query(trx).where({ workspace_id: workspace.id }).resultSize();
    if (count >= WORKSPACE_LIMITS.userGroups) {
      throw badInput('userGroups', `A workspace can have at most ${WORKSPACE_LIMITS.userGroups} user groups.`);
    }
    await assertNameFree(trx, workspace.id, name);
    const group = await UserGroup.query(trx).insertAndFetch({ workspaceId: workspace.id, name });
    await audit(trx, workspace.id, viewer.userId, group.id, { action: 'created', name });
    return (await groupViews(trx, [group]))[0]!;
  });
}

export async function renameUserGroup(ctx: RequestContext, args: unknown): Promise<UserGroupView> {
  const { viewer, workspace } = ctx.authorize('userGroups:manage');
  const { id, name } = validate(z.object({ id: uuidSchema, name: nameSchema }), args);
  return ctx.tx(async (trx) => {
    const group = await groupOf(trx, workspace.id, id);
    await assertNameFree(trx, workspace.id, name, id);
    const renamed = await UserGroup.query(trx).patchAndFetchById(id, { name });
    await audit(trx, workspace.id, viewer.userId, id, { action: 'renamed', old: group.name, new: name });
    return (await groupViews(trx, [renamed]))[0]!;
  });
}

export async function deleteUserGroup(
  deps: Pick<WorkspacesDeps, 'invalidations'>,
  ctx: RequestContext,
  args: unknown,
): Promise<boolean> {
  const { viewer, workspace } = ctx.authorize('userGroups:manage');
  const { id } = validate(z.object({ id: uuidSchema }), args);
  return ctx.tx(async (trx) => {
    const group = await groupOf(trx, workspace.id, id);
    const members = (await UserGroupMember.query(trx).where({ group_id: id }).select('user_id')).map((m) => m.userId);
    await UserGroup.query(trx).deleteById(id);
    await membershipChanged(deps.invalidations, trx, workspace.id, members);
    await audit(trx, workspace.id, viewer.userId, id, { action: 'deleted', name: group.name });
    return true;
  });
}

const membersSchema = z.object({
  id: uuidSchema,
  userIds: z.array(uuidSchema, { error: 'List the members of the group.' }),
});

/** Sets who is in a group: at most 200 people (000 §9), each a member of the workspace. */
export async function setUserGroupMembers(
  deps: Pick<WorkspacesDeps, 'invalidations'>,
  ctx: RequestContext,
  args: unknown,
): Promise<UserGroupView> {
  const { viewer, workspace } = ctx.authorize('userGroups:manage');
  const valid = validate(membersSchema, args);
  const userIds = [...new Set(valid.userIds.map((u) => u.toLowerCase()))];
  if (userIds.length > WORKSPACE_LIMITS.userGroupMembers) {
    throw badInput('userIds', `A user group can have at most ${WORKSPACE_LIMITS.userGroupMembers} members.`);
  }
  return ctx.tx(async (trx) => {
    const group = await groupOf(trx, workspace.id, valid.id);
    const members = userIds.length
      ? await WorkspaceMember.query(trx)
          .where({ workspace_id: workspace.id })
          .whereIn('user_id', userIds)
          .select('user_id')
      : [];
    if (members.length !== userIds.length)
      throw badInput('userIds', 'Only members of this workspace can be in its groups.');
    const current = (await UserGroupMember.query(trx).where({ group_id: group.id })).map((m) => m.userId);
    const added = userIds.filter((u) => !current.includes(u));
    const removed = current.filter((u) => !userIds.includes(u));
    if (removed.length)
      await UserGroupMember.query(trx).where({ group_id: group.id }).whereIn('user_id', removed).delete();
    if (added.length) {
      await UserGroupMember.query(trx).insert(
        added.map((userId) => ({ workspaceId: workspace.id, groupId: group.id, userId })),
      );
    }
    await membershipChanged(deps.invalidations, trx, workspace.id, [...added, ...removed]);
    await audit(trx, workspace.id, viewer.userId, group.id, { action: 'members', added, removed });
    return (await groupViews(trx, [group]))[0]!;
  });
}

function audit(
  trx: Knex.Transaction,
  workspaceId: string,
  actorUserId: string,
  groupId: string,
  metadata: Record<string, unknown>,
) {
  return recordAudit(trx, {
    workspaceId,
    actorUserId,
    kind: 'USER_GROUP',
    subjectType: 'user_group',
    subjectId: groupId,
    metadata,
  });
}
