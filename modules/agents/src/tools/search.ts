import type { Knex } from 'knex';
import { z } from 'zod';
import type { AgentTool, AiService, RequestContext, ToolItem } from '@fieldbook/core';
import { nearestByEmbedding } from '@fieldbook/ai';
import { compileSearch, parseSearchParams, type SearchServices } from '@fieldbook/search';
import { SEARCH_RESULT_TYPES } from '@fieldbook/search/filters';
import { hitPath } from '@fieldbook/search/web/hit-path';
import { memberOf, readableProjects, type Member } from './access.ts';
import { defineTool } from './define.ts';

/** A search hit as agents read it (001 §3.3). */
export interface AgentSearchHit {
  id: string;
  item_type: string;
  project_id: string | null;
  project_title: string | null;
  created_at: string | null;
  title: string;
  chunk: string;
  score: number;
  tags: string[];
}

const query = z
  .string({ error: 'query must be text.' })
  .trim()
  .min(1, 'query: write what to search for.')
  .max(2000, 'query: at most 2,000 characters.');
const limit = z
  .number({ error: 'limit must be a number.' })
  .int('limit must be a whole number.')
  .min(1, 'limit: at least 1.')
  .max(50, 'limit: at most 50.')
  .default(10);
const resultTypes = z
  .array(z.enum(SEARCH_RESULT_TYPES, { error: `resultTypes: each must be one of ${SEARCH_RESULT_TYPES.join(', ')}.` }))
  .max(10);
const ids = (field: string) =>
  z
    .array(z.uuid({ error: `${field}: each must be an id.` }))
    .max(100, `${field}: at most 100.`)
    .default([]);

