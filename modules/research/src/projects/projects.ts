import type { Knex } from 'knex';
import { z } from 'zod';
import {
  AppError,
  badInput,
  notFound,
  permissionMapSchema,
  validate,
  type EventBus,
  type RequestContext,
} from '@fieldbook/core';
import { publishProjectCreated } from '../events/publish.ts';
import { moveBetween, rankForNewItem, type RankedList } from '../ranks/reorder.ts';
import { richTextSchema } from '../notes/rich-text.ts';
import { isRestricted, parsePermissionMap, projectAccess, projectFor, type Caller, type ProjectRow } from './access.ts';
import { callerOf, isManager } from './caller.ts';
import { hexColorSchema } from '../colors/color-schema.ts';
import { idSchema, moveSchema, requiredTitle, sent } from './inputs.ts';
import { CONTENT_LIMITS, PROJECT_SECTIONS, PROJECT_STATUSES } from './limits.ts';

export interface ProjectView extends ProjectRow {
  /** Who is looking, for `myAccess` and `starred`. */
  caller: Caller;
}

const projectList = (workspaceId: string): RankedList => ({ table: 'projects', scope: { workspace_id: workspaceId } });

const fieldsSchema = {
  status: z.enum(PROJECT_STATUSES, { error: `status is one of ${PROJECT_STATUSES.join(', ')}.` }).optional(),
  color: hexColorSchema.nullable().optional(),
  icon: z.string().trim().max(100, 'An icon can be at most 100 characters long.').nullable().optional(),
  readme: richTextSchema('readme').nullable().optional(),
  enabledSections: z.array(z.enum(PROJECT_SECTIONS)).optional(),
  folderId: idSchema('folderId').nullable().optional(),
};
const createSchema = z.object({ title: requiredTitle('project'), ...fieldsSchema });
const updateSchema = z.object({
  id: idSchema(),
  input: z.object({ title: requiredTitle('project').optional(), ...fieldsSchema }),
});

const view =
  (caller: Caller) =>
  (row: ProjectRow): ProjectView => ({ ...row, caller });

/** The folder a project goes into must exist in this workspace and not be in the trash. */
async function assertFolder(
  trx: Knex.Transaction,
  workspaceId: string,
  folderId: string | null | undefined,
): Promise<void> {
  if (!folderId) return;
  const folder = await trx('project_categories')
    .where({ id: folderId, workspace_id: workspaceId })
    .whereNull('deleted_at')
    .first('id');
  if (!folder) throw notFound('That folder');
}

/** At most 200 projects per workspace, counting those not in the trash (000 §9). */
export async function assertProjectRoom(trx: Knex.Transaction, workspaceId: string, adding = 1): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`projects-count:${workspaceId}`]);
  const row = (
    await trx('projects')
      .where({ workspace_id: workspaceId })
      .whereNull('deleted_at')
      .count<{ count: string }[]>('* as count')
  )[0];
  if (Number(row?.count ?? 0) + adding > CONTENT_LIMITS.projectsPerWorkspace) {
    throw badInput('projects', `A workspace can have at most ${CONTENT_LIMITS.projectsPerWorkspace} projects.`);
  }
}

export async function listProjects(ctx: RequestContext, args: unknown): Promise<ProjectView[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { status, folderId } = validate(
    z.object({ status: z.enum(PROJECT_STATUSES).nullish(), folderId: idSchema('folderId').nullish() }),
    args,
  );
  return ctx.tx(async (trx) => {
    const q = trx('projects')
      .where({ workspace_id: caller.workspaceId })
      .whereNull('deleted_at')
      .orderBy([{ column: 'rank' }, { column: 'id' }]);
    if (status) q.where({ status });
    if (folderId) q.where({ category_id: folderId });
    const rows = (await q) as ProjectRow[];
    return rows
      .filter((r) => projectAccess(caller.membership, caller.userId, r.permissions).level !== 'none')
      .map(view(caller));
  });
}

export async function getProject(ctx: RequestContext, args: unknown): Promise<ProjectView> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => view(caller)(await projectFor(trx, caller, id, 'read')));
}

