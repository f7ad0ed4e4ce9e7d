import { z } from 'zod';
import {
  AppError,
  isVerbatimQuote,
  sentencesMatching,
  sentences,
  validate,
  verifyProse,
  type AiService,
  type RequestContext,
} from '@fieldbook/core';
import type { SearchServices } from '@fieldbook/search';
import { callerOf } from '../access.ts';
import { JsonLines, str } from '../jsonl.ts';
import { ASK_PROMPT_VERSION, askMessages } from './prompt.ts';
import { retrieve, type AskSource, type SourceType } from './retrieve.ts';

export const MAX_QUESTION_CHARS = 500;
export const askInput = z.object({
  question: z
    .string()
    .trim()
    .min(1, 'question must not be empty.')
    .max(MAX_QUESTION_CHARS, `question can be at most ${MAX_QUESTION_CHARS} characters.`),
});

/** A citation (000 §3): the source as the person may open it, and a quote verified in it. */
export interface Citation {
  id: string;
  type: SourceType;
  parentId: string | null;
  title: string;
  projectTitle: string;
  text: string;
  quote: string;
  citationReferenceId: string;
  url: string;
}

/** 000 §3: how the themes of a channel the answer draws on grew, latest period beside the one before. */
export interface EmergingThemesBlock {
  type: 'emergingThemes';
  channelId: string;
  channelTitle: string;
  items: Array<{ id: string; title: string; previousCount: number; currentCount: number }>;
}

export type AnswerBlock =
  | { type: 'heading'; level: 1 | 2 | 3; content: string }
  | { type: 'text'; content: string; citations: Citation[] }
  | EmergingThemesBlock;

/** A channel's emerging themes, from the channels module when it is loaded. */
export type EmergingThemesOf = (member: RequestContext, channelId: string) => Promise<EmergingThemesBlock['items']>;

/** Themes drawn in an answer's graph: the most grown, enough to compare at a glance. */
const GRAPH_THEMES = 8;

export interface AnswerSummary {
  summary: string;
  citations: Citation[];
  numProjects: number;
  numHighlights: number;
  numChannels: number;
  numItems: number;
  isQuestion: boolean;
}

export interface AiAnswer {
  question: string;
  blocks: AnswerBlock[];
  summary: AnswerSummary;
  /**
   * Quotes the model wrote that were not found in their source (or cited a source it was not
   * given), as citations or as quotations in its text: never shown.
   */
  droppedQuotes: number;
  /** Statements left out because every citation they had was dropped. */
  unsupportedClaims: number;
  /** True when no model is configured and the answer is sentences cut from the sources. */
  local: boolean;
  /** "Written by AI (model) from 8 sources" or the local label. */
  label: string;
  model: string;
  promptVersion: string;
}

export type AskEvent = { event: 'sources'; data: { numItems: number } } | { event: 'block'; data: AnswerBlock };

const QUESTION_START =
  /^(who|what|when|where|why|how|which|whose|whom|is|are|do|does|did|can|could|should|would|will|was|were|has|have)\b/i;
export const isQuestion = (text: string) => text.trim().endsWith('?') || QUESTION_START.test(text.trim());

/** Snippet of a source shown beside its citation. */
const snippet = (s: AskSource) => (s.text.length > 280 ? `${s.text.slice(0, 277)}…` : s.text);

/**
 * A note or insight cited for some words opens at those words: the note page's hash (000 §2)
 * carries the snippet and, when it is there as written, its offsets in the document's text.
 * Highlights already link by their id.
 */
function passageUrl(s: AskSource, quote: string): string {
  if (s.type !== 'note' && s.type !== 'insight') return s.url;
  const params = new URLSearchParams({ text: quote });
  // The source's text is its title, a newline, then the document's plain text.
  const body = s.text.indexOf('\n') + 1;
  const at = s.text.indexOf(quote, body);
  if (body > 0 && at >= 0) {
    params.set('start', String(at - body));
    params.set('end', String(at - body + quote.length));
  }
  return `${s.url}#${params.toString()}`;
}

/**
 * Answers a question from what the asker may read. Each block is emitted as soon as its line is
 * complete and its citations verified: a citation survives only if its quote is found verbatim in
 * the source it names, and that source was retrieved for this asker.
 */