const stripMarks = (html: string) =>
  html
    .replace(/<\/?mark>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

const CREATED_AT_TABLE: Record<string, string> = {
  NOTE: 'notes',
  INSIGHT: 'insights',
  HIGHLIGHT: 'highlights',
  PROJECT: 'projects',
};

/** When each hit was created, and the tags of notes and highlights, in one statement per type. */
async function details(trx: Knex.Transaction, m: Member, hits: ReadonlyArray<{ type: string; id: string }>) {
  const created = new Map<string, Date>();
  const tags = new Map<string, string[]>();
  for (const [type, table] of Object.entries(CREATED_AT_TABLE)) {
    const of = hits.filter((h) => h.type === type).map((h) => h.id);
    if (of.length === 0) continue;
    for (const r of (await trx(table)
      .where('workspace_id', m.workspaceId)
      .whereIn('id', of)
      .select('id', 'created_at')) as Array<{ id: string; created_at: Date }>)
      created.set(`${type}:${r.id}`, r.created_at);
  }
  for (const [type, table, column] of [
    ['NOTE', 'note_tags', 'note_id'],
    ['HIGHLIGHT', 'highlight_tags', 'highlight_id'],
  ] as const) {
    const of = hits.filter((h) => h.type === type).map((h) => h.id);
    if (of.length === 0) continue;
    const rows = (await trx(`${table} as x`)
      .join('tags as t', 't.id', 'x.tag_id')
      .where('x.workspace_id', m.workspaceId)
      .whereIn(`x.${column}`, of)
      .select(`x.${column} as id`, 't.title')) as Array<{ id: string; title: string }>;
    for (const r of rows) tags.set(`${type}:${r.id}`, [...(tags.get(`${type}:${r.id}`) ?? []), r.title]);
  }
  return { created, tags };
}

/**
 * Runs one search as the member: the engine answers only within their access. Three steps, each
 * taking and giving back its own connection: the engine takes one of its own, so holding a
 * transaction across the search would hold two, and a burst of searches would then hold the whole
 * pool while each waits for its second.
 */
async function runSearch(
  member: RequestContext,
  search: SearchServices,
  params: Record<string, unknown>,
): Promise<Array<AgentSearchHit & { url: string | null }>> {
  const m = memberOf(member);
  const compiled = compileSearch(parseSearchParams(params), { now: new Date(), userId: m.userId });
  const access = await member.tx((trx) => search.access(trx, m.workspaceId, m.userId, m.membership));
  const res = await search.engine.search({ workspaceId: m.workspaceId, userId: m.userId, access, compiled });
  const { created, tags } = res.hits.length
    ? await member.tx((trx) => details(trx, m, res.hits))
    : { created: new Map<string, Date>(), tags: new Map<string, string[]>() };
  return res.hits
    .map((h) => ({
      id: h.id,
      item_type: h.type,
      project_id: h.projectId,
      project_title: h.projectTitle,
      created_at: created.get(`${h.type}:${h.id}`)?.toISOString() ?? null,
      title: h.title,
      chunk: h.snippet ? stripMarks(h.snippet) : '',
      score: Math.round(h.score * 1000) / 1000,
      tags: tags.get(`${h.type}:${h.id}`) ?? [],
      parentId: h.parentId,
    }))
    .map(({ parentId, ...hit }) =>
      Object.assign(hit, { url: hitPath({ type: hit.item_type, id: hit.id, parentId, projectId: hit.project_id }) }),
    );
}

function answer(hits: ReadonlyArray<AgentSearchHit & { url?: string | null }>, lead = '') {
  const text =
    hits.length === 0
      ? `${lead}Nothing matched.`
      : `${lead}${hits.map((h, i) => `${i + 1}. [${h.item_type} ${h.id}] ${h.title || '(untitled)'}${h.project_title ? ` — project “${h.project_title}”` : ''}${h.chunk ? `: ${h.chunk}` : ''}`).join('\n')}`;
  const items: ToolItem[] = hits.map((h) => ({
    type: h.item_type,
    id: h.id,
    title: h.title || h.chunk.slice(0, 80),
    ...(h.url ? { url: h.url } : {}),
    ...(h.chunk ? { text: h.chunk } : {}),
  }));
  return { text, items, data: hits.map(({ url: _url, ...h }) => h) };
}

/** Search tools: keyword, semantic (embeddings when configured), filtered, and everything. */
export function searchTools(search: SearchServices, ai: AiService): AgentTool[] {
  return [
    defineTool({
      name: 'keyword_search',
      description: 'Finds notes, insights and highlights containing all the given words.',
      access: 'read',
      input: z.object({ query, limit }),
      async run(member, input) {
        const hits = await runSearch(member, search, {
          query: input.query,
          resultTypes: ['NOTE', 'INSIGHT', 'HIGHLIGHT'],
          limit: input.limit,
        });
        return answer(hits);
      },
    }),
    defineTool({
      name: 'semantic_search',
      description:
        'Finds notes, insights and highlights close in meaning to the query (by embeddings when the workspace has an embedding model, else by keywords).',
      access: 'read',
      input: z.object({ query, limit }),
      async run(member, input) {
        const m = memberOf(member);
        if (!ai.model?.embeddingModel) {
          const hits = await runSearch(member, search, {
            query: input.query,
            resultTypes: ['NOTE', 'INSIGHT', 'HIGHLIGHT'],
            limit: input.limit,
          });
          return answer(hits, 'No embedding model is configured, so these are keyword matches instead.\n');
        }
        const near = await nearestByEmbedding((fn) => member.tx(fn), m, ai, input.query, input.limit);
        const found = await member.tx(async (trx) => {
          const projects = await readableProjects(trx, m);
          const out: Array<AgentSearchHit & { url: string }> = [];
          for (const n of near) {
            const table = n.type === 'note' ? 'notes' : n.type === 'insight' ? 'insights' : 'highlights';
            const row = (await trx(table)
              .where({ id: n.id, workspace_id: m.workspaceId })
              .whereNull('deleted_at')
              .first()) as
              | {
                  id: string;
                  project_id: string;
                  title?: string;
                  text?: string;
                  content_text?: string;
                  created_at: Date;
                  note_id?: string | null;
                }
              | undefined;
            const projectTitle = row ? projects.get(row.project_id) : undefined;
            if (!row || projectTitle === undefined) continue;
            const type = n.type.toUpperCase();
            out.push({
              id: row.id,
              item_type: type,
              project_id: row.project_id,
              project_title: projectTitle,
              created_at: row.created_at.toISOString(),
              title: row.title ?? '',
              chunk: (row.text ?? row.content_text ?? '').slice(0, 300),
              score: Math.round(n.similarity * 1000) / 1000,
              tags: [],
              url: hitPath({ type, id: row.id, parentId: row.note_id ?? null, projectId: row.project_id }) ?? '',
            });
          }
          return out;
        });
        return answer(found);
      },
    }),
    defineTool({
      name: 'filtered_search',
      description:
        'Searches with filters: result types, projects, folders (projectCategoryIds), tags, and a filter form (combinator and field forms, as the search page builds them). The query may be empty to list what the filters match.',
      access: 'read',
      input: z.object({
        query: z.string({ error: 'query must be text.' }).max(2000, 'query: at most 2,000 characters.').optional(),
        resultTypes: resultTypes.default([]),
        projectIds: ids('projectIds'),
        projectCategoryIds: ids('projectCategoryIds'),
        tagIds: ids('tagIds'),
        filter: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('A filter form: { combinator: "and" | "or", fields: [...] }.'),
        limit,
      }),
      async run(member, input) {
        return answer(await runSearch(member, search, input));
      },
    }),
    defineTool({
      name: 'search',
      description:
        'Searches everything the person can read: notes, insights, highlights, tags, projects, folders, people, channels, themes and data points.',
      access: 'read',
      input: z.object({ query, resultTypes: resultTypes.optional(), limit }),
      async run(member, input) {
        return answer(
          await runSearch(member, search, {
            query: input.query,
            resultTypes: input.resultTypes ?? [],
            limit: input.limit,
          }),
        );
      },
    }),
  ];
}
