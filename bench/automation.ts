/**
 * Automation at size: one workspace with 1,000 automations on `note:created`, each with a rule.
 * Measures (1) one event's evaluation against all of them, in-process (what the subscriber does
 * per event: load the automations, evaluate the rules, record a run per automation), and (2)
 * events per second from publish (the transactional outbox) through the queue to every rule
 * evaluated and its run recorded. Rules never hold, so no action runs: the figures are the
 * trigger side's own. Run alone with `npx tsx --no-node-snapshot bench/automation.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { Fieldbook } from '../core/src/server.ts';
import { createEventBus } from '../core/src/jobs/events.ts';
import type { AutomationServices } from '../modules/automation/src/index.ts';
import { graphql, percentile, round, runAlone } from './support.ts';

const AUTOMATIONS = Number(process.env.BENCH_AUTOMATIONS ?? 1000);
const DISPATCHES = Number(process.env.BENCH_AUTOMATION_DISPATCHES ?? 20);
const EVENTS = Number(process.env.BENCH_AUTOMATION_EVENTS ?? 50);

export interface AutomationBench {
  automations: number;
  dispatch: { events: number; p50Ms: number; p95Ms: number };
  endToEnd: { events: number; seconds: number; eventsPerSec: number; evaluationsPerSec: number };
}

export async function benchAutomation(o: {
  fieldbook: Fieldbook;
  url: string;
  token: string;
  log(line: string): void;
}): Promise<AutomationBench> {
  const { fieldbook, url, token, log } = o;
  const owner = fieldbook.db.owner;
  const service = fieldbook.services.automation as AutomationServices | undefined;
  if (!service) throw new Error('the automation module is not loaded');
  const ws = (
    await graphql<{ createWorkspace: { workspace: { id: string } } }>(
      url,
      'mutation ($input: CreateWorkspaceInput!) { createWorkspace(input: $input) { workspace { id } } }',
      { input: { method: 'AUTH0', teamName: `Automation bench ${Date.now().toString(36)}` } },
      token,
    )
  ).createWorkspace.workspace.id;
  const me = (await graphql<{ me: { id: string } }>(url, '{ me { id } }', {}, token)).me.id;
  const project = (
    await graphql<{ createProject: { id: string; title: string } }>(
      url,
      'mutation ($input: CreateProjectInput!) { createProject(input: $input) { id title } }',
      { input: { title: 'Bench project' } },
      token,
      ws,
    )
  ).createProject;

  log(`automation: ${AUTOMATIONS} automations on note:created ...`);
  const rows = Array.from({ length: AUTOMATIONS }, (_, i) => ({
    workspace_id: ws,
    title: `Bench automation ${i}`,
    owner_id: me,
    trigger_type: 'Event',
    event_key: i % 2 ? 'note:created' : 'Project',
    trigger: JSON.stringify({
      type: 'Event',
      eventKey: i % 2 ? 'note:created' : 'Project',
      configure: i % 4 === 1 ? { 'project.id': project.id } : {},
      rules: {
        combinator: i % 3 ? 'AND' : 'OR',
        conditions: [
          { field: 'project.title', operator: 'equal', value: 'Bench project' },
          { field: i % 2 ? 'note.title' : 'project.title', operator: 'contains', value: `never-${i}` },
        ].slice(i % 3 ? 0 : 1),
      },
      recurrence: null,
    }),
    actions: JSON.stringify([
      {
        actionType: 'createNote',
        pluginId: null,
        parameters: { projectId: project.id, title: 'never made' },
        executionOrder: 1,
      },
    ]),
    created_at: new Date(Date.now() - 60_000),
  }));
  for (let i = 0; i < rows.length; i += 500) await owner('automations').insert(rows.slice(i, i + 500));

  const event = (title: string) => ({
    note: { id: randomUUID(), title },
    project: { id: project.id, title: project.title },
    createdBy: me,
  });
  const runs = async () => Number((await owner('automation_runs').where({ workspace_id: ws }).count({ n: '*' }))[0]!.n);

  log(`automation: ${DISPATCHES} events evaluated in-process ...`);
  const times: number[] = [];
  for (let i = 0; i < DISPATCHES; i++) {
    const t = performance.now();
    const r = await service.dispatch({
      id: randomUUID(),
      event: 'note:created',
      workspaceId: ws,
      payload: event(`direct ${i}`),
      occurredAt: new Date().toISOString(),
    });
    times.push(performance.now() - t);
    if (r.matched !== AUTOMATIONS || r.queued !== 0)
      throw new Error(`expected ${AUTOMATIONS} evaluated and none queued, got ${JSON.stringify(r)}`);
  }

  log(`automation: ${EVENTS} events published and delivered through the queue ...`);
  const before = await runs();
  const bus = createEventBus(fieldbook.jobs.boss);
  const t0 = performance.now();
  for (let i = 0; i < EVENTS; i++)
    await owner.transaction((trx) => bus.publish('note:created', ws, event(`queued ${i}`), trx));
  const target = before + EVENTS * AUTOMATIONS;
  const deadline = Date.now() + 600_000;
  while ((await runs()) < target) {
    if (Date.now() > deadline) throw new Error('the events were not all evaluated within 10 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    automations: AUTOMATIONS,
    dispatch: { events: DISPATCHES, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) },
    endToEnd: {
      events: EVENTS,
      seconds: round(seconds, 2),
      eventsPerSec: round(EVENTS / seconds, 2),
      evaluationsPerSec: Math.round((EVENTS * AUTOMATIONS) / seconds),
    },
  };
}

export interface SlackAutomationBench {
  notes: number;
  p50Ms: number;
  p95Ms: number;
}

/**
 * An automation on note:created whose action is sendToSlack, in a workspace where the Slack
 * plugin is installed and connected (to a local Slack): the time from a note being created to its
 * message posted (chat.postMessage received), one note at a time.
 */
