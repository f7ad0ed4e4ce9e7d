import type { IResolvers } from '@graphql-tools/utils';
import { operations, type RequestContext } from '@fieldbook/core';
import { projectAccess, type ProjectRow } from '../projects/access.ts';
import {
  createFolder,
  deleteFolder,
  folderAncestry,
  getFolder,
  listFolders,
  moveFolder,
  renameFolder,
  type FolderRow,
  type FolderView,
} from './folders.ts';
import { folderPath, folderPathSegments } from './path.ts';

type Args = Record<string, unknown>;

export function foldersResolvers(): IResolvers<unknown, RequestContext> {
  return {
    Query: operations({ folders: listFolders, folder: getFolder }),
    Mutation: operations({ createFolder, renameFolder, moveFolder, deleteFolder }),
    Folder: {
      parentId: (f: FolderView) => f.parent_id,
      parent: (f: FolderView, _a: Args, ctx: RequestContext) =>
        f.parent_id
          ? ctx.tx(async (trx) => {
              const row = (await trx('project_categories')
                .where({ id: f.parent_id })
                .whereNull('deleted_at')
                .first()) as FolderRow | undefined;
              return row ? { ...row, caller: f.caller } : null;
            })
          : null,
      path: (f: FolderView, _a: Args, ctx: RequestContext) =>
        ctx.tx(async (trx) => folderPath(await folderAncestry(trx, f.id))),
      pathSegments: (f: FolderView, _a: Args, ctx: RequestContext) =>
        ctx.tx(async (trx) => folderPathSegments(await folderAncestry(trx, f.id))),
      ancestry: (f: FolderView, _a: Args, ctx: RequestContext) => ctx.tx((trx) => folderAncestry(trx, f.id)),
      children: (f: FolderView, _a: Args, ctx: RequestContext) =>
        ctx.tx(async (trx) =>
          (
            (await trx('project_categories')
              .where({ parent_id: f.id })
              .whereNull('deleted_at')
              .orderBy([{ column: 'rank' }, { column: 'id' }])) as FolderRow[]
          ).map((r) => ({ ...r, caller: f.caller })),
        ),
      projects: (f: FolderView, _a: Args, ctx: RequestContext) =>
        ctx.tx(async (trx) => {
          const rows = (await trx('projects')
            .where({ category_id: f.id })
            .whereNull('deleted_at')
            .orderBy([{ column: 'rank' }, { column: 'id' }])) as ProjectRow[];
          return rows
            .filter((r) => projectAccess(f.caller.membership, f.caller.userId, r.permissions).level !== 'none')
            .map((r) => ({ ...r, caller: f.caller }));
        }),
      createdById: (f: FolderView) => f.created_by,
      createdAt: (f: FolderView) => f.created_at,
      updatedAt: (f: FolderView) => f.updated_at,
      deletedAt: (f: FolderView) => f.deleted_at,
    },
  };
}
