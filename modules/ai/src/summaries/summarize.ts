import { z } from 'zod';
import type { Knex } from 'knex';
import {
  AppError,
  authorizeSummary,
  isVerbatimQuote,
  provenanceLabel,
  readProvenance,
  recordProvenance,
  validate,
  verifyProse,
  wordCount,
  type AiService,
  type Provenance,
  type RequestContext,
} from '@fieldbook/core';
import { callerOf, itemFor, type Caller } from '../access.ts';
import { JsonLines, str } from '../jsonl.ts';
import { SUMMARY_FRAMEWORKS, SUMMARY_KINDS, type SummaryFramework, type SummaryKind } from './frameworks.ts';
import { localSummary } from './local.ts';
import type { SummaryPart } from './part.ts';
import { SUMMARY_PROMPT_VERSION, summaryMessages, type SummarySource } from './prompt.ts';

export const NOT_ENOUGH_CONTENT = 'Not enough content to summarize';
export { VIEWERS_CANNOT_SUMMARIZE } from '@fieldbook/core';
/** Fewer words than this is too little to summarise (NOT_ENOUGH_DATA). */
export const MIN_SUMMARY_WORDS = 15;
const OBJECT_TYPES = ['NOTE', 'INSIGHT'] as const;
type SummaryObjectType = (typeof OBJECT_TYPES)[number];

const objectRef = z.object({
  objectType: z.enum(OBJECT_TYPES),
  objectId: z.string().uuid('objectId must be a valid id.'),
});
export const summarizeInput = objectRef
  .extend({
    kind: z.enum(SUMMARY_KINDS).default('paragraph'),
    framework: z.enum(SUMMARY_FRAMEWORKS).default('Summary'),
    customPrompt: z.string().trim().max(2000, 'customPrompt can be at most 2000 characters.').nullish(),
  })
  .superRefine((v, issues) => {
    if (v.framework === 'CustomPrompt' && !v.customPrompt)
      issues.addIssue({
        code: 'custom',
        path: ['customPrompt'],
        message: 'customPrompt is needed with the CustomPrompt framework (1 to 2000 characters).',
      });
  });
export type SummarizeInput = z.infer<typeof summarizeInput>;

export interface SummaryView {
  id: string | null;
  objectType: SummaryObjectType;
  objectId: string;
  kind: SummaryKind;
  framework: SummaryFramework;
  status: 'OK' | 'NOT_ENOUGH_DATA';
  message: string | null;
  text: string;
  sections: Array<{ title: string; startTime: string | null; text: string }>;
  quotes: Array<{ itemId: string; text: string }>;
  droppedQuotes: number;
  contributors: string[];
  updatedAt: Date | null;
  provenance: (Provenance & { label: string; local: boolean }) | null;
}

const TABLE = { NOTE: 'notes', INSIGHT: 'insights' } as const;
const START_TIME = /^\d{1,2}:\d{2}(:\d{2})?$/;

/** The material a summary may quote: the item itself and its highlights. */
async function sourcesOf(
  trx: Knex.Transaction,
  caller: Caller,
  type: SummaryObjectType,
  id: string,
  needed: 'read' | 'write',
) {
  const item = await itemFor(trx, caller, TABLE[type], id, needed);
  const highlights = (await trx('highlights')
    .where({ workspace_id: caller.workspaceId, [type === 'NOTE' ? 'note_id' : 'insight_id']: id })
    .whereNull('deleted_at')
    .orderBy('start_offset')
    .select('id', 'text')) as Array<{ id: string; text: string }>;
  const sources: SummarySource[] = [
    { id: item.id, label: type.toLowerCase(), text: `${item.title}\n${item.content_text}` },
  ];
  for (const h of highlights) sources.push({ id: h.id, label: 'highlight', text: h.text });
  return { item, sources };
}

/** The viewer's role decides first: viewers never generate, whatever project access they hold. */
export function summarizer(ctx: RequestContext): Caller {
  authorizeSummary(ctx, 'notes:read');
  return callerOf(ctx, 'notes:read');
}

/** A summary written but not stored yet: what storing it needs. */
export interface SummaryDraft {
  input: SummarizeInput;
  content: Pick<SummaryView, 'text' | 'sections' | 'quotes'>;
  dropped: number;
  contributors: string[];
  provenance: Omit<Provenance, 'createdAt'>;
}

/**
 * Writes a summary of a note or insight, passing each verified part to `emit` as soon as it is
 * complete. Every quote is checked against the source it cites before it is emitted or kept.
 */
