import { AppError } from '@fieldbook/core';
import { itemFor } from '../access.ts';
import { draftSummary, NOT_ENOUGH_CONTENT, storeSummary, type SummaryDraft } from '../summaries/summarize.ts';
import type { StepEnv, StepMade } from './env.ts';
import type { StepResult, StepRunRow } from './store.ts';

/** The summary the step writes: the default framework, in paragraphs. */
const input = (noteId: string) => ({
  objectType: 'NOTE' as const,
  objectId: noteId,
  kind: 'paragraph' as const,
  framework: 'Summary' as const,
  customPrompt: null,
});

export async function summarizeStep(env: StepEnv, mode: 'On' | 'Suggest'): Promise<StepMade> {
  const draft = await draftSummary(env.member, env.ai, input(env.note.id));
  if ('status' in draft) return { status: 'SKIPPED', detail: 'Summary skipped', reason: NOT_ENOUGH_CONTENT };
  const model = draft.provenance.model;
  const dropped =
    draft.dropped > 0 ? ` (${draft.dropped} quote${draft.dropped === 1 ? '' : 's'} not found in the note removed)` : '';
  if (mode === 'Suggest') {
    const { input: _input, ...kept } = draft;
    return {
      status: 'PENDING',
      detail: `A summary is ready to accept${dropped}`,
      result: { summaryDraft: kept },
      model,
    };
  }
  const result = await stored(env, draft);
  await notifySummaryReady(env, result);
  return { status: 'DONE', detail: `Summary written${dropped}`, result, model };
}

/**
 * Tells the note's creator that the summary written in the background is ready (002 §3 kind
 * "summary ready"; preferences decide in-app and email, sent at once). Keyed by the summary's version, so a
 * retried job does not tell them twice.
 */
async function notifySummaryReady(
  env: Pick<StepEnv, 'member' | 'caller' | 'note' | 'research'>,
  result: StepResult,
): Promise<void> {
  if (!result.summaryId) return;
  await env.member.tx(async (trx) => {
    const note = (await trx('notes')
      .where({ id: env.note.id, workspace_id: env.caller.workspaceId })
      .first('created_by')) as { created_by: string | null } | undefined;
    if (!note?.created_by) return;
    const member = await trx('workspace_members')
      .where({ workspace_id: env.caller.workspaceId, user_id: note.created_by })
      .first('user_id');
    if (!member) return;
    const payload = {
      objectType: 'NOTE',
      objectId: env.note.id,
      objectTitle: env.note.title,
      projectId: env.note.project_id,
      summaryId: result.summaryId,
    };
    await env.research.sendNotifications(trx, [
      {
        userId: note.created_by,
        workspaceId: env.caller.workspaceId,
        type: 'summary_ready',
        payload,
        dedupeKey: `summary-ready:${result.summaryId}:${result.summaryUpdatedAt ?? ''}`,
      },
    ]);
  });
}

/** Stores the summary, keeping which version of it the step wrote (undo removes only that one). */
async function stored(env: Pick<StepEnv, 'member'>, draft: SummaryDraft): Promise<StepResult> {
  const view = await storeSummary(env.member, draft);
  return { summaryId: view.id ?? undefined, summaryUpdatedAt: view.updatedAt?.toISOString() };
}

export async function acceptSummary(env: Pick<StepEnv, 'member'>, run: StepRunRow): Promise<StepResult> {
  const kept = run.result.summaryDraft;
  if (!kept) throw new AppError('INVALID_OPERATION', 'This step has no summary to accept.');
  return stored(env, { ...kept, input: input(run.note_id) });
}

/** Removes the summary the step wrote, if it is still the note's summary (not written again since). */
export async function undoSummary(env: Pick<StepEnv, 'member' | 'caller'>, run: StepRunRow): Promise<void> {
  const id = run.result.summaryId;
  await env.member.tx(async (trx) => {
    await itemFor(trx, env.caller, 'notes', run.note_id, 'write');
    const row = (await trx('ai_summaries').where({ id, workspace_id: env.caller.workspaceId }).first('updated_at')) as
      | { updated_at: Date }
      | undefined;
    if (!row || row.updated_at.toISOString() !== run.result.summaryUpdatedAt) {
      throw new AppError(
        'INVALID_OPERATION',
        'The note’s summary was written again since; summarize again or keep it.',
      );
    }
    await trx('ai_summaries').where({ id }).delete();
    await trx('ai_provenance')
      .where({ workspace_id: env.caller.workspaceId, object_type: 'SUMMARY', object_id: id })
      .delete();
  });
}