/** Creates a project and publishes `project:created` with it. */
export async function createProject(ctx: RequestContext, args: unknown, events: EventBus): Promise<ProjectView> {
  const caller = callerOf(ctx, 'projects:create');
  const { input } = validate(z.object({ input: createSchema }), args);
  return ctx.tx(async (trx) => {
    await assertProjectRoom(trx, caller.workspaceId);
    await assertFolder(trx, caller.workspaceId, input.folderId);
    const rank = await rankForNewItem(trx, projectList(caller.workspaceId));
    // The creator may always manage who else sees the project, even once it is restricted.
    const permissions = isManager(caller)
      ? { groups: {}, users: {} }
      : { groups: {}, users: { [caller.userId]: 'full' } };
    const [row] = (await trx('projects')
      .insert({
        workspace_id: caller.workspaceId,
        title: input.title,
        status: input.status ?? 'ACTIVE',
        color: input.color ?? null,
        icon: input.icon ?? null,
        readme: input.readme ? JSON.stringify(input.readme) : null,
        enabled_sections: [...new Set(input.enabledSections ?? PROJECT_SECTIONS)],
        category_id: input.folderId ?? null,
        rank,
        permissions: JSON.stringify(permissions),
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as ProjectRow[];
    await publishProjectCreated(events, trx, row!, []);
    return view(caller)(row!);
  });
}

export async function updateProject(ctx: RequestContext, args: unknown): Promise<ProjectView> {
  const caller = callerOf(ctx, 'projects:update');
  const { id, input } = validate(updateSchema, args);
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, id, 'write');
    const patch: Record<string, unknown> = { updated_by: caller.userId, updated_at: trx.fn.now() };
    if (input.title !== undefined) patch.title = input.title;
    if (input.status !== undefined) patch.status = input.status;
    if (input.color !== undefined) patch.color = input.color;
    if (input.icon !== undefined) patch.icon = input.icon;
    if (input.readme !== undefined) patch.readme = input.readme === null ? null : JSON.stringify(input.readme);
    if (input.enabledSections !== undefined) patch.enabled_sections = [...new Set(input.enabledSections)];
    if (sent(input, 'folderId')) {
      await assertFolder(trx, caller.workspaceId, input.folderId);
      patch.category_id = input.folderId ?? null;
    }
    const [row] = (await trx('projects').where({ id }).update(patch).returning('*')) as ProjectRow[];
    return view(caller)(row!);
  });
}

export async function moveProject(ctx: RequestContext, args: unknown): Promise<ProjectView> {
  const caller = callerOf(ctx, 'projects:update');
  const target = validate(moveSchema, args);
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, target.id, 'write');
    for (const [field, neighbour] of [
      ['previousId', target.previousId],
      ['nextId', target.nextId],
    ] as const) {
      if (neighbour)
        await projectFor(trx, caller, neighbour, 'read').catch(() => {
          throw badInput(field, 'The neighbour to place the item next to is not in the same list.');
        });
    }
    await moveBetween(trx, projectList(caller.workspaceId), target.id, target);
    return view(caller)((await trx('projects').where({ id: target.id }).first()) as ProjectRow);
  });
}

/**
 * Replaces a project's permission map (000 §6). Needs the workspace's "write the access control
 * list" permission and full access to the project; group keys must be the workspace's groups
 * and user keys its members.
 */
export async function updateProjectAccess(ctx: RequestContext, args: unknown): Promise<ProjectView> {
  const caller = callerOf(ctx, 'acl:write');
  const { projectId, permissions } = validate(
    z.object({ projectId: idSchema('projectId'), permissions: permissionMapSchema }),
    args,
  );
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, projectId, 'full');
    const groupIds = Object.keys(permissions.groups).filter((k) => !['public', 'markup', 'playback'].includes(k));
    if (groupIds.length) {
      const found = await trx('user_groups')
        .where({ workspace_id: caller.workspaceId })
        .whereIn('id', groupIds)
        .select('id');
      if (found.length !== groupIds.length)
        throw badInput('permissions.groups', 'Only user groups of this workspace can be granted access.');
    }
    const userIds = Object.keys(permissions.users);
    if (userIds.length) {
      const found = await trx('workspace_members')
        .where({ workspace_id: caller.workspaceId })
        .whereIn('user_id', userIds)
        .select('user_id');
      if (found.length !== userIds.length)
        throw badInput('permissions.users', 'Only members of this workspace can be granted access.');
    }
    if (!isManager(caller) && projectAccess(caller.membership, caller.userId, permissions).level !== 'full') {
      // Whoever changes the map keeps the access they used to change it; lock-outs need a manager.
      throw new AppError('INVALID_OPERATION', 'You cannot remove your own full access to this project.', {
        field: 'permissions',
      });
    }
    const [row] = (await trx('projects')
      .where({ id: projectId })
      .update({ permissions: JSON.stringify(permissions), updated_by: caller.userId, updated_at: trx.fn.now() })
      .returning('*')) as ProjectRow[];
    return view(caller)(row!);
  });
}

/** Moves a project to the trash; its notes, insights and highlights go with it and come back with it. */
export async function deleteProject(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'projects:delete');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, id, 'full');
    await trx('projects').where({ id }).update({ deleted_at: trx.fn.now(), updated_by: caller.userId });
    return true;
  });
}

/** What the caller may do with a project, for screens that hide what they cannot use. */
export function myAccess(project: ProjectView) {
  const { caller } = project;
  const access = projectAccess(caller.membership, caller.userId, project.permissions);
  const perms = caller.membership.effectiveRole;
  const contributorOrAbove = perms !== 'VIEWER';
  return {
    level: access.level,
    accessRole: access.accessRole,
    canEdit: contributorOrAbove && (access.level === 'write' || access.level === 'full'),
    canManageAccess: contributorOrAbove && access.level === 'full',
    canDelete: isManager(caller),
    restricted: isRestricted(parsePermissionMap(project.permissions)),
  };
}