export async function ask(
  ctx: RequestContext,
  ai: AiService,
  search: SearchServices,
  rawInput: unknown,
  emit: (e: AskEvent) => void = () => {},
  signal?: AbortSignal,
  emergingThemesOf: EmergingThemesOf | null = null,
): Promise<AiAnswer> {
  const caller = callerOf(ctx, 'projects:read');
  const { question } = validate(askInput, rawInput);
  const settings = await ai.settings(caller.workspaceId);
  if (!settings.enabled || !settings.features.ask) {
    throw new AppError(
      'FORBIDDEN',
      'Ask is turned off in this workspace. A workspace admin can turn it on in Settings → AI.',
    );
  }
  if (ai.model) await ai.ensureAllowed({ workspaceId: caller.workspaceId, userId: caller.userId, feature: 'ask' });
  const sources = await retrieve((fn) => ctx.tx(fn), caller, search, ai, question);
  emit({ event: 'sources', data: { numItems: sources.length } });
  const byRef = new Map(sources.map((s) => [s.ref, s]));
  const blocks: AnswerBlock[] = [];
  let dropped = 0;
  let unsupported = 0;

  const cite = (ref: string, raw: string): Citation | null => {
    const s = byRef.get(ref);
    if (!s || !isVerbatimQuote(raw, s.text)) {
      dropped += 1;
      return null;
    }
    const quote = raw.trim().replace(/^["'\u201C\u2018]+|["'\u201D\u2019]+$/g, '');
    return {
      id: s.id,
      type: s.type,
      parentId: s.parentId,
      title: s.title,
      projectTitle: s.projectTitle,
      text: snippet(s),
      quote,
      citationReferenceId: s.ref,
      url: passageUrl(s, quote),
    };
  };
  const push = (b: AnswerBlock) => {
    blocks.push(b);
    emit({ event: 'block', data: b });
  };
  /**
   * The quotations written in a block's text, checked like citations: against the sources it
   * cites first, then any other source given. One found elsewhere is cited there too, so the
   * reader can open it; one found nowhere is replaced and counted.
   */
  const checkText = (content: string, citations: Citation[]): { content: string; citations: Citation[] } => {
    const cited = new Set(citations.map((c) => c.citationReferenceId));
    const ordered = [...sources.filter((s) => cited.has(s.ref)), ...sources.filter((s) => !cited.has(s.ref))];
    const checked = verifyProse(
      content,
      ordered.map((s) => ({ id: s.ref, text: s.text, title: s.title })),
    );
    dropped += checked.dropped;
    const more = checked.found.flatMap((f) => {
      if (citations.some((c) => c.citationReferenceId === f.sourceId && c.quote === f.text)) return [];
      const c = cite(f.sourceId, f.text);
      return c ? [c] : [];
    });
    return { content: checked.text, citations: [...citations, ...more] };
  };

  let model = 'local';
  let label: string;
  if (!ai.model) {
    label = `Local answer (no AI model configured) from ${sources.length} source${sources.length === 1 ? '' : 's'}`;
    if (sources.length === 0)
      push({ type: 'text', content: 'Nothing you can open in this workspace matches this question.', citations: [] });
    else push({ type: 'heading', level: 2, content: 'What your research says' });
    for (const s of sources.slice(0, 6)) {
      // Quoted from what people wrote (a note's text, a highlight, a theme's data points), never its title.
      const sentence = sentencesMatching(s.body, question, 1)[0] ?? sentences(s.body)[0] ?? '';
      const c = sentence ? cite(s.ref, sentence) : null;
      if (c) push({ type: 'text', content: `${s.title} (${s.projectTitle})`, citations: [c] });
    }
  } else if (sources.length === 0) {
    label = 'No sources found';
    push({ type: 'text', content: 'Nothing you can open in this workspace matches this question.', citations: [] });
  } else {
    const lines = new JsonLines();
    const take = (objects: Record<string, unknown>[]) => {
      for (const o of objects) {
        const content = str(o.content);
        if (!content) continue;
        if (o.type === 'heading') {
          const level = o.level === 1 || o.level === 3 ? o.level : 2;
          push({ type: 'heading', level, content: checkText(content, []).content });
        } else if (o.type === 'text') {
          const raw = Array.isArray(o.citations) ? (o.citations as unknown[]) : [];
          const citations = raw.flatMap((c) => {
            const r = c && typeof c === 'object' ? (c as Record<string, unknown>) : {};
            const ref = str(r.ref) ?? str(r.citationReferenceId) ?? '';
            const quote = str(r.quote) ?? '';
            const ok = cite(ref, quote);
            return ok ? [ok] : [];
          });
          // A claim whose every citation was dropped has nothing left to stand on: it is left out.
          if (raw.length > 0 && citations.length === 0) {
            unsupported += 1;
            continue;
          }
          push({ type: 'text', ...checkText(content, citations) });
        }
      }
    };
    const result = await ai.chat(
      { workspaceId: caller.workspaceId, userId: caller.userId, feature: 'ask' },
      { messages: askMessages(question, sources), temperature: 0.1 },
      { onDelta: (t) => take(lines.push(t)), signal },
    );
    take(lines.end());
    model = result.model;
    label = `Written by AI (${result.model}) from ${sources.length} source${sources.length === 1 ? '' : 's'}`;
  }

  const citations = blocks.flatMap((b) => (b.type === 'text' ? b.citations : []));
  const cited = new Set(citations.map((c) => c.id));
  const used = sources.filter((s) => cited.has(s.id));
  // Channels are involved when a theme was cited (or, answered locally, found): their growth is
  // drawn after the text, one graph per channel, most cited first.
  if (emergingThemesOf) {
    const channels = new Map<string, string>();
    for (const s of used.length ? used : sources)
      if (s.channelId && !channels.has(s.channelId)) channels.set(s.channelId, s.projectTitle);
    for (const [channelId, channelTitle] of [...channels].slice(0, 2)) {
      const items = (await emergingThemesOf(ctx, channelId)).slice(0, GRAPH_THEMES);
      if (items.some((i) => i.previousCount > 0 || i.currentCount > 0))
        push({ type: 'emergingThemes', channelId, channelTitle, items });
    }
  }
  return {
    question,
    blocks,
    summary: {
      summary: blocks.flatMap((b) => (b.type === 'text' ? [b.content] : [])).join('\n\n'),
      citations,
      numProjects: new Set(used.filter((s) => !s.channelId).map((s) => s.projectId)).size,
      numHighlights: used.filter((s) => s.type === 'highlight').length,
      numChannels: new Set(used.flatMap((s) => (s.channelId ? [s.channelId] : []))).size,
      numItems: used.length,
      isQuestion: isQuestion(question),
    },
    droppedQuotes: dropped,
    unsupportedClaims: unsupported,
    local: !ai.model,
    label,
    model,
    promptVersion: ASK_PROMPT_VERSION,
  };
}
