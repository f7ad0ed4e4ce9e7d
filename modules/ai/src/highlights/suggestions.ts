import type { Knex } from 'knex';
import { z } from 'zod';
import {
  AppError,
  forbidden,
  HIGHLIGHTS_OFF,
  keySentences,
  notFound,
  readProvenance,
  recordProvenance,
  validate,
  words,
  type AiService,
  type Provenance,
  type RequestContext,
} from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { callerOf, itemFor, type Caller } from '../access.ts';
import { JsonLines, str } from '../jsonl.ts';
import { locatePassage } from './locate.ts';
import { SUGGESTION_PROMPT_VERSION, suggestionMessages } from './prompt.ts';

/** At most this many suggestions per note at a time: a reader can weigh each of them. */
export const MAX_SUGGESTIONS = 8;
/** Fewer words than this leave nothing worth suggesting. */
const MIN_WORDS = 15;
export const NOT_ENOUGH_TO_SUGGEST = 'Not enough content to suggest highlights';
export const VIEWERS_CANNOT_SUGGEST = 'Viewers cannot suggest or accept highlights';

type Status = 'PENDING' | 'ACCEPTED' | 'REJECTED';

interface SuggestionRow {
  id: string;
  workspace_id: string;
  note_id: string;
  start_offset: number;
  end_offset: number;
  text: string;
  reason: string | null;
  status: Status;
  highlight_id: string | null;
  model: string;
  created_at: Date;
}

export interface SuggestionView {
  id: string;
  noteId: string;
  startOffset: number;
  endOffset: number;
  text: string;
  reason: string | null;
  status: Status;
  highlightId: string | null;
  /** "Suggested by AI (model)" or, with no model, that the note's key sentences were picked. */
  label: string;
  createdAt: Date;
}

export interface SuggestResult {
  suggestions: SuggestionView[];
  /** Passages the model gave that are not in the note word for word: dropped, never shown. */
  dropped: number;
  local: boolean;
}

const view = (r: SuggestionRow): SuggestionView => ({
  id: r.id,
  noteId: r.note_id,
  startOffset: r.start_offset,
  endOffset: r.end_offset,
  text: r.text,
  reason: r.reason,
  status: r.status,
  highlightId: r.highlight_id,
  label: r.model === 'local' ? 'Key sentence (no AI model configured)' : `Suggested by AI (${r.model})`,
  createdAt: r.created_at,
});

const noteInput = z.object({ noteId: z.string().uuid('noteId must be a valid id.') });
const idInput = z.object({ id: z.string().uuid('id must be a valid id.') });

/** Editors only: suggesting and deciding both change what the note's highlights will be. */
function editor(ctx: RequestContext): Caller {
  const caller = callerOf(ctx, 'notes:read');
  if (caller.membership.effectiveRole === 'VIEWER') throw forbidden(VIEWERS_CANNOT_SUGGEST);
  return caller;
}

/** The pending suggestions of a note the caller can read, in the note's order. */
export async function pendingSuggestions(ctx: RequestContext, args: unknown): Promise<SuggestionView[]> {
  const caller = callerOf(ctx, 'notes:read');
  const { noteId } = validate(noteInput, args);
  return ctx.tx(async (trx) => {
    await itemFor(trx, caller, 'notes', noteId, 'read');
    const rows = (await trx('highlight_suggestions')
      .where({ workspace_id: caller.workspaceId, note_id: noteId, status: 'PENDING' })
      .orderBy('start_offset')) as SuggestionRow[];
    return rows.map(view);
  });
}

interface Passage {
  start: number;
  end: number;
  reason: string | null;
}

/**
 * Suggests passages of a note to highlight: chosen by the configured model and each found word
 * for word in the note (or dropped and counted), or with no model the note's key sentences. They
 * replace the note's pending suggestions; a passage already highlighted, or rejected before, is
 * not suggested again.
 */