export async function summarize(
  ctx: RequestContext,
  ai: AiService,
  rawInput: unknown,
  emit: (part: SummaryPart) => void = () => {},
  signal?: AbortSignal,
): Promise<SummaryView> {
  const draft = await draftSummary(ctx, ai, rawInput, emit, signal);
  if ('status' in draft) return draft;
  return storeSummary(ctx, draft);
}

/** A summary as `summarize` writes it, without storing it (NOT_ENOUGH_DATA as a view). */
export async function draftSummary(
  ctx: RequestContext,
  ai: AiService,
  rawInput: unknown,
  emit: (part: SummaryPart) => void = () => {},
  signal?: AbortSignal,
): Promise<SummaryDraft | SummaryView> {
  const caller = summarizer(ctx);
  const input = validate(summarizeInput, rawInput);
  const { item, sources } = await ctx.tx((trx) => sourcesOf(trx, caller, input.objectType, input.objectId, 'write'));
  const base = { objectType: input.objectType, objectId: input.objectId, kind: input.kind, framework: input.framework };
  if (wordCount(item.content_text) < MIN_SUMMARY_WORDS) return notEnough(base);

  const texts = new Map(sources.map((s) => [s.id, s.text]));
  const quotable = sources.map((s) => ({ id: s.id, text: s.text, title: s.id === item.id ? item.title : undefined }));
  const parts: SummaryPart[] = [];
  let dropped = 0;
  // Quotations the model writes inside its prose are checked against the same sources as its quotes.
  const checked = (prose: string) => {
    const r = verifyProse(prose, quotable);
    dropped += r.dropped;
    return r.text;
  };
  const accept = (raw: SummaryPart) => {
    if (raw.type === 'quote' && !(texts.has(raw.itemId) && isVerbatimQuote(raw.text, texts.get(raw.itemId)!))) {
      dropped += 1;
      return;
    }
    const part: SummaryPart =
      raw.type === 'text'
        ? { ...raw, text: checked(raw.text) }
        : raw.type === 'section'
          ? { ...raw, title: checked(raw.title), text: checked(raw.text) }
          : raw;
    parts.push(part);
    emit(part);
  };

  let provenance: Omit<Provenance, 'createdAt'>;
  if (!ai.model) {
    await ensureFeature(ai, caller);
    for (const p of localSummary(input.kind, item.id, item.content_text)) accept(p);
    provenance = provenanceOf(caller, input, 'local', null, sources, 0, 0);
  } else {
    let notEnoughData = false;
    const lines = new JsonLines();
    const take = (objects: Record<string, unknown>[]) => {
      for (const o of objects) {
        if (o.type === 'notEnoughData') notEnoughData = true;
        const part = toPart(o, input.kind);
        if (part) accept(part);
      }
    };
    const result = await ai.chat(
      { workspaceId: caller.workspaceId, userId: caller.userId, feature: 'summaries' },
      { messages: summaryMessages(input.kind, input.framework, input.customPrompt ?? null, sources), temperature: 0.2 },
      { onDelta: (text) => take(lines.push(text)), signal },
    );
    take(lines.end());
    if (notEnoughData && parts.length === 0) return notEnough(base);
    provenance = provenanceOf(
      caller,
      input,
      result.model,
      result.endpointHost,
      sources,
      result.promptTokens,
      result.completionTokens,
    );
  }
  if (parts.length === 0)
    throw new AppError('INTERNAL_SERVER_ERROR', 'The AI model answered without a usable summary; try again.');

  const content = {
    text: parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n\n'),
    sections: parts.flatMap((p) =>
      p.type === 'section' ? [{ title: p.title, startTime: p.startTime, text: p.text }] : [],
    ),
    quotes: parts.flatMap((p) => (p.type === 'quote' ? [{ itemId: p.itemId, text: p.text }] : [])),
  };
  const contributors = [...new Set([item.created_by, item.updated_by, caller.userId].filter((u): u is string => !!u))];
  return { input, content, dropped, contributors, provenance };
}

