import type { Knex } from 'knex';
import { words, type AiService } from '@fieldbook/core';
import { compileSearch, parseSearchParams, type SearchServices } from '@fieldbook/search';
import { readableProjects, type Caller } from '../access.ts';
import { nearestByEmbedding, type InTransaction } from '../embeddings/embeddings.ts';

export type SourceType = 'highlight' | 'insight' | 'note' | 'theme';

/** One item an answer may cite, exactly as the person may open it. */
export interface AskSource {
  /** Short reference the model cites (S1, S2 …). */
  ref: string;
  type: SourceType;
  id: string;
  /** A highlight's note (or insight), a theme's channel; null for the others. */
  parentId: string | null;
  /** Where the item lives: its project, or for a theme its channel (and `channelId` is set). */
  projectId: string;
  projectTitle: string;
  channelId?: string;
  title: string;
  /**
   * The full text a quote is checked against: only what people wrote or imported (a note's or
   * insight's title and text, a highlight, a theme's data points), never text a model wrote.
   */
  text: string;
  /** `text` without the title: what a local answer quotes from. */
  body: string;
  url: string;
}

/** Data points of a theme an answer may quote: the most central, as the theme's summary reads them. */
const THEME_POINTS = 20;

// A channel's themes (what its customer feedback is about) answer questions too; without the
// channels module the engine has no such source and finds none.
const TYPES = ['HIGHLIGHT', 'INSIGHT', 'NOTE', 'THEME'] as const;

