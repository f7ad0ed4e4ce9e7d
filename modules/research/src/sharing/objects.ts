import type { Knex } from 'knex';
import { AppError, forbidden, notFound } from '@fieldbook/core';
import { chartFor } from '../charts/charts.ts';
import { documentFor } from '../notes/documents.ts';
import { parsePermissionMap, projectFor, type Caller, type ProjectRow } from '../projects/access.ts';

/**
 * The share object types of 000 §3 that exist so far. The others (tags, boards, views, charts,
 * dashboards...) join this list, and the `shares_object_type_check` constraint, as they arrive.
 */
export const SHARE_OBJECT_TYPES = [
  'insight',
  'note',
  'noteHighlight',
  'project',
  'projectReadme',
  'projectChart',
] as const;
export type ShareObjectType = (typeof SHARE_OBJECT_TYPES)[number];

const LABEL: Record<ShareObjectType, string> = {
  insight: 'That insight',
  note: 'That note',
  noteHighlight: 'That highlight',
  project: 'That project',
  projectReadme: 'That project',
  projectChart: 'That chart',
};

/** A highlight out of the trash whose note (when it has one) is out of the trash too. */
export function liveHighlight(trx: Knex.Transaction, workspaceId: string, id: string) {
  return trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .where({ 'h.id': id, 'h.workspace_id': workspaceId })
    .whereNull('h.deleted_at')
    .where((q) => q.whereNull('h.note_id').orWhereNull('n.deleted_at'))
    .first('h.id', 'h.project_id') as Promise<{ id: string; project_id: string } | undefined>;
}

const isNotFound = (error: unknown): boolean => error instanceof AppError && error.errorCode === 'NOT_FOUND';

/**
 * The project holding the object, when the caller may read the object: NOT_FOUND when it is in
 * another workspace, in the trash or hidden from them, named after what was asked for.
 */
export async function readableObjectProject(
  trx: Knex.Transaction,
  caller: Caller,
  type: ShareObjectType,
  id: string,
): Promise<ProjectRow> {
  try {
    switch (type) {
      case 'insight':
      case 'note': {
        const row = await documentFor(trx, type === 'note' ? 'notes' : 'insights', caller, id, 'read');
        return await projectFor(trx, caller, row.project_id, 'read');
      }
      case 'noteHighlight': {
        const row = await liveHighlight(trx, caller.workspaceId, id);
        if (!row) throw notFound(LABEL[type]);
        return await projectFor(trx, caller, row.project_id, 'read');
      }
      case 'project':
      case 'projectReadme':
        return await projectFor(trx, caller, id, 'read');
      case 'projectChart':
        return (await chartFor(trx, caller, id, 'read')).project;
    }
  } catch (error) {
    throw isNotFound(error) ? notFound(LABEL[type]) : error;
  }
}

/**
 * The `public` group of a project's permission map (000 §6) is the level of people opening its
 * links. Left unset, links follow the workspace setting; set to `none`, the project's objects
 * cannot be shared and their existing links stop working.
 */
export function projectAllowsPublicLinks(project: Pick<ProjectRow, 'permissions'>): boolean {
  return parsePermissionMap(project.permissions).groups.public !== 'none';
}

export function assertProjectAllowsPublicLinks(project: Pick<ProjectRow, 'permissions'>): void {
  if (!projectAllowsPublicLinks(project)) {
    throw forbidden(
      'Public links are turned off for this project. Someone with full access can turn them on in its permissions.',
    );
  }
}
