import { AppError, type RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { itemFor } from '../access.ts';
import { acceptSuggestion, rejectSuggestion, suggestHighlights } from '../highlights/suggestions.ts';
import { plural, type StepEnv, type StepMade } from './env.ts';
import type { StepRunRow } from './store.ts';

/** Makes the suggestions highlights; one decided meanwhile, or whose passage is gone, is passed over. */
export async function acceptAll(
  member: RequestContext,
  research: ResearchServices,
  ids: readonly string[],
): Promise<string[]> {
  const made: string[] = [];
  for (const id of ids) {
    try {
      const s = await acceptSuggestion(member, research, { id });
      if (s.highlightId) made.push(s.highlightId);
    } catch (err) {
      if (!(err instanceof AppError && (err.errorCode === 'INVALID_OPERATION' || err.errorCode === 'NOT_FOUND')))
        throw err;
    }
  }
  return made;
}

export async function rejectAll(member: RequestContext, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    try {
      await rejectSuggestion(member, { id });
    } catch (err) {
      if (!(err instanceof AppError && (err.errorCode === 'INVALID_OPERATION' || err.errorCode === 'NOT_FOUND')))
        throw err;
    }
  }
}

/** Suggested highlights (Suggest), or the same passages made highlights at once (On). */
export async function highlightsStep(env: StepEnv, mode: 'On' | 'Suggest'): Promise<StepMade> {
  const made = await suggestHighlights(env.member, env.ai, { noteId: env.note.id });
  const model = made.local || !env.ai.model ? 'local' : env.ai.model.chatModel;
  const ids = made.suggestions.map((s) => s.id);
  const dropped = made.dropped > 0 ? ` (${plural(made.dropped, 'passage')} not found in the note dropped)` : '';
  if (ids.length === 0) return { status: 'DONE', detail: `Nothing new to highlight${dropped}`, model };
  if (mode === 'Suggest')
    return {
      status: 'PENDING',
      detail: `${plural(ids.length, 'highlight')} suggested${dropped}`,
      result: { suggestionIds: ids },
      model,
    };
  const highlightIds = await acceptAll(env.member, env.research, ids);
  return {
    status: 'DONE',
    detail: `${plural(highlightIds.length, 'highlight')} made${dropped}`,
    result: { highlightIds },
    model,
  };
}

/** Removes the highlights the step made (those still there). */
export async function undoHighlights(env: Pick<StepEnv, 'member' | 'caller'>, run: StepRunRow): Promise<void> {
  const ids = run.result.highlightIds ?? [];
  await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', run.note_id, 'write');
    if (ids.length)
      await trx('highlights')
        .where({ workspace_id: env.caller.workspaceId, note_id: run.note_id })
        .whereIn('id', ids)
        .whereNull('deleted_at')
        .update({ deleted_at: trx.fn.now() });
  });
}
