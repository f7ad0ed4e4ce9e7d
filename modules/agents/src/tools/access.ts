import type { Knex } from 'knex';
import { atLeast, notFound, projectAccess, type Membership, type RequestContext } from '@fieldbook/core';

export interface Member {
  userId: string;
  workspaceId: string;
  membership: Membership;
}

/** The person a tool acts for: every tool needs a signed-in member of the workspace. */
export function memberOf(ctx: RequestContext): Member {
  const { viewer, workspace, membership } = ctx.authorize('projects:read');
  return { userId: viewer.userId, workspaceId: workspace.id, membership };
}

/** Projects out of the trash the member may read, with their titles, in title order. */
export async function readableProjects(trx: Knex.Transaction, m: Member): Promise<Map<string, string>> {
  const rows = (await trx('projects')
    .where({ workspace_id: m.workspaceId })
    .whereNull('deleted_at')
    .orderBy('title')
    .select('id', 'title', 'permissions')) as Array<{
    id: string;
    title: string;
    permissions: unknown;
  }>;
  return new Map(
    rows
      .filter((r) => atLeast(projectAccess(m.membership, m.userId, r.permissions).level, 'read'))
      .map((r) => [r.id, r.title]),
  );
}

export interface DocRow {
  id: string;
  project_id: string;
  title: string;
  content_text: string;
  created_at: Date;
  updated_at: Date;
}

/** A note or insight the member may read; NOT_FOUND otherwise, as the research screens answer. */
export async function readableDoc(
  trx: Knex.Transaction,
  m: Member,
  table: 'notes' | 'insights',
  id: string,
): Promise<DocRow & { projectTitle: string }> {
  const label = table === 'notes' ? 'That note' : 'That insight';
  const row = (await trx(table)
    .where({ id, workspace_id: m.workspaceId })
    .whereNull('deleted_at')
    .first('id', 'project_id', 'title', 'content_text', 'created_at', 'updated_at')) as DocRow | undefined;
  if (!row) throw notFound(label);
  const projectTitle = (await readableProjects(trx, m)).get(row.project_id);
  if (projectTitle === undefined) throw notFound(label);
  return { ...row, projectTitle };
}
