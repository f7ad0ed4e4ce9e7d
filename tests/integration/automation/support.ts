import { z } from 'zod';
import { definePlugin } from '../../../extensions-sdk/src/server/index.ts';
import { ok, type Gql } from '../research/content-support.ts';

/**
 * A plugin with one automation action whose behaviour its parameters choose: succeed, fail, or
 * hang (never answer), so tests see retries and timeouts through the run history alone.
 */
export const probePlugin = definePlugin({
  id: 'probe',
  name: 'Probe',
  version: '1.0.0',
  sdk: '^1',
  permissions: [],
  server: {
    actions: [
      {
        key: 'probe',
        title: 'Probe',
        parameters: z.object({ mode: z.enum(['ok', 'fail', 'hang']), text: z.string().max(40) }),
        async execute(_ctx, params: { mode: 'ok' | 'fail' | 'hang'; text: string }) {
          if (params.mode === 'fail') throw new Error('The probe was told to fail.');
          if (params.mode === 'hang') await new Promise(() => undefined);
          return { summary: `probed: ${params.text}` };
        },
      },
    ],
  },
});

export const AUTOMATION =
  'id title enabled disabledReason projectId trigger { type eventKey configure rules recurrence } actions { actionType pluginId parameters executionOrder } lastRun { status }';
export const CREATE = `mutation($input: AutomationInput!) { createAutomation(input: $input) { ${AUTOMATION} } }`;
export const RUNS = `query($id: ID!, $status: AutomationRunStatus) { automationRuns(automationId: $id, status: $status) { id status ruleResult error eventKey payload durationMs actions { position actionType status attempts output error } } }`;

export interface Run {
  id: string;
  status: string;
  ruleResult: boolean;
  error: string | null;
  eventKey: string;
  payload: Record<string, unknown>;
  actions: Array<{
    position: number;
    actionType: string;
    status: string;
    attempts: number;
    output: Record<string, unknown> | null;
    error: string | null;
  }>;
}

export async function runsOf(gql: Gql, id: string, status?: string): Promise<Run[]> {
  return ok(await gql<{ automationRuns: Run[] }>(RUNS, { id, status })).automationRuns;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Waits for a run of the automation that has finished, and answers it. */
export const finishedRun = (gql: Gql, id: string, count = 1) =>
  waitFor(`run of ${id}`, async () => {
    const runs = await runsOf(gql, id);
    const done = runs.filter((r) => ['succeeded', 'failed', 'skipped'].includes(r.status));
    return done.length >= count ? done : undefined;
  });

export const noteTrigger = (projectId: string, rules?: unknown) => ({
  type: 'Event',
  eventKey: 'note:created',
  configure: { 'project.id': projectId },
  ...(rules ? { rules } : {}),
});
