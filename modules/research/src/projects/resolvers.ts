import type { IResolvers } from '@graphql-tools/utils';
import { operations, type EventBus, type RequestContext } from '@fieldbook/core';
import { isStarred, setStarred } from '../notes/stars.ts';
import type { FolderRow } from '../folders/folders.ts';
import { parsePermissionMap } from './access.ts';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  moveProject,
  myAccess,
  updateProject,
  updateProjectAccess,
  type ProjectView,
} from './projects.ts';

type Args = Record<string, unknown>;

export function projectsResolvers(events: EventBus): IResolvers<unknown, RequestContext> {
  return {
    Query: operations({ projects: listProjects, project: getProject }),
    Mutation: operations({
      createProject: (ctx: RequestContext, args: unknown) => createProject(ctx, args, events),
      updateProject,
      moveProject,
      updateProjectAccess,
      deleteProject,
      setStarred,
    }),
    Project: {
      enabledSections: (p: ProjectView) => p.enabled_sections ?? [],
      folderId: (p: ProjectView) => p.category_id,
      folder: (p: ProjectView, _a: Args, ctx: RequestContext) =>
        p.category_id
          ? ctx.tx(async (trx) => {
              const row = (await trx('project_categories')
                .where({ id: p.category_id })
                .whereNull('deleted_at')
                .first()) as FolderRow | undefined;
              return row ? { ...row, caller: p.caller } : null;
            })
          : null,
      permissions: (p: ProjectView) => parsePermissionMap(p.permissions),
      myAccess: (p: ProjectView) => myAccess(p),
      starred: (p: ProjectView, _a: Args, ctx: RequestContext) =>
        ctx.tx((trx) => isStarred(trx, p.caller.workspaceId, p.caller.userId, 'PROJECT', p.id)),
      createdById: (p: ProjectView) => p.created_by,
      updatedById: (p: ProjectView) => p.updated_by,
      createdAt: (p: ProjectView) => p.created_at,
      updatedAt: (p: ProjectView) => p.updated_at,
      deletedAt: (p: ProjectView) => p.deleted_at,
    },
  };
}