/** The search words of a question: its content words, as the search engine matches them. */
export function keywordsOf(question: string): string[] {
  return [
    ...new Set(
      words(question)
        .map((w) => w.replace(/'s$/, ''))
        .filter((w) => w.length > 2),
    ),
  ].slice(0, 8);
}

/**
 * Retrieval over everything the asker may read: the search module's engine (it answers only
 * within their access), all keywords first, then each keyword alone to widen a thin result, plus
 * the nearest embeddings when an embedding model is configured. Every source is loaded again and
 * kept only if its project is readable by the asker, so an answer cannot cite what they cannot open.
 */
export async function retrieve(
  tx: InTransaction,
  caller: Caller,
  search: SearchServices,
  ai: AiService,
  question: string,
  limit = 12,
): Promise<AskSource[]> {
  // Each step takes and gives back its own connection: the engine and the AI calls take theirs,
  // so a transaction held across them would hold two at once (and a burst of asks the whole pool).
  const access = await tx((trx) => search.access(trx, caller.workspaceId, caller.userId, caller.membership));
  const keywords = keywordsOf(question);
  const found = new Map<string, { type: SourceType; id: string; score: number }>();
  const run = async (query: string, weight: number) => {
    const compiled = compileSearch(parseSearchParams({ query, resultTypes: [...TYPES], limit: limit * 2 }), {
      now: new Date(),
      userId: caller.userId,
    });
    const res = await search.engine.search({
      workspaceId: caller.workspaceId,
      userId: caller.userId,
      access,
      compiled,
    });
    for (const h of res.hits) {
      const key = `${h.type}:${h.id}`;
      const prev = found.get(key);
      const score = (h.score || 1) * weight;
      if (!prev) found.set(key, { type: h.type.toLowerCase() as SourceType, id: h.id, score });
      else prev.score += score;
    }
  };
  // Each word quoted: matched exactly, so a question whose words never meet in one item does not
  // fall back to the engine's close-spelling search, which costs a scan of every text.
  const exact = (words: readonly string[]) => words.map((w) => `"${w}"`).join(' ');
  if (keywords.length > 0) {
    await run(exact(keywords), 3);
    if (found.size < limit && keywords.length > 1)
      for (const k of [...keywords].sort((a, b) => b.length - a.length).slice(0, 4)) await run(exact([k]), 1);
  }
  if (ai.model?.embeddingModel) {
    for (const n of await nearestByEmbedding(tx, caller, ai, question, limit)) {
      const key = `${n.type.toUpperCase()}:${n.id}`;
      const prev = found.get(key);
      if (prev) prev.score += n.similarity * 2;
      else found.set(key, { type: n.type, id: n.id, score: n.similarity * 2 });
    }
  }
  const ranked = [...found.values()].sort((a, b) => b.score - a.score).slice(0, limit);
  return tx((trx) => loadSources(trx, caller, ranked));
}

export async function loadSources(
  trx: Knex.Transaction,
  caller: Caller,
  refs: ReadonlyArray<{ type: SourceType; id: string }>,
): Promise<AskSource[]> {
  const projects = await readableProjects(trx, caller);
  const ids = (t: SourceType) => refs.filter((r) => r.type === t).map((r) => r.id);
  const ws = caller.workspaceId;
  // One after another: a transaction is one connection, which runs one query at a time.
  const highlights = (await trx('highlights as h')
    .leftJoin('notes as n', 'n.id', 'h.note_id')
    .leftJoin('insights as i', 'i.id', 'h.insight_id')
    .where('h.workspace_id', ws)
    .whereIn('h.id', ids('highlight'))
    .whereNull('h.deleted_at')
    .select(
      'h.id',
      'h.text',
      'h.project_id',
      'h.note_id',
      'h.insight_id',
      trx.raw('coalesce(n.title, i.title) as parent_title'),
    )) as Array<{
    id: string;
    text: string;
    project_id: string;
    note_id: string | null;
    insight_id: string | null;
    parent_title: string | null;
  }>;
  const docs = async (table: 'notes' | 'insights', type: SourceType) =>
    (await trx(table)
      .where('workspace_id', ws)
      .whereIn('id', ids(type))
      .whereNull('deleted_at')
      .select('id', 'title', 'content_text', 'project_id')) as Array<{
      id: string;
      title: string;
      content_text: string;
      project_id: string;
    }>;
  const notes = await docs('notes', 'note');
  const insights = await docs('insights', 'insight');
  // Every member reads every live channel (as the search engine answers them), so no further check.
  const themes = ids('theme').length
    ? ((await trx('channel_themes as t')
        .join('channels as c', 'c.id', 't.channel_id')
        .where('t.workspace_id', ws)
        .whereIn('t.id', ids('theme'))
        .whereNull('t.retired_at')
        .whereNull('t.merged_into')
        .whereNull('c.deleted_at')
        .select('t.id', 't.title', 't.channel_id', 'c.name as channel_name')) as Array<{
        id: string;
        title: string;
        channel_id: string;
        channel_name: string;
      }>)
    : [];
  // A theme's title and summary are made by clustering and by a model: what an answer may quote
  // from a theme is what its customers wrote, its data points.
  const points = themes.length
    ? ((
        await trx.raw(
          `select theme_id, content from (
             select m.theme_id, d.content,
                    row_number() over (partition by m.theme_id order by m.similarity desc nulls last, d.created_at desc, d.id) as r
               from channel_theme_members m join channel_datapoints d on d.id = m.datapoint_id
              where m.workspace_id = ? and m.theme_id = any(?)
           ) x where r <= ? order by theme_id, r`,
          [ws, themes.map((t) => t.id), THEME_POINTS],
        )
      ).rows as Array<{ theme_id: string; content: string }>)
    : [];
  const byKey = new Map<string, Omit<AskSource, 'ref'>>();
  for (const h of highlights) {
    const parentId = h.note_id ?? h.insight_id;
    const url = h.note_id ? `/data/${h.note_id}#highlight=${h.id}` : `/insights/${h.insight_id}#highlight=${h.id}`;
    byKey.set(`highlight:${h.id}`, {
      type: 'highlight',
      id: h.id,
      parentId,
      projectId: h.project_id,
      projectTitle: '',
      title: h.parent_title || 'Untitled',
      text: h.text,
      body: h.text,
      url,
    });
  }
  for (const n of notes)
    byKey.set(`note:${n.id}`, {
      type: 'note',
      id: n.id,
      parentId: null,
      projectId: n.project_id,
      projectTitle: '',
      title: n.title || 'Untitled note',
      text: `${n.title}\n${n.content_text}`,
      body: n.content_text,
      url: `/data/${n.id}`,
    });
  for (const i of insights)
    byKey.set(`insight:${i.id}`, {
      type: 'insight',
      id: i.id,
      parentId: null,
      projectId: i.project_id,
      projectTitle: '',
      title: i.title || 'Untitled insight',
      text: `${i.title}\n${i.content_text}`,
      body: i.content_text,
      url: `/insights/${i.id}`,
    });
  for (const t of themes) {
    const said = points
      .filter((p) => p.theme_id === t.id)
      .map((p) => p.content.replace(/\s+/g, ' ').trim())
      .join('\n');
    byKey.set(`theme:${t.id}`, {
      type: 'theme',
      id: t.id,
      parentId: t.channel_id,
      projectId: t.channel_id,
      projectTitle: t.channel_name,
      channelId: t.channel_id,
      title: t.title,
      text: said,
      body: said,
      url: `/channels/${t.channel_id}/themes/${t.id}`,
    });
  }
  const out: AskSource[] = [];
  for (const r of refs) {
    const s = byKey.get(`${r.type}:${r.id}`);
    const projectTitle = s?.channelId ? s.projectTitle : s ? projects.get(s.projectId) : undefined;
    if (!s || projectTitle === undefined) continue;
    out.push({ ...s, projectTitle, ref: `S${out.length + 1}` });
  }
  return out;
}
