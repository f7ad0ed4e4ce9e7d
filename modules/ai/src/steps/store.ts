import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { AiModeStep, Provenance } from '@fieldbook/core';
import type { SummaryDraft } from '../summaries/summarize.ts';
import type { PersonalDataMatch } from './redact.ts';

export type StepStatus = 'RUNNING' | 'DONE' | 'PENDING' | 'ACCEPTED' | 'REJECTED' | 'UNDONE' | 'SKIPPED' | 'FAILED';

export interface Tagging {
  highlightId: string;
  tagId: string;
  title: string;
}

export interface InsightDraft {
  title: string;
  text: string;
  quotes: Array<{ highlightId: string; text: string }>;
  provenance: Omit<Provenance, 'createdAt' | 'objectId' | 'objectType'>;
}

/** What a step made, or offers: whatever accepting or undoing it needs. */
export interface StepResult {
  summaryId?: string;
  /** When the step stored the summary: undo removes it only if it was not written again since. */
  summaryUpdatedAt?: string;
  summaryDraft?: Omit<SummaryDraft, 'input'>;
  suggestionIds?: string[];
  highlightIds?: string[];
  taggings?: Tagging[];
  findings?: Array<Omit<PersonalDataMatch, 'text'> & { text?: string }>;
  /** The note as it was before redaction, kept so the redaction can be undone. */
  before?: {
    content: unknown;
    contentText: string;
    redactedText: string;
    highlights: Array<{ id: string; text: string }>;
  };
  insightId?: string;
  insightDraft?: InsightDraft;
}

export interface StepRunRow {
  id: string;
  workspace_id: string;
  note_id: string;
  content_hash: string;
  step: AiModeStep;
  mode: 'On' | 'Suggest';
  status: StepStatus;
  detail: string;
  reason: string | null;
  result: StepResult;
  model: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  created_at: Date;
}

/** What a step ended with, as it is stored. */
export interface StepOutcome {
  status: Exclude<StepStatus, 'RUNNING' | 'ACCEPTED' | 'REJECTED' | 'UNDONE'>;
  detail: string;
  reason?: string | null;
  result?: StepResult;
  /** The model that did it; `local` when done without one; null when nothing was made. */
  model?: string | null;
}

/** The version of a note's content a run is for: what makes a run happen once per version. */
export const contentVersion = (text: string) => createHash('sha256').update(text).digest('hex');

/** A run left RUNNING this long had its worker die: another may take it over. */
const STALE_MINUTES = 15;

/**
 * Claims a step for a content version: answers the run's id when this worker should do it (first
 * time, or the last try failed or was abandoned), null when it is done or being done elsewhere.
 */
export async function claimStep(
  trx: Knex.Transaction,
  workspaceId: string,
  noteId: string,
  hash: string,
  step: AiModeStep,
  mode: 'On' | 'Suggest',
): Promise<string | null> {
  const { rows } = (await trx.raw(
    `insert into ai_step_runs (workspace_id, note_id, content_hash, step, mode, status)
     values (?, ?, ?, ?, ?, 'RUNNING')
     on conflict (workspace_id, note_id, content_hash, step) do update
       set status = 'RUNNING', mode = excluded.mode, detail = '', reason = null, result = '{}'::jsonb, created_at = now()
       where ai_step_runs.status = 'FAILED' or (ai_step_runs.status = 'RUNNING' and ai_step_runs.created_at < now() - interval '${STALE_MINUTES} minutes')
     returning id`,
    [workspaceId, noteId, hash, step, mode],
  )) as { rows: Array<{ id: string }> };
  return rows[0]?.id ?? null;
}

export async function finishStep(trx: Knex.Transaction, id: string, outcome: StepOutcome): Promise<void> {
  await trx('ai_step_runs')
    .where({ id })
    .update({
      status: outcome.status,
      detail: outcome.detail,
      reason: outcome.reason ?? null,
      result: JSON.stringify(outcome.result ?? {}),
      model: outcome.model ?? null,
    });
}

/** The latest run of each step on a note, in the order the steps run. */
export async function latestRuns(trx: Knex.Transaction, workspaceId: string, noteId: string): Promise<StepRunRow[]> {
  return (await trx('ai_step_runs')
    .distinctOn('step')
    .where({ workspace_id: workspaceId, note_id: noteId })
    .orderBy([{ column: 'step' }, { column: 'created_at', order: 'desc' }])) as StepRunRow[];
}
