import type { Knex } from 'knex';
import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import { memberOf, readableDoc, readableProjects, type Member } from '../tools/access.ts';
import type { ConversationRow } from './store.ts';

/** The filter object types of 001 §3.3. */
export const CONVERSATION_FILTER_TYPES = [
  'ProjectCategory',
  'Project',
  'Channel',
  'Note',
  'Insight',
  'Tag',
  'Chart',
  'MultiSelect',
] as const;

const dateRange = z
  .object({
    from: z.iso.datetime({ offset: true, error: 'dateRange.from must be a date and time (ISO 8601).' }).nullish(),
    to: z.iso.datetime({ offset: true, error: 'dateRange.to must be a date and time (ISO 8601).' }).nullish(),
  })
  .refine((r) => !r.from || !r.to || r.from <= r.to, {
    message: 'dateRange: from must not be after to.',
    path: ['from'],
  });

const filterSchema = z
  .object({
    type: z.enum(CONVERSATION_FILTER_TYPES, { error: `type must be one of ${CONVERSATION_FILTER_TYPES.join(', ')}.` }),
    objectIds: z
      .array(z.uuid({ error: 'objectIds: each must be an id.' }))
      .max(100, 'objectIds: at most 100.')
      .nullish(),
    dateRange: dateRange.nullish(),
    searchFilters: z.record(z.string(), z.unknown()).nullish(),
  })
  .refine((f) => (f.objectIds?.length ?? 0) > 0 || Boolean(f.dateRange), {
    message: 'objectIds: a filter carries objectIds or a dateRange.',
    path: ['objectIds'],
  });

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
async function assertReadable(
  trx: Knex.Transaction,
  m: Member,
  projects: () => Promise<Map<string, string>>,
  type: FilterType,
  id: string,
): Promise<void> {
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
      const row = (await trx('tags as t')
        .join('tag_boards as b', 'b.id', 't.board_id')
        .where({ 't.id': id, 't.workspace_id': m.workspaceId })
        .first('b.project_id')) as { project_id: string | null } | undefined;
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
      if (!(await channelsPresent(trx)) || !(await inWorkspace('channels').whereNull('deleted_at').first('id')))
        throw notFound('That channel');
      return;
    case 'ProjectCategory':
      if (!(await inWorkspace('project_categories').first('id'))) throw notFound('That project category');
      return;
    case 'MultiSelect':
      if (!(await inWorkspace('field_options').first('id'))) throw notFound('That option');
      return;
  }
  if (projectId && !(await projects()).has(projectId))
    throw notFound(type === 'Project' ? 'That project' : `That ${type.toLowerCase()}`);
}

interface Sql {
  sql: string;
  bindings: Knex.RawBinding[];
}

/** Notes, insights and highlights of the projects a subquery (of project ids) yields, with those projects. */
const inProjects = (projects: string, bindings: Knex.RawBinding[]): Sql => ({
  sql: `array(${projects}) || array(select id from notes where project_id in (${projects})) || array(select id from insights where project_id in (${projects})) || array(select id from highlights where project_id in (${projects}))`,
  bindings: [...bindings, ...bindings, ...bindings, ...bindings],
});

/**
 * Every id a tool result may have named that counts as naming one of a filter's objects, as one
 * uuid[] expression: the objects themselves, and what each type contains (001 §3.3).
 */
function namedBy(type: FilterType, ids: string[], channels: boolean): Sql {
  const own = { sql: '?::uuid[]', bindings: [ids] as Knex.RawBinding[] };
  const join = (...parts: Sql[]): Sql => ({
    sql: parts.map((p) => p.sql).join(' || '),
    bindings: parts.flatMap((p) => p.bindings),
  });
  switch (type) {
    case 'Project':
      return join(own, inProjects('select unnest(?::uuid[])', [ids]));
    case 'ProjectCategory': {
      // A category holds the projects of its subcategories too.
      const projects = `select p.id from projects p where p.category_id in (with recursive cat(id) as (select unnest(?::uuid[]) union select pc.id from project_categories pc join cat on pc.parent_id = cat.id) select id from cat)`;
      return join(own, inProjects(projects, [ids]));
    }
    case 'Chart':
      return join(own, inProjects('select project_id from project_charts where id = any(?::uuid[])', [ids]));
    case 'Tag':
      return join(own, {
        sql: 'array(select highlight_id from highlight_tags where tag_id = any(?::uuid[])) || array(select note_id from note_tags where tag_id = any(?::uuid[]))',
        bindings: [ids, ids],
      });
    case 'Note':
      return join(own, { sql: 'array(select id from highlights where note_id = any(?::uuid[]))', bindings: [ids] });
    case 'Insight':
      return join(own, { sql: 'array(select id from highlights where insight_id = any(?::uuid[]))', bindings: [ids] });
    case 'MultiSelect':
      // A select value is stored as the array of its option ids.
      return join(own, {
        sql: 'array(select object_id from field_values where jsonb_exists_any(value, (?::uuid[])::text[]))',
        bindings: [ids],
      });
    case 'Channel':
      return channels
        ? join(own, {
            sql: 'array(select id from channel_datapoints where channel_id = any(?::uuid[]))',
            bindings: [ids],
          })
        : own;
  }
}

/** Channels is an optional module: its data points are searched only where its tables exist. */
async function channelsPresent(trx: Knex.Transaction): Promise<boolean> {
  const row = (await trx.raw(`select to_regclass('channel_datapoints') is not null as present`)) as {
    rows: Array<{ present: boolean }>;
  };
  return row.rows[0]?.present === true;
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
      q.where((w) =>
        w
          .whereILike('c.title', like)
          .orWhereExists((s) =>
            s.from('agent_messages as t').whereRaw('t.conversation_id = c.id').whereILike('t.content', like),
          ),
      );
    }
    const channels = filters.some((f) => f.type === 'Channel' && f.objectIds?.length) && (await channelsPresent(trx));
    for (const f of filters) {
      if (f.objectIds?.length) {
        const named = namedBy(f.type, f.objectIds, channels);
        // The expansion does not depend on the conversation, so it is computed once per query.
        q.whereExists((s) =>
          s
            .from('agent_messages as t')
            .whereRaw('t.conversation_id = c.id')
            .whereRaw(`t.item_ids && (${named.sql})`, named.bindings),
        );
      }
      if (f.dateRange?.from) q.where('c.updated_at', '>=', f.dateRange.from);
      if (f.dateRange?.to) q.where('c.created_at', '<=', f.dateRange.to);
    }
    return (await q
      .orderBy('c.updated_at', 'desc')
      .limit(v.limit ?? 50)
      .select('c.*')) as ConversationRow[];
  });
}
