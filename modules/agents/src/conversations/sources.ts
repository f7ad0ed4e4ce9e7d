import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { ToolItem } from '@fieldbook/core';
import type { MessageRow } from './message-row.ts';

/**
 * The projects a conversation has read from: the model has every earlier tool result in front of
 * it, so anything it writes may carry text from any of them. What a confirmed tool sends out of
 * the workspace goes only to people who can open all of these (see tools/recipients.ts).
 */
export interface SourceProject {
  id: string;
  title: string;
  /** Its permission map, as stored: whose access it allows. */
  permissions: unknown;
}

/** Item types that live in a project, and the table that says which. */
const PROJECT_OF: Record<string, 'notes' | 'insights' | 'highlights'> = {
  NOTE: 'notes',
  INSIGHT: 'insights',
  HIGHLIGHT: 'highlights',
};

/** The projects behind the items of the conversation's tool results (things outside projects are every member's). */
export async function conversationSources(
  trx: Knex.Transaction,
  workspaceId: string,
  rows: readonly MessageRow[],
): Promise<SourceProject[]> {
  const items: ToolItem[] = rows.flatMap((r) => (r.type === 'RESULT' ? (r.tool?.items ?? []) : []));
  const projectIds = new Set(items.filter((i) => i.type === 'PROJECT').map((i) => i.id));
  for (const [type, table] of Object.entries(PROJECT_OF)) {
    const ids = [...new Set(items.filter((i) => i.type === type).map((i) => i.id))];
    if (ids.length === 0) continue;
    const found = (await trx(table)
      .where({ workspace_id: workspaceId })
      .whereIn('id', ids)
      .select('project_id')) as Array<{
      project_id: string;
    }>;
    for (const r of found) projectIds.add(r.project_id);
  }
  const uuids = [...projectIds].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (uuids.length === 0) return [];
  return (await trx('projects')
    .where({ workspace_id: workspaceId })
    .whereIn('id', uuids)
    .orderBy('title')
    .select('id', 'title', 'permissions')) as SourceProject[];
}

/** The sources of the conversation a tool runs in; none outside a conversation (MCP, runAgentTool). */
const current = new AsyncLocalStorage<readonly SourceProject[]>();

export const withSources = <T>(sources: readonly SourceProject[], fn: () => Promise<T>): Promise<T> =>
  current.run(sources, fn);

export const currentSources = (): readonly SourceProject[] => current.getStore() ?? [];