export async function suggestHighlights(ctx: RequestContext, ai: AiService, args: unknown): Promise<SuggestResult> {
  const caller = editor(ctx);
  const { noteId } = validate(noteInput, args);
  const note = await ctx.tx((trx) => itemFor(trx, caller, 'notes', noteId, 'write'));
  const settings = await ai.settings(caller.workspaceId);
  if (!settings.enabled || settings.modes.highlights === 'Off') throw new AppError('FORBIDDEN', HIGHLIGHTS_OFF);
  if (words(note.content_text).length < MIN_WORDS)
    throw new AppError('INVALID_OPERATION', NOT_ENOUGH_TO_SUGGEST, { field: 'noteId' });

  const passages: Passage[] = [];
  let dropped = 0;
  let provenance: Omit<Provenance, 'createdAt' | 'objectId'>;
  const base = {
    objectType: 'HIGHLIGHT_SUGGESTION',
    promptVersion: SUGGESTION_PROMPT_VERSION,
    inputIds: [note.id],
    inputTypes: { note: 1 },
    createdBy: caller.userId,
  };
  if (!ai.model) {
    for (const sentence of keySentences(note.content_text, 5)) {
      const at = locatePassage(sentence, note.content_text);
      if (at) passages.push({ ...at, reason: null });
    }
    provenance = { ...base, model: 'local', endpointHost: null, promptTokens: 0, completionTokens: 0 };
  } else {
    const lines = new JsonLines();
    const take = (objects: Record<string, unknown>[]) => {
      for (const o of objects) {
        const text = o.type === 'highlight' ? str(o.text) : null;
        if (!text) continue;
        const at = locatePassage(text, note.content_text);
        if (at) passages.push({ ...at, reason: str(o.reason)?.slice(0, 200) ?? null });
        else dropped += 1;
      }
    };
    const result = await ai.chat(
      { workspaceId: caller.workspaceId, userId: caller.userId, feature: 'highlights' },
      { messages: suggestionMessages(note.title, note.content_text, MAX_SUGGESTIONS), temperature: 0.2 },
      { onDelta: (text) => take(lines.push(text)) },
    );
    take(lines.end());
    provenance = {
      ...base,
      model: result.model,
      endpointHost: result.endpointHost,
      promptTokens: result.promptTokens,
      completionTokens: result.completionTokens,
    };
  }

  const suggestions = await ctx.tx(async (trx) => {
    // One suggestion run per note at a time, so two clicks cannot interleave their replacements.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`highlight-suggestions:${noteId}`]);
    const taken = [
      ...((await trx('highlights')
        .where({ workspace_id: caller.workspaceId, note_id: noteId })
        .whereNull('deleted_at')
        .select('start_offset', 'end_offset')) as Array<{ start_offset: number; end_offset: number }>),
      ...((await trx('highlight_suggestions')
        .where({ workspace_id: caller.workspaceId, note_id: noteId, status: 'REJECTED' })
        .select('start_offset', 'end_offset')) as Array<{ start_offset: number; end_offset: number }>),
    ];
    const kept: Passage[] = [];
    for (const p of passages.sort((a, b) => a.start - b.start)) {
      const overlaps = (s: number, e: number) => p.start < e && s < p.end;
      if (taken.some((t) => overlaps(t.start_offset, t.end_offset)) || kept.some((k) => overlaps(k.start, k.end)))
        continue;
      kept.push(p);
      if (kept.length === MAX_SUGGESTIONS) break;
    }
    await trx('highlight_suggestions')
      .where({ workspace_id: caller.workspaceId, note_id: noteId, status: 'PENDING' })
      .delete();
    if (kept.length === 0) return [];
    const rows = (await trx('highlight_suggestions')
      .insert(
        kept.map((p) => ({
          workspace_id: caller.workspaceId,
          note_id: noteId,
          start_offset: p.start,
          end_offset: p.end,
          text: note.content_text.slice(p.start, p.end),
          reason: p.reason,
          model: provenance.model,
        })),
      )
      .returning('*')) as SuggestionRow[];
    for (const r of rows) await recordProvenance(trx, caller.workspaceId, { ...provenance, objectId: r.id });
    return rows.sort((a, b) => a.start_offset - b.start_offset).map(view);
  });
  return { suggestions, dropped, local: !ai.model };
}

async function pendingFor(trx: Knex.Transaction, caller: Caller, id: string): Promise<SuggestionRow> {
  const row = (await trx('highlight_suggestions')
    .where({ id, workspace_id: caller.workspaceId })
    .forUpdate()
    .first()) as SuggestionRow | undefined;
  if (!row) throw notFound('That suggestion');
  // The note decides who may see and decide its suggestions.
  await itemFor(trx, caller, 'notes', row.note_id, 'write');
  if (row.status !== 'PENDING')
    throw new AppError(
      'INVALID_OPERATION',
      `This suggestion was already ${row.status === 'ACCEPTED' ? 'accepted' : 'rejected'}.`,
    );
  return row;
}

/**
 * Makes a suggestion a highlight of its note, recording that AI chose it: the highlight and the
 * suggestion's new status commit together. If the note was edited since, the passage is found
 * again; a passage no longer in the note cannot be accepted.
 */
export async function acceptSuggestion(
  ctx: RequestContext,
  research: ResearchServices,
  args: unknown,
): Promise<SuggestionView> {
  const caller = editor(ctx);
  const { id } = validate(idInput, args);
  const { row, text } = await ctx.tx(async (trx) => {
    const found = await pendingFor(trx, caller, id);
    const note = (await trx('notes').where({ id: found.note_id }).first('content_text')) as { content_text: string };
    return { row: found, text: note.content_text };
  });
  const at =
    text.slice(row.start_offset, row.end_offset) === row.text
      ? { start: row.start_offset, end: row.end_offset }
      : locatePassage(row.text, text);
  if (!at)
    throw new AppError(
      'INVALID_OPERATION',
      'The note was edited and this passage is no longer in it. Reject the suggestion, or suggest highlights again.',
    );
  let accepted: SuggestionRow | null = null;
  await research.createHighlight(
    ctx,
    { noteId: row.note_id, startOffset: at.start, endOffset: at.end },
    async (trx, highlightId) => {
      const [updated] = (await trx('highlight_suggestions')
        .where({ id, status: 'PENDING' })
        .update({
          status: 'ACCEPTED',
          highlight_id: highlightId,
          start_offset: at.start,
          end_offset: at.end,
          decided_by: caller.userId,
          decided_at: trx.fn.now(),
        })
        .returning('*')) as SuggestionRow[];
      // Decided by someone else meanwhile: the highlight is not made twice.
      if (!updated) throw new AppError('INVALID_OPERATION', 'This suggestion was already decided.');
      accepted = updated;
      const made = await readProvenance(trx, caller.workspaceId, 'HIGHLIGHT_SUGGESTION', id);
      if (made)
        await recordProvenance(trx, caller.workspaceId, {
          ...made,
          objectType: 'HIGHLIGHT',
          objectId: highlightId,
          createdBy: caller.userId,
        });
    },
  );
  return view(accepted!);
}

export async function rejectSuggestion(ctx: RequestContext, args: unknown): Promise<SuggestionView> {
  const caller = editor(ctx);
  const { id } = validate(idInput, args);
  return ctx.tx(async (trx) => {
    await pendingFor(trx, caller, id);
    const [row] = (await trx('highlight_suggestions')
      .where({ id })
      .update({ status: 'REJECTED', decided_by: caller.userId, decided_at: trx.fn.now() })
      .returning('*')) as SuggestionRow[];
    return view(row!);
  });
}
