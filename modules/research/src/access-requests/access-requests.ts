import type { Knex } from 'knex';
import { z } from 'zod';
import {
  AppError,
  atLeast,
  badInput,
  maxLevel,
  notFound,
  validate,
  type JobQueue,
  type PermissionLevel,
  type ProductRole,
  type RequestContext,
} from '@fieldbook/core';
import { parsePermissionMap, projectAccess, projectFor, type Caller, type ProjectRow } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { sendNotifications } from '../notification-emails/send.ts';

/** The roles a person may ask for (a project's Manager is granted by hand, never on request). */
export const REQUESTABLE_ROLES = ['VIEWER', 'CONTRIBUTOR'] as const;
export type RequestableRole = (typeof REQUESTABLE_ROLES)[number];
export const ACCESS_REQUEST_MESSAGE_MAX = 1000;

/** The notification types an access request raises, named as in 002 §3 "Notification types". */
export const ACCESS_REQUEST_NOTIFICATIONS = {
  requested: 'access_request_requested',
  approved: 'access_request_approved',
  denied: 'access_request_denied',
} as const;

const LEVEL_OF_ROLE: Record<RequestableRole, PermissionLevel> = { VIEWER: 'read', CONTRIBUTOR: 'write' };

export interface AccessRequestRow {
  id: string;
  workspace_id: string;
  project_id: string;
  user_id: string;
  role: RequestableRole;
  message: string | null;
  status: 'PENDING' | 'APPROVED' | 'DENIED';
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
}

const requestSchema = z.object({
  projectId: idSchema('projectId'),
  role: z.enum(REQUESTABLE_ROLES, { error: `role is one of ${REQUESTABLE_ROLES.join(', ')}.` }),
  message: z
    .string()
    .trim()
    .max(ACCESS_REQUEST_MESSAGE_MAX, `message can be at most ${ACCESS_REQUEST_MESSAGE_MAX} characters long.`)
    .nullish(),
});