/** Stores a drafted summary as its item's summary (replacing the one before), with its provenance. */
export async function storeSummary(ctx: RequestContext, draft: SummaryDraft): Promise<SummaryView> {
  const caller = callerOf(ctx, 'notes:read');
  const { input } = draft;
  await ctx.tx(async (trx) => {
    // The item may have been deleted, or the caller lost access, since it was drafted.
    await itemFor(trx, caller, TABLE[input.objectType], input.objectId, 'write');
    const [row] = (await trx('ai_summaries')
      .insert({
        workspace_id: caller.workspaceId,
        object_type: input.objectType,
        object_id: input.objectId,
        kind: input.kind,
        framework: input.framework,
        content: JSON.stringify(draft.content),
        dropped_quotes: draft.dropped,
        contributors: draft.contributors,
        updated_at: trx.fn.now(),
      })
      .onConflict(['workspace_id', 'object_type', 'object_id'])
      .merge()
      .returning('id')) as Array<{ id: string }>;
    await recordProvenance(trx, caller.workspaceId, { ...draft.provenance, objectType: 'SUMMARY', objectId: row!.id });
  });
  return (await readSummary(ctx, input.objectType, input.objectId))!;
}

async function ensureFeature(ai: AiService, caller: Caller): Promise<void> {
  // Local summaries need no model, but a workspace that turned AI or summaries off meant it.
  const s = await ai.settings(caller.workspaceId);
  if (!s.enabled || !s.features.summaries)
    throw new AppError(
      'FORBIDDEN',
      'AI summaries are turned off in this workspace. A workspace admin can turn them on in Settings → AI.',
    );
}

function toPart(o: Record<string, unknown>, kind: SummaryKind): SummaryPart | null {
  if (o.type === 'quote') {
    const itemId = str(o.itemId);
    const text = str(o.text);
    return itemId && text ? { type: 'quote', itemId, text } : null;
  }
  const text = str(o.text);
  if (!text) return null;
  if (o.type === 'section' || kind === 'chapter') {
    const t = str(o.startTime);
    return {
      type: 'section',
      title: str(o.title) ?? 'Untitled chapter',
      startTime: t && START_TIME.test(t) ? t : null,
      text,
    };
  }
  return o.type === 'text' ? { type: 'text', text } : null;
}

function provenanceOf(
  caller: Caller,
  input: SummarizeInput,
  model: string,
  host: string | null,
  sources: SummarySource[],
  promptTokens: number,
  completionTokens: number,
): Omit<Provenance, 'createdAt'> {
  const inputTypes: Record<string, number> = {};
  for (const s of sources) inputTypes[s.label] = (inputTypes[s.label] ?? 0) + 1;
  return {
    objectType: 'SUMMARY',
    objectId: input.objectId,
    model,
    endpointHost: host,
    promptVersion: SUMMARY_PROMPT_VERSION,
    inputIds: sources.map((s) => s.id),
    inputTypes,
    promptTokens,
    completionTokens,
    createdBy: caller.userId,
  };
}

function notEnough(base: Pick<SummaryView, 'objectType' | 'objectId' | 'kind' | 'framework'>): SummaryView {
  return {
    ...base,
    id: null,
    status: 'NOT_ENOUGH_DATA',
    message: NOT_ENOUGH_CONTENT,
    text: '',
    sections: [],
    quotes: [],
    droppedQuotes: 0,
    contributors: [],
    updatedAt: null,
    provenance: null,
  };
}

/** The stored summary of an item the caller may read; null when it has none. */
export async function readSummary(
  ctx: RequestContext,
  objectType: unknown,
  objectId: unknown,
): Promise<SummaryView | null> {
  const caller = callerOf(ctx, 'notes:read');
  const input = validate(objectRef, { objectType, objectId });
  return ctx.tx(async (trx) => {
    await itemFor(trx, caller, TABLE[input.objectType], input.objectId, 'read');
    const row = (await trx('ai_summaries')
      .where({ workspace_id: caller.workspaceId, object_type: input.objectType, object_id: input.objectId })
      .first()) as
      | {
          id: string;
          kind: SummaryKind;
          framework: SummaryFramework;
          content: Pick<SummaryView, 'text' | 'sections' | 'quotes'>;
          dropped_quotes: number;
          contributors: string[];
          updated_at: Date;
        }
      | undefined;
    if (!row) return null;
    const p = await readProvenance(trx, caller.workspaceId, 'SUMMARY', row.id);
    return {
      id: row.id,
      objectType: input.objectType,
      objectId: input.objectId,
      kind: row.kind,
      framework: row.framework,
      status: 'OK',
      message: null,
      ...row.content,
      droppedQuotes: row.dropped_quotes,
      contributors: row.contributors,
      updatedAt: row.updated_at,
      provenance: p ? { ...p, label: provenanceLabel(p), local: p.model === 'local' } : null,
    };
  });
}
