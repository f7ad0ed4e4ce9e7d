import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import { memberOf, readableDoc, readableProjects, type Member } from '../tools/access.ts';
import type { ConversationRow } from './store.ts';

/** The filter object types of 001 §3.3. */
export const CONVERSATION_FILTER_TYPES = ['ProjectCategory', 'Project', 'Channel', 'Note', 'Insight', 'Tag', 'Chart', 'MultiSelect'] as const;

const dateRange = z
  .object({ from: z.iso.datetime({ offset: true, error: 'dateRange.from must be a date and time (ISO 8601).' }).nullish(), to: z.iso.datetime({ offset: true, error: 'dateRange.to must be a date and time (ISO 8601).' }).nullish() })
  .refine((r) => !r.from || !r.to || r.from <= r.to, { message: 'dateRange: from must not be after to.', path: ['from'] });

const filterSchema = z
  .object({
    type: z.enum(CONVERSATION_FILTER_TYPES, { error: `type must be one of ${CONVERSATION_FILTER_TYPES.join(', ')}.` }),
    objectIds: z.array(z.uuid({ error: 'objectIds: each must be an id.' })).max(100, 'objectIds: at most 100.').nullish(),
    dateRange: dateRange.nullish(),
    searchFilters: z.record(z.string(), z.unknown()).nullish(),
  })
  .refine((f) => (f.objectIds?.length ?? 0) > 0 || Boolean(f.dateRange), { message: 'objectIds: a filter carries objectIds or a dateRange.', path: ['objectIds'] });

const searchInput = z.object({
  query: z.string({ error: 'query must be text.' }).trim().max(2000, 'query: at most 2,000 characters.').nullish(),
  agentId: z.uuid({ error: 'agentId must be the id of an agent.' }).nullish(),
  filters: z.array(filterSchema).max(20, 'filters: at most 20.').nullish(),
  limit: z.number().int().min(1, 'limit: at least 1.').max(200, 'limit: at most 200.').nullish(),
});

type FilterType = (typeof CONVERSATION_FILTER_TYPES)[number];

/**
 * NOT_FOUND unless the member may read the object a filter names, as for every id an input names:
 * a project-level tag or a chart through its project, the rest within the workspace.
 */
async function assertReadable(trx: Knex.Transaction, m: Member, projects: () => Promise<Map<string, string>>, type: FilterType, id: string): Promise<void> {
  const inWorkspace = (table: string) => trx(table).where({ id, workspace_id: m.workspaceId });
  let projectId: string | null | undefined;
  switch (type) {
    case 'Project':
      projectId = id;
      break;
    case 'Note':
      await readableDoc(trx, m, 'notes', id);
      return;
    case 'Insight':
      await readableDoc(trx, m, 'insights', id);
      return;
    case 'Tag': {
      const row = (await trx('tags as t').join('tag_boards as b', 'b.id', 't.board_id').where({ 't.id': id, 't.workspace_id': m.workspaceId }).first('b.project_id')) as { project_id: string | null } | undefined;
      if (!row) throw notFound('That tag');
      projectId = row.project_id;
      break;
    }
    case 'Chart': {
      const row = (await inWorkspace('project_charts').first('project_id')) as { project_id: string } | undefined;
      if (!row) throw notFound('That chart');
      projectId = row.project_id;
      break;
    }
    case 'Channel':
      if (!(await inWorkspace('channels').whereNull('deleted_at').first('id'))) throw notFound('That channel');
      return;
    case 'ProjectCategory':
      if (!(await inWorkspace('project_categories').first('id'))) throw notFound('That project category');
      return;
    case 'MultiSelect':
      if (!(await inWorkspace('field_options').first('id'))) throw notFound('That option');
      return;
  }
  if (projectId && !(await projects()).has(projectId)) throw notFound(type === 'Project' ? 'That project' : `That ${type.toLowerCase()}`);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The person's own conversations matching a text (title or any message) and every filter: an
 * object filter matches conversations whose tool results named one of its objects (each object
 * checked as readable first), a date range the conversations active in it.
 */
export async function searchConversations(ctx: RequestContext, input: unknown): Promise<ConversationRow[]> {
  const m = memberOf(ctx);
  const v = validate(searchInput, input ?? {});
  return ctx.tx(async (trx) => {
    const filters = v.filters ?? [];
    let readable: Map<string, string> | undefined;
    const projects = async () => (readable ??= await readableProjects(trx, m));
    for (const f of filters) for (const id of f.objectIds ?? []) await assertReadable(trx, m, projects, f.type, id);
    const q = trx('agent_conversations as c').where({ 'c.workspace_id': m.workspaceId, 'c.user_id': m.userId });
    if (v.agentId) q.where('c.agent_id', v.agentId);
    if (v.query) {
      const like = `%${escapeLike(v.query)}%`;
      q.where((w) => w.whereILike('c.title', like).orWhereExists((s) => s.from('agent_messages as t').whereRaw('t.conversation_id = c.id').whereILike('t.content', like)));
    }
    for (const f of filters) {
      if (f.objectIds?.length && f.type === 'Project') {
        // A project filter matches results naming the project or anything in it.
        const ids = f.objectIds;
        q.whereExists((s) =>
          s
            .from('agent_messages as t')
            .whereRaw('t.conversation_id = c.id')
            .whereRaw(
              `t.item_ids && (?::uuid[] || array(select id from notes where project_id = any(?::uuid[])) || array(select id from insights where project_id = any(?::uuid[])) || array(select id from highlights where project_id = any(?::uuid[])))`,
              [ids, ids, ids, ids],
            ),
        );
      } else if (f.objectIds?.length) {
        const ids = f.objectIds;
        q.whereExists((s) => s.from('agent_messages as t').whereRaw('t.conversation_id = c.id').whereRaw('t.item_ids && ?::uuid[]', [ids]));
      }
      if (f.dateRange?.from) q.where('c.updated_at', '>=', f.dateRange.from);
      if (f.dateRange?.to) q.where('c.created_at', '<=', f.dateRange.to);
    }
    return (await q.orderBy('c.updated_at', 'desc').limit(v.limit ?? 50).select('c.*')) as ConversationRow[];
  });
}
