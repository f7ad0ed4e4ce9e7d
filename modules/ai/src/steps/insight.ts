import { AppError, isVerbatimQuote, recordProvenance } from '@fieldbook/core';
import { itemFor } from '../access.ts';
import { JsonLines, str } from '../jsonl.ts';
import { needsModel, stepProvenance, type StepEnv, type StepMade } from './env.ts';
import { INSIGHT_PROMPT_VERSION, insightMessages } from './prompts.ts';
import type { InsightDraft, StepRunRow } from './store.ts';

/** Fewer highlights than this is no ground for an insight. */
export const MIN_INSIGHT_HIGHLIGHTS = 2;
const TITLE_MAX = 200;

/** A draft insight from the note's highlights; every quote in it is found word for word in its highlight. */
export async function insightsStep(env: StepEnv, mode: 'On' | 'Suggest'): Promise<StepMade> {
  if (!env.ai.model) return needsModel('A draft insight');
  env.member.authorize('insights:create');
  const highlights = await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', env.note.id, 'write');
    return (await trx('highlights')
      .where({ workspace_id: env.caller.workspaceId, note_id: env.note.id })
      .whereNull('deleted_at')
      .orderBy('start_offset')
      .select('id', 'text')) as Array<{ id: string; text: string }>;
  });
  if (highlights.length < MIN_INSIGHT_HIGHLIGHTS) {
    return {
      status: 'SKIPPED',
      detail: 'Draft insight skipped',
      reason: `A draft insight needs at least ${MIN_INSIGHT_HIGHLIGHTS} highlights; this note has ${highlights.length}.`,
    };
  }
  const result = await env.ai.chat(
    { workspaceId: env.caller.workspaceId, userId: env.caller.userId, feature: 'automation' },
    { messages: insightMessages(env.note.title, highlights), temperature: 0.2 },
  );
  const texts = new Map(highlights.map((h) => [h.id, h.text]));
  let title: string | null = null;
  let text: string | null = null;
  let dropped = 0;
  const quotes: InsightDraft['quotes'] = [];
  const lines = new JsonLines();
  for (const o of [...lines.push(result.text), ...lines.end()]) {
    if (o.type === 'insight' && !title) {
      title = str(o.title)?.trim().slice(0, TITLE_MAX) ?? null;
      text = str(o.text)?.trim() ?? null;
    } else if (o.type === 'quote') {
      const highlightId = str(o.highlightId);
      const quote = str(o.text);
      if (highlightId && quote && texts.has(highlightId) && isVerbatimQuote(quote, texts.get(highlightId)!))
        quotes.push({ highlightId, text: quote });
      else dropped += 1;
    }
  }
  const provenance = stepProvenance(env, result, INSIGHT_PROMPT_VERSION, highlights);
  if (!title || !text)
    return {
      status: 'SKIPPED',
      detail: 'Draft insight skipped',
      reason: 'The model found no insight these highlights support yet.',
      model: result.model,
      provenance,
    };
  const draft: InsightDraft = { title, text, quotes, provenance };
  const droppedNote =
    dropped > 0 ? ` (${dropped} quote${dropped === 1 ? '' : 's'} not found in the highlights removed)` : '';
  if (mode === 'Suggest')
    return {
      status: 'PENDING',
      detail: `Draft insight “${title}” ready to accept${droppedNote}`,
      result: { insightDraft: draft },
      model: result.model,
      provenance,
    };
  const insightId = await createDraftInsight(env, env.note.project_id, draft);
  return {
    status: 'DONE',
    detail: `Draft insight “${title}” created${droppedNote}`,
    result: { insightId },
    model: result.model,
    provenance,
  };
}

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** Creates the insight unpublished (a draft for the team), recording that AI wrote it and from what. */
export async function createDraftInsight(
  env: Pick<StepEnv, 'member' | 'caller' | 'research'>,
  projectId: string,
  draft: InsightDraft,
): Promise<string> {
  const content = {
    type: 'doc',
    content: [
      paragraph(draft.text),
      ...draft.quotes.map((q) => ({ type: 'blockquote', content: [paragraph(q.text)] })),
    ],
  };
  const made = await env.research.createInsight(env.member, { projectId, title: draft.title, content });
  await env.member.tx((trx) =>
    recordProvenance(trx, env.caller.workspaceId, { ...draft.provenance, objectType: 'INSIGHT', objectId: made.id }),
  );
  return made.id;
}

/** Deletes the draft insight, unless someone has published it since. */
export async function undoInsight(env: Pick<StepEnv, 'member' | 'caller'>, run: StepRunRow): Promise<void> {
  const id = run.result.insightId;
  if (!id) throw new AppError('INVALID_OPERATION', 'No insight was created, so there is nothing to undo.');
  await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'insights', id, 'write');
    const n = await trx('insights')
      .where({ id, workspace_id: env.caller.workspaceId })
      .whereNull('published_at')
      .whereNull('deleted_at')
      .update({ deleted_at: trx.fn.now() });
    if (n === 0)
      throw new AppError('INVALID_OPERATION', 'The insight was published since; unpublish it first to remove it.');
  });
}
