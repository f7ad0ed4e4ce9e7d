import type { RuleSet } from '../rules/rules.ts';
import type { RecurrenceSpec } from '../triggers/schedule.ts';
import type { StoredAction } from '../actions/types.ts';

export interface StoredTrigger {
  type: 'Event' | 'Schedule';
  eventKey: string;
  /** Values of the trigger's configure fields (`project.id`). */
  configure: Record<string, string>;
  rules: RuleSet | null;
  recurrence: RecurrenceSpec | null;
}

export interface AutomationRow {
  id: string;
  workspace_id: string;
  title: string;
  owner_id: string | null;
  project_id: string | null;
  trigger_type: 'Event' | 'Schedule';
  event_key: string;
  trigger: StoredTrigger;
  actions: StoredAction[];
  enabled: boolean;
  disabled_reason: string | null;
  next_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'dry_run';

export interface RunRow {
  id: string;
  workspace_id: string;
  automation_id: string;
  event_id: string;
  event_key: string;
  /** From automation_events, joined in. */
  payload: Record<string, unknown>;
  rule_result: boolean;
  status: RunStatus;
  error: string | null;
  dry_run: boolean;
  created_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
}

export interface RunActionRow {
  workspace_id: string;
  run_id: string;
  position: number;
  action_type: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'would_run';
  attempts: number;
  output: Record<string, unknown> | null;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

/** Actions in the order they run: by executionOrder, ties in the order they were given. */
export const ordered = (actions: readonly StoredAction[]): StoredAction[] =>
  actions
    .map((a, i) => ({ a, i }))
    .sort((x, y) => x.a.executionOrder - y.a.executionOrder || x.i - y.i)
    .map((x) => x.a);

/** Runs with their event's payload. */
export const RUN_COLUMNS = ['r.*', 'e.payload'] as const;
