import { z } from 'zod';
import {
  AppError,
  forbidden,
  notFound,
  validate,
  type AiModeStep,
  type AiService,
  type RequestContext,
} from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { callerOf, itemFor } from '../access.ts';
import type { StepEnv } from './env.ts';
import { acceptAll, rejectAll, undoHighlights } from './highlighting.ts';
import { createDraftInsight, undoInsight } from './insight.ts';
import { applyRedaction, undoRedaction } from './redaction.ts';
import { STEP_ORDER } from './run.ts';
import { latestRuns, type StepResult, type StepRunRow, type StepStatus } from './store.ts';
import { acceptSummary, undoSummary } from './summary.ts';
import { applyTaggings, undoTaggings } from './tagging.ts';
import { describeFindings } from './redact.ts';

export const VIEWERS_CANNOT_DECIDE = 'Viewers cannot accept, reject or undo what AI did';

export interface StepRunView {
  id: string;
  step: AiModeStep;
  mode: 'On' | 'Suggest';
  status: StepStatus;
  detail: string;
  reason: string | null;
  model: string | null;
  /** "Written by AI (model)", "Done locally, without an AI model", or null when nothing was made. */
  label: string | null;
  createdAt: Date;
  decidedAt: Date | null;
  canUndo: boolean;
  canDecide: boolean;
  /** What a Suggest step offers, for the person deciding: passages, tags or findings, one a line. */
  preview: string[];
}

const UNDOABLE: Record<AiModeStep, (r: StepResult) => boolean> = {
  summarize: (r) => !!r.summaryId,
  highlights: (r) => (r.highlightIds?.length ?? 0) > 0,
  tags: (r) => (r.taggings?.length ?? 0) > 0,
  redact: (r) => !!r.before,
  insights: (r) => !!r.insightId,
};

function preview(r: StepRunRow): string[] {
  const x = r.result;
  if (r.status !== 'PENDING') return [];
  if (x.taggings) return x.taggings.map((t) => `${t.title}`);
  if (x.findings) return x.findings.map((f) => `${describeFindings([f])}: ${f.text ?? ''}`.trim());
  if (x.summaryDraft)
    return [x.summaryDraft.content.text, ...x.summaryDraft.content.quotes.map((q) => `“${q.text}”`)].filter(Boolean);
  if (x.insightDraft)
    return [x.insightDraft.title, x.insightDraft.text, ...x.insightDraft.quotes.map((q) => `“${q.text}”`)];
  return [];
}

export function stepView(r: StepRunRow): StepRunView {
  const label = !r.model
    ? null
    : r.model === 'local'
      ? 'Done locally, without an AI model'
      : `Written by AI (${r.model})`;
  return {
    id: r.id,
    step: r.step,
    mode: r.mode,
    status: r.status,
    detail: r.detail || (r.status === 'RUNNING' ? 'Running…' : ''),
    reason: r.reason,
    model: r.model,
    label,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    canUndo: (r.status === 'DONE' || r.status === 'ACCEPTED') && UNDOABLE[r.step](r.result),
    canDecide: r.status === 'PENDING',
    preview: preview(r),
  };
}

const noteInput = z.object({ noteId: z.string().uuid('noteId must be a valid id.') });
const idInput = z.object({ id: z.string().uuid('id must be a valid id.') });

/** What the AI steps last did with a note the caller can read, one row a step, in the order they run. */
export async function noteStepRuns(ctx: RequestContext, args: unknown): Promise<StepRunView[]> {
  const caller = callerOf(ctx, 'notes:read');
  const { noteId } = validate(noteInput, args);
  return ctx.tx(async (trx) => {
    await itemFor(trx, caller, 'notes', noteId, 'read');
    const rows = await latestRuns(trx, caller.workspaceId, noteId);
    return rows.sort((a, b) => STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step)).map(stepView);
  });
}

