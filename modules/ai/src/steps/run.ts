import type { Knex } from 'knex';
import {
  recordProvenance,
  withTenant,
  type AiModeStep,
  type AiService,
  type DomainEvent,
  type JobDefinition,
  type JobQueue,
  type ModuleContext,
  type RequestContext,
} from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import { callerOf } from '../access.ts';
import { outcomeOfError, type StepEnv, type StepMade, type StepNote } from './env.ts';
import { highlightsStep } from './highlighting.ts';
import { insightsStep } from './insight.ts';
import { redactStep } from './redaction.ts';
import { claimStep, contentVersion, finishStep } from './store.ts';
import { summarizeStep } from './summary.ts';
import { tagsStep } from './tagging.ts';

export const STEPS_QUEUE = 'ai.note-steps';

export interface StepsJobData {
  workspaceId: string;
  noteId: string;
}

export interface StepsDeps {
  db: Knex;
  ai: AiService;
  research: ResearchServices;
  jobs: JobQueue;
  logger: ModuleContext['logger'];
  memberContext(workspaceId: string, userId: string): Promise<RequestContext | null>;
  settings: { enabled: boolean; delaySeconds: number };
}

/**
 * The order steps run in: personal data goes first, so nothing after it (a summary, a prompt to
 * the model) sees what was redacted; highlights before the tags and the insight made from them.
 */
export const STEP_ORDER: readonly AiModeStep[] = ['redact', 'highlights', 'tags', 'summarize', 'insights'];

const RUNNERS: Record<AiModeStep, (env: StepEnv, mode: 'On' | 'Suggest') => Promise<StepMade>> = {
  redact: redactStep,
  highlights: highlightsStep,
  tags: tagsStep,
  summarize: summarizeStep,
  insights: insightsStep,
};

export const STEP_LABEL: Record<AiModeStep, string> = {
  summarize: 'Summary',
  highlights: 'Highlights',
  tags: 'Tags',
  redact: 'Redaction',
  insights: 'Draft insight',
};

/**
 * Notes' content changed: each one's steps run once its edits have been quiet for the delay. The
 * jobs of a batch of events are queued in one statement.
 */
export async function scheduleSteps(deps: StepsDeps, events: ReadonlyArray<DomainEvent>): Promise<void> {
  if (!deps.settings.enabled) return;
  const jobs = events.flatMap((event): StepsJobData[] => {
    const noteId = (event.payload as { note?: { id?: unknown } }).note?.id;
    return event.workspaceId && typeof noteId === 'string' ? [{ workspaceId: event.workspaceId, noteId }] : [];
  });
  await deps.jobs.insert<StepsJobData>(STEPS_QUEUE, jobs, { startAfterSeconds: deps.settings.delaySeconds });
}

interface NoteRow extends StepNote {
  updated_by: string | null;
  created_by: string | null;
  quiet: number;
}

/**
 * Runs each step the workspace has On or Suggest, as the note's last editor, once per version of
 * its content: a step already done for this version is passed over, so a retried or repeated job
 * does nothing twice. A step that failed is retried with the job; one that cannot run (a setting,
 * no model, too little content) is recorded as skipped with the reason, shown on the note.
 */
export async function runNoteSteps(deps: StepsDeps, data: StepsJobData): Promise<void> {
  const { workspaceId, noteId } = data;
  // One run per note at a time (two edits' jobs, a retry): the second waits, then reads the note
  // as the first left it and finds its steps done. The lock's transaction only holds the lock.
  await withTenant(deps.db, { workspaceId }, async (lock) => {
    await lock.raw('select pg_advisory_xact_lock(hashtext(?))', [`ai-steps:${noteId}`]);
    await runLocked(deps, data);
  });
}

async function runLocked(deps: StepsDeps, { workspaceId, noteId }: StepsJobData): Promise<void> {
  const found = (await withTenant(deps.db, { workspaceId }, (trx) =>
    trx('notes')
      .where({ id: noteId, workspace_id: workspaceId })
      .whereNull('deleted_at')
      .first(
        'id',
        'project_id',
        'title',
        'content_text',
        'updated_by',
        'created_by',
        trx.raw('extract(epoch from now() - updated_at)::float8 as quiet'),
      ),
  )) as NoteRow | undefined;
  if (!found || !found.content_text.trim()) return;
  // Edited again within the delay: the job of that later edit reads it once it is quiet.
  if (found.quiet < deps.settings.delaySeconds - 1) return;
  const settings = await deps.ai.settings(workspaceId);
  if (!settings.enabled || STEP_ORDER.every((s) => settings.modes[s] === 'Off')) return;
  const userId = found.updated_by ?? found.created_by;
  const member = userId ? await deps.memberContext(workspaceId, userId) : null;
  if (!member) return;
  const caller = callerOf(member, 'notes:read');
  let note: StepNote = {
    id: found.id,
    project_id: found.project_id,
    title: found.title,
    content_text: found.content_text,
  };
  let failed = 0;
  for (const step of STEP_ORDER) {
    const mode = settings.modes[step];
    if (mode === 'Off') continue;
    const hash = contentVersion(note.content_text);
    const runId = await member.tx((trx) => claimStep(trx, workspaceId, noteId, hash, step, mode));
    if (!runId) continue;
    let made: StepMade;
    try {
      made = await RUNNERS[step]({ member, caller, ai: deps.ai, research: deps.research, note }, mode);
    } catch (err) {
      made = outcomeOfError(STEP_LABEL[step], err);
      if (made.status === 'FAILED') {
        failed += 1;
        deps.logger.warn({ err, noteId, step }, 'AI step failed; the job will try it again');
      }
    }
    await member.tx(async (trx) => {
      await finishStep(trx, runId, made);
      if (made.provenance)
        await recordProvenance(trx, workspaceId, { ...made.provenance, objectType: 'AI_STEP', objectId: runId });
    });
    // The steps after redaction read the redacted text, and are recorded against that version.
    if (step === 'redact' && made.result?.before) note = { ...note, content_text: made.result.before.redactedText };
  }
  if (failed > 0) throw new Error(`${failed} AI step${failed === 1 ? '' : 's'} failed on a note; retrying`);
}

export function stepsJobs(deps: StepsDeps): JobDefinition[] {
  return [
    {
      queue: STEPS_QUEUE,
      // A model that is down is tried again later, with backoff; the steps already done are kept.
      settings: { retryLimit: 3, retryDelaySeconds: 30, expireInSeconds: 600 },
      concurrency: 2,
      handler: (job) => runNoteSteps(deps, job.data as StepsJobData),
    },
  ];
}