export async function benchSlackAutomation(o: {
  url: string;
  token: string;
  workspaceId: string;
  projectId: string;
  posted(): number;
  log(line: string): void;
}): Promise<SlackAutomationBench> {
  const { url, token, workspaceId, projectId, posted, log } = o;
  const NOTES = Number(process.env.BENCH_SLACK_AUTOMATION_NOTES ?? 20);
  await graphql(
    url,
    'mutation ($input: AutomationInput!) { createAutomation(input: $input) { id } }',
    {
      input: {
        title: 'Tell the team about new notes',
        trigger: { type: 'Event', eventKey: 'note:created', configure: { 'project.id': projectId } },
        actions: [
          {
            actionType: 'sendToSlack',
            pluginId: 'slack',
            parameters: { channelIds: ['CBENCH'], text: 'New note: {{note.title}}' },
            executionOrder: 1,
          },
        ],
      },
    },
    token,
    workspaceId,
  );
  log(`automation: ${NOTES} notes, each to its Slack message ...`);
  const times: number[] = [];
  for (let i = 0; i < NOTES; i++) {
    const before = posted();
    const t0 = performance.now();
    await graphql(
      url,
      'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      { input: { projectId, title: `Bench note ${i}` } },
      token,
      workspaceId,
    );
    while (posted() === before) {
      if (performance.now() - t0 > 60_000) throw new Error('a note’s Slack message was not posted within a minute');
      await new Promise((r) => setTimeout(r, 5));
    }
    times.push(performance.now() - t0);
  }
  return { notes: NOTES, p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };
}

export const slackAutomationLines = (s: SlackAutomationBench): string[] => [
  `Automation to Slack (note:created → sendToSlack through the Slack plugin to a local Slack, ${s.notes} notes one at a time)`,
  `  note created to message posted: p50 ${s.p50Ms} ms, p95 ${s.p95Ms} ms`,
];

export const automationLines = (a: AutomationBench): string[] => [
  `Automation (${a.automations} automations with rules on note:created in one workspace; no rule holds)`,
  `  one event evaluated in-process: p50 ${a.dispatch.p50Ms} ms, p95 ${a.dispatch.p95Ms} ms (${a.dispatch.events} events)`,
  `  publish to every rule evaluated and recorded: ${a.endToEnd.eventsPerSec} events/s, ${a.endToEnd.evaluationsPerSec} evaluations/s (${a.endToEnd.events} events in ${a.endToEnd.seconds} s)`,
];

/** `npx tsx --no-node-snapshot bench/automation.ts`: this part alone, on a new database. */
async function main(): Promise<void> {
  await runAlone(
    'automation',
    async ({ fieldbook, url, token, log }) => automationLines(await benchAutomation({ fieldbook, url, token, log })),
    {
      researcherName: 'Bench Automator',
      discoverPlugins: false,
    },
  );
}

if (process.argv[1]?.endsWith('bench/automation.ts')) await main();