/** The run, for an editor of its note, in the status the decision needs. */
async function runFor(
  ctx: RequestContext,
  id: string,
  wanted: readonly StepStatus[],
): Promise<{ env: Pick<StepEnv, 'member' | 'caller'>; run: StepRunRow }> {
  const caller = callerOf(ctx, 'notes:read');
  if (caller.membership.effectiveRole === 'VIEWER') throw forbidden(VIEWERS_CANNOT_DECIDE);
  const run = await ctx.tx(async (trx) => {
    const row = (await trx('ai_step_runs').where({ id, workspace_id: caller.workspaceId }).first()) as
      | StepRunRow
      | undefined;
    if (!row) throw notFound('That AI step');
    await itemFor(trx, caller, 'notes', row.note_id, 'write');
    return row;
  });
  if (!wanted.includes(run.status)) {
    throw new AppError(
      'INVALID_OPERATION',
      run.status === 'PENDING'
        ? 'This AI step is waiting for a decision: accept or reject it.'
        : `This AI step cannot be changed now (it is ${run.status.toLowerCase()}).`,
    );
  }
  return { env: { member: ctx, caller }, run };
}

/** Marks the decision, unless someone decided meanwhile. */
async function decide(
  ctx: RequestContext,
  run: StepRunRow,
  from: StepStatus,
  to: StepStatus,
  result?: StepResult,
): Promise<StepRunView> {
  const caller = callerOf(ctx, 'notes:read');
  return ctx.tx(async (trx) => {
    const [row] = (await trx('ai_step_runs')
      .where({ id: run.id, status: from })
      .update({
        status: to,
        decided_by: caller.userId,
        decided_at: trx.fn.now(),
        ...(result ? { result: JSON.stringify(result) } : {}),
      })
      .returning('*')) as StepRunRow[];
    if (!row) throw new AppError('INVALID_OPERATION', 'Someone else decided on this AI step meanwhile.');
    return stepView(row);
  });
}

/** Does what a Suggest step offered, as the person accepting it. */
export async function acceptStep(
  ctx: RequestContext,
  deps: { ai: AiService; research: ResearchServices },
  args: unknown,
): Promise<StepRunView> {
  const { id } = validate(idInput, args);
  const { env, run } = await runFor(ctx, id, ['PENDING']);
  const r = run.result;
  let result: StepResult = r;
  switch (run.step) {
    case 'summarize':
      result = { ...r, ...(await acceptSummary(env, run)) };
      break;
    case 'highlights':
      result = { ...r, highlightIds: await acceptAll(ctx, deps.research, r.suggestionIds ?? []) };
      break;
    case 'tags':
      result = { ...r, taggings: await applyTaggings(env, run.note_id, r.taggings ?? []) };
      break;
    case 'redact': {
      const before = await applyRedaction(env, run.note_id);
      result = {
        findings: (r.findings ?? []).map(({ kind, start, end }) => ({ kind, start, end })),
        ...(before ? { before } : {}),
      };
      break;
    }
    case 'insights': {
      if (!r.insightDraft) throw new AppError('INVALID_OPERATION', 'This step has no insight to accept.');
      const note = await ctx.tx((trx) => itemFor(trx, env.caller, 'notes', run.note_id, 'write'));
      result = {
        insightId: await createDraftInsight({ ...env, research: deps.research }, note.project_id, r.insightDraft),
      };
      break;
    }
  }
  return decide(ctx, run, 'PENDING', 'ACCEPTED', result);
}

export async function rejectStep(ctx: RequestContext, args: unknown): Promise<StepRunView> {
  const { id } = validate(idInput, args);
  const { run } = await runFor(ctx, id, ['PENDING']);
  if (run.step === 'highlights') await rejectAll(ctx, run.result.suggestionIds ?? []);
  // Nothing offered is kept once it is rejected: a redaction's findings are personal data.
  return decide(ctx, run, 'PENDING', 'REJECTED', {});
}

/** Takes back what a step did (or what was accepted): highlights, tags, summary, redaction or insight. */
export async function undoStep(ctx: RequestContext, args: unknown): Promise<StepRunView> {
  const { id } = validate(idInput, args);
  const { env, run } = await runFor(ctx, id, ['DONE', 'ACCEPTED']);
  if (!UNDOABLE[run.step](run.result)) throw new AppError('INVALID_OPERATION', 'This AI step made nothing to undo.');
  const undo = {
    summarize: undoSummary,
    highlights: undoHighlights,
    tags: undoTaggings,
    redact: undoRedaction,
    insights: undoInsight,
  }[run.step];
  await undo(env, run);
  // After undoing a redaction the original text is kept no longer than the note itself keeps it.
  return decide(
    ctx,
    run,
    run.status,
    'UNDONE',
    run.step === 'redact' ? { findings: run.result.findings ?? [] } : run.result,
  );
}
