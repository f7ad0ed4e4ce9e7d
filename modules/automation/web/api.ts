/** The GraphQL operations of the automation screens (modules/automation/src/api/schema.ts). */

export interface EventField {
  path: string;
  label: string;
  type: 'string' | 'number' | 'boolean' | 'date' | 'array' | 'enum';
  options: string[] | null;
  operators: string[];
}

export interface AutomationEvent {
  key: string;
  title: string;
  events: string[];
  composite: boolean;
  context: string[];
  configure: string[];
  fields: EventField[];
}

export interface ActionTypeInfo {
  actionType: string;
  pluginId: string | null;
  title: string;
  description: string;
  unavailable: string | null;
  needsContext: string[];
}

export interface Condition {
  field: string;
  operator: string;
  value?: unknown;
}

export interface Rules {
  combinator: 'AND' | 'OR';
  conditions: Condition[];
}

export interface Recurrence {
  frequency: 'Daily' | 'Weekly' | 'Monthly' | 'Yearly';
  time: string;
  weekday?: number | null;
  dayOfMonth?: number | null;
  month?: number | null;
}

export interface ActionSpec {
  actionType: string;
  pluginId: string | null;
  parameters: Record<string, unknown>;
  executionOrder: number;
}

export interface RunAction {
  position: number;
  actionType: string;
  status: string;
  attempts: number;
  output: { summary?: string } | null;
  error: string | null;
  durationMs: number | null;
}

export interface Run {
  id: string;
  eventKey: string;
  payload: Record<string, unknown>;
  ruleResult: boolean;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'skipped';
  error: string | null;
  createdAt: string;
  durationMs: number | null;
  actions: RunAction[];
}

export interface Automation {
  id: string;
  title: string;
  enabled: boolean;
  disabledReason: string | null;
  projectId: string | null;
  nextRunAt: string | null;
  viewerCanEdit: boolean;
  trigger: {
    type: 'Event' | 'Schedule';
    eventKey: string;
    configure: Record<string, string>;
    rules: Rules | null;
    recurrence: Recurrence | null;
  };
  actions: ActionSpec[];
  lastRun: Pick<Run, 'status' | 'createdAt'> | null;
}

export interface DryRunResult {
  eventKey: string;
  payload: Record<string, unknown>;
  configureMatches: boolean;
  ruleResult: boolean;
  steps: Array<{
    position: number;
    actionType: string;
    title: string;
    parameters: Record<string, unknown>;
    wouldRun: boolean;
    problem: string | null;
  }>;
}

const AUTOMATION =
  'id title enabled disabledReason projectId nextRunAt viewerCanEdit trigger { type eventKey configure rules recurrence } actions { actionType pluginId parameters executionOrder } lastRun { status createdAt }';
const RUN =
  'id eventKey payload ruleResult status error createdAt durationMs actions { position actionType status attempts output error durationMs }';

export const Q = {
  list: `{ automations { ${AUTOMATION} } }`,
  one: `query($id: ID!) { automation(id: $id) { ${AUTOMATION} } }`,
  catalog:
    '{ automationEvents { key title events composite context configure fields { path label type options operators } } automationActions { actionType pluginId title description unavailable needsContext } }',
  choices:
    '{ projects { id title } allTagBoards { id title tags { id title } } members(first: 100) { nodes { user { id name email } } } }',
  create: `mutation($input: AutomationInput!) { createAutomation(input: $input) { ${AUTOMATION} } }`,
  update: `mutation($id: ID!, $input: AutomationInput!) { updateAutomation(id: $id, input: $input) { ${AUTOMATION} } }`,
  enable: `mutation($id: ID!, $enabled: Boolean!) { setAutomationEnabled(id: $id, enabled: $enabled) { ${AUTOMATION} } }`,
  remove: 'mutation($id: ID!) { deleteAutomation(id: $id) }',
  run: 'mutation($id: ID!) { runAutomation(id: $id) }',
  runs: `query($id: ID!, $status: AutomationRunStatus, $since: DateTime, $until: DateTime) { automationRuns(automationId: $id, status: $status, since: $since, until: $until, first: 100) { ${RUN} } }`,
  dryRun:
    'mutation($id: ID!, $runId: ID, $eventKey: String, $payload: JSON) { dryRunAutomation(id: $id, runId: $runId, eventKey: $eventKey, payload: $payload) { eventKey payload configureMatches ruleResult steps { position actionType title parameters wouldRun problem } } }',
} as const;

export interface Choices {
  projects: Array<{ id: string; title: string }>;
  allTagBoards: Array<{ id: string; title: string; tags: Array<{ id: string; title: string }> }>;
  members: { nodes: Array<{ user: { id: string; name: string | null; email: string } }> };
  /** Present when the channels module is loaded. */
  channels: Array<{ id: string; name: string }>;
  /** Present when the agents module is loaded. */
  agents: Array<{ id: string; name: string }>;
}

/** The first error's message, for people; a general sentence when there is none meant for them. */
export function errorText(err: unknown): string {
  const items =
    err && typeof err === 'object' && 'errors' in err
      ? (err as { errors: Array<{ message?: string; extensions?: { humanReadable?: boolean } }> }).errors
      : null;
  const first = items?.[0];
  if (first?.message && first.extensions?.humanReadable !== false) return first.message;
  return 'That did not work. Please try again in a moment.';
}

export const STATUS_COLOR: Record<string, string> = {
  succeeded: 'teal',
  failed: 'red',
  skipped: 'gray',
  queued: 'blue',
  running: 'blue',
};