/** The project in the caller's workspace and out of the trash, whatever the caller may read of it. */
async function projectInWorkspace(trx: Knex.Transaction, caller: Caller, projectId: string): Promise<ProjectRow> {
  const project = (await trx('projects')
    .where({ id: projectId, workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .first()) as ProjectRow | undefined;
  if (!project) throw notFound('That project');
  return project;
}

/**
 * Who decides on requests to a project: those who may change its access list, i.e. workspace
 * managers and admins (admins hold "access requests manage") and contributors granted full on it.
 */
async function deciders(trx: Knex.Transaction, project: ProjectRow): Promise<string[]> {
  const map = parsePermissionMap(project.permissions);
  const fullUsers = Object.entries(map.users)
    .filter(([, level]) => level === 'full')
    .map(([userId]) => userId);
  const rows = (await trx('workspace_members')
    .where({ workspace_id: project.workspace_id })
    .where((q) => {
      q.where('workspace_admin', true).orWhere('role', 'MANAGER');
      if (fullUsers.length) q.orWhere((w) => w.whereIn('user_id', fullUsers).andWhere('role', 'CONTRIBUTOR'));
    })
    .select('user_id')) as Array<{ user_id: string }>;
  return rows.map((r) => r.user_id);
}

/** May the caller approve or deny requests to this project: full access and more than a viewer. */
function canDecide(caller: Caller, project: ProjectRow): boolean {
  return (
    caller.membership.effectiveRole !== 'VIEWER' &&
    projectAccess(caller.membership, caller.userId, project.permissions).level === 'full'
  );
}

/** Tells people of a request or its decision, in-app and (their choices allowing) by email at once. */
async function notify(
  trx: Knex.Transaction,
  jobs: JobQueue,
  userIds: readonly string[],
  type: string,
  request: AccessRequestRow,
  extra: Record<string, unknown>,
): Promise<void> {
  const payload = { role: request.role, accessRequestId: request.id, projectId: request.project_id, ...extra };
  await sendNotifications(
    trx,
    jobs,
    userIds.map((userId) => ({
      userId,
      workspaceId: request.workspace_id,
      type,
      payload,
      dedupeKey: `access-request:${request.id}:${type}`,
    })),
  );
}

/**
 * A member who cannot read a project asks for Viewer or Contributor access to it. A workspace
 * viewer may ask for Viewer only (their role never goes above read, 000 §6). One pending request
 * per person and project: asking again answers BAD_USER_INPUT.
 */
export async function requestProjectAccess(
  ctx: RequestContext,
  jobs: JobQueue,
  args: unknown,
): Promise<AccessRequestRow> {
  const caller = callerOf(ctx, 'projects:read');
  const { input } = validate(z.object({ input: requestSchema }), args);
  const actorName = ctx.requireViewer().name;
  return ctx.tx(async (trx) => {
    const project = await projectInWorkspace(trx, caller, input.projectId);
    if (atLeast(projectAccess(caller.membership, caller.userId, project.permissions).level, 'read')) {
      throw badInput('input.projectId', 'You already have access to this project.');
    }
    if (caller.membership.effectiveRole === 'VIEWER' && input.role !== 'VIEWER') {
      throw badInput('input.role', 'A workspace viewer can ask for Viewer access only.');
    }
    const pending = await trx('access_requests')
      .where({ project_id: project.id, user_id: caller.userId, status: 'PENDING' })
      .first('id');
    if (pending)
      throw badInput('input.projectId', 'You already asked for access to this project; a request is pending.');
    const [row] = (await trx('access_requests')
      .insert({
        workspace_id: caller.workspaceId,
        project_id: project.id,
        user_id: caller.userId,
        role: input.role,
        message: input.message || null,
      })
      .returning('*')) as AccessRequestRow[];
    const to = (await deciders(trx, project)).filter((id) => id !== caller.userId);
    await notify(trx, jobs, to, ACCESS_REQUEST_NOTIFICATIONS.requested, row!, {
      projectTitle: project.title,
      actorId: caller.userId,
      actorName,
      message: row!.message,
    });
    return row!;
  });
}

/** The caller's pending request to a project, for the "You don't have access" screen. */
export async function myAccessRequest(ctx: RequestContext, args: unknown): Promise<AccessRequestRow | null> {
  const caller = callerOf(ctx, 'projects:read');
  const { projectId } = validate(z.object({ projectId: idSchema('projectId') }), args);
  return ctx.tx(async (trx) => {
    await projectInWorkspace(trx, caller, projectId);
    const row = (await trx('access_requests')
      .where({ project_id: projectId, user_id: caller.userId, status: 'PENDING' })
      .first()) as AccessRequestRow | undefined;
    return row ?? null;
  });
}

/** Items whose link may lead into a project the caller cannot read. */
export const RESTRICTED_ITEM_TYPES = ['NOTE', 'INSIGHT', 'HIGHLIGHT'] as const;
const ITEM_TABLE: Record<(typeof RESTRICTED_ITEM_TYPES)[number], string> = {
  NOTE: 'notes',
  INSIGHT: 'insights',
  HIGHLIGHT: 'highlights',
};

/**
 * The project of a note, insight or highlight that the caller cannot open only because its
 * project is restricted to them, so the item's page can offer to ask for access. Answers the
 * project's id and nothing of the item or the project; null when the item does not exist in the
 * workspace, is in the trash (itself or its project), or the caller can read it after all.
 */
export async function restrictedItemProject(ctx: RequestContext, args: unknown): Promise<string | null> {
  const caller = callerOf(ctx, 'projects:read');
  const { objectType, objectId } = validate(
    z.object({
      objectType: z.enum(RESTRICTED_ITEM_TYPES, { error: `objectType is one of ${RESTRICTED_ITEM_TYPES.join(', ')}.` }),
      objectId: idSchema('objectId'),
    }),
    args,
  );
  return ctx.tx(async (trx) => {
    const item = (await trx(ITEM_TABLE[objectType])
      .where({ id: objectId, workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .first('project_id')) as { project_id: string } | undefined;
    if (!item) return null;
    const project = (await trx('projects')
      .where({ id: item.project_id, workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .first()) as ProjectRow | undefined;
    if (!project || atLeast(projectAccess(caller.membership, caller.userId, project.permissions).level, 'read'))
      return null;
    return project.id;
  });
}

/** The requests to a project, pending first then newest; for those who decide on them. */
export async function projectAccessRequests(ctx: RequestContext, args: unknown): Promise<AccessRequestRow[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { projectId } = validate(z.object({ projectId: idSchema('projectId') }), args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'read');
    if (!canDecide(caller, project))
      throw new AppError('FORBIDDEN', 'You need full access to this project to see its access requests.');
    return (await trx('access_requests')
      .where({ project_id: projectId })
      .orderByRaw(`status = 'PENDING' desc`)
      .orderBy('created_at', 'desc')
      .limit(200)) as AccessRequestRow[];
  });
}

/**
 * Approves or denies a pending request. Approving grants the requester the asked level in the
 * project's permission map (never lowering a grant they already have); the requester is notified
 * either way. The request must be readable: one of another workspace is NOT_FOUND.
 */
export async function decideAccessRequest(
  ctx: RequestContext,
  jobs: JobQueue,
  args: unknown,
  decision: 'APPROVED' | 'DENIED',
): Promise<AccessRequestRow> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const request = (await trx('access_requests')
      .where({ id, workspace_id: caller.workspaceId })
      .forUpdate()
      .first()) as AccessRequestRow | undefined;
    if (!request) throw notFound('That access request');
    const project = await projectFor(trx, caller, request.project_id, 'read').catch(() => {
      throw notFound('That access request');
    });
    if (!canDecide(caller, project))
      throw new AppError('FORBIDDEN', 'You need full access to this project to decide on access requests.');
    if (request.status !== 'PENDING') {
      throw new AppError(
        'INVALID_OPERATION',
        `This access request was already ${request.status === 'APPROVED' ? 'approved' : 'denied'}.`,
      );
    }
    if (decision === 'APPROVED') {
      const member = (await trx('workspace_members')
        .where({ workspace_id: caller.workspaceId, user_id: request.user_id })
        .first('role')) as { role: ProductRole } | undefined;
      if (!member) throw badInput('id', 'The person who asked is no longer a member of this workspace.');
      const map = parsePermissionMap(project.permissions);
      const level = maxLevel([map.users[request.user_id] ?? 'none', LEVEL_OF_ROLE[request.role]]);
      const permissions = { ...map, users: { ...map.users, [request.user_id]: level } };
      await trx('projects')
        .where({ id: project.id })
        .update({ permissions: JSON.stringify(permissions), updated_by: caller.userId, updated_at: trx.fn.now() });
    }
    const [row] = (await trx('access_requests')
      .where({ id })
      .update({ status: decision, decided_by: caller.userId, decided_at: trx.fn.now() })
      .returning('*')) as AccessRequestRow[];
    const type = decision === 'APPROVED' ? ACCESS_REQUEST_NOTIFICATIONS.approved : ACCESS_REQUEST_NOTIFICATIONS.denied;
    await notify(trx, jobs, [request.user_id], type, row!, {
      projectTitle: decision === 'APPROVED' ? project.title : null,
      actorId: caller.userId,
      actorName: ctx.requireViewer().name,
    });
    return row!;
  });
}
