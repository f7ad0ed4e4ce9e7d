import { AppError, type AiService, type ChatResult, type Provenance, type RequestContext } from '@fieldbook/core';
import type { ResearchServices } from '@fieldbook/research';
import type { Caller } from '../access.ts';
import type { StepOutcome } from './store.ts';

export interface StepNote {
  id: string;
  project_id: string;
  title: string;
  content_text: string;
}

/** What a step runs with: the member it acts as (the note's last editor), and the note as it is now. */
export interface StepEnv {
  member: RequestContext;
  caller: Caller;
  ai: AiService;
  research: ResearchServices;
  note: StepNote;
}

/** A step's outcome, with the provenance of the run itself when a model made it. */
export type StepMade = StepOutcome & { provenance?: Omit<Provenance, 'createdAt' | 'objectId' | 'objectType'> };

export const needsModel = (what: string): StepMade => ({
  status: 'SKIPPED',
  detail: `${what} skipped`,
  reason: `${what} needs an AI model and none is configured. Set OPENAI_BASE_URL (and OPENAI_API_KEY, OPENAI_CHAT_MODEL) to use it.`,
});

/** Errors that retrying cannot fix (a setting, a cap, too little content) end a step as skipped. */
const SETTLED = new Set(['FORBIDDEN', 'TOO_MANY_REQUESTS', 'INVALID_OPERATION', 'NOT_FOUND', 'BAD_USER_INPUT']);

export function outcomeOfError(step: string, err: unknown): StepMade {
  if (err instanceof AppError && SETTLED.has(err.errorCode))
    return { status: 'SKIPPED', detail: `${step} skipped`, reason: err.message };
  const reason = err instanceof AppError ? err.message : 'The step failed unexpectedly; it will be tried again.';
  return { status: 'FAILED', detail: `${step} failed`, reason };
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Provenance of a step's model call over the note and its highlights. */
export function stepProvenance(
  env: StepEnv,
  result: ChatResult,
  promptVersion: string,
  highlights: ReadonlyArray<{ id: string }>,
): NonNullable<StepMade['provenance']> {
  return {
    model: result.model,
    endpointHost: result.endpointHost,
    promptVersion,
    inputIds: [env.note.id, ...highlights.map((h) => h.id)],
    inputTypes: { note: 1, highlight: highlights.length },
    promptTokens: result.promptTokens,
    completionTokens: result.completionTokens,
    createdBy: env.caller.userId,
  };
}
