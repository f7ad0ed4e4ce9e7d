import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function pick(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('textbox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an automation tags each note created in a project, and its run shows in the history', async ({ page, env }) => {
  // Four screens, each checked by axe, and a run made by a job worker: more than the default minute on a busy machine.
  test.slow();
  const email = uniqueEmail('automator');
  const token = await signUpByApi(env, email, 'Ava Automator');
  const workspace = await createWorkspaceByApi(env, token, 'Automation Research');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Onboarding study' } },
    as,
  );
  const projectId = createProject.id;
  const { createTagBoard } = await gql<{ createTagBoard: { id: string } }>(
    env,
    'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
    { input: { title: 'Kinds', projectId } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
    { input: { boardId: createTagBoard.id, title: 'Interview' } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // From the sidebar, as people get there (the app keeps its workspace across the navigation).
  await page.getByRole('link', { name: 'Automation', exact: true }).click();
  await expect(page).toHaveURL(/\/automation$/);
  await expect(page.getByRole('heading', { name: 'Automation', level: 1 })).toBeVisible();
  await expect(page.getByText('No automations yet')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('link', { name: 'New automation' }).click();
  await expect(page).toHaveURL(/\/automation\/new$/);
  await page.getByRole('textbox', { name: 'Title' }).fill('x'.repeat(256));
  await pick(page, 'In project', 'Onboarding study');
  // The rule builder offers a text field's operators only.
  await page.getByRole('button', { name: 'Add a condition' }).click();
  await pick(page, 'Field', 'Note title');
  await page.getByRole('textbox', { name: 'Operator' }).click();
  await expect(page.getByRole('option')).toHaveText(['is', 'is not', 'contains', 'starts with', 'ends with']);
  await page.getByRole('option', { name: 'contains', exact: true }).click();
  await page.getByRole('textbox', { name: 'Value' }).fill('Interview');

  await page.getByRole('button', { name: 'Add an action' }).click();
  await page.getByRole('menuitem', { name: /Create a note/ }).click();
  const noteAction = page.getByTestId('action-item').first();
  await noteAction.getByRole('textbox', { name: 'Project', exact: true }).click();
  await page.getByRole('option', { name: 'Onboarding study', exact: true }).click();
  await noteAction.getByRole('textbox', { name: 'Title' }).fill('Follow up on {{note.title}}');
  await page.getByRole('button', { name: 'Add an action' }).click();
  await page.getByRole('menuitem', { name: /Tag the note/ }).click();
  await page.getByRole('textbox', { name: 'Tags' }).click();
  await page.getByRole('option', { name: 'Interview' }).click();
  await page.keyboard.press('Escape');
  // Tag first: moved up from the keyboard.
  await page.getByRole('button', { name: 'Move action 2 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('action-item').first()).toContainText('1. Tag the note');
  await expect(page.getByTestId('action-item').nth(1)).toContainText('2. Create a note');
  // Dragged back, then up again from the keyboard.
  await page.getByTestId('action-item').nth(1).dragTo(page.getByTestId('action-item').first());
  await expect(page.getByTestId('action-item').first()).toContainText('1. Create a note');
  await page.getByRole('button', { name: 'Move action 2 up' }).click();
  await expect(page.getByTestId('action-item').first()).toContainText('1. Tag the note');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'automation-editor');

  await page.getByRole('button', { name: 'Create automation' }).click();
  await expect(page.getByRole('alert')).toHaveText('title: An automation title can have at most 255 characters.');
  await page.getByRole('textbox', { name: 'Title' }).first().fill('Tag interviews');
  await page.getByRole('button', { name: 'Create automation' }).click();
  await expect(page).toHaveURL(/\/automation\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Tag interviews', level: 1 })).toBeVisible();

  // A note is created in the project: the automation runs.
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { projectId, title: 'Interview with Ada' } },
    as,
  );
  await page.getByRole('tab', { name: 'Run history' }).click();
  const run = page.getByTestId('run').first();
  await expect(run).toContainText('succeeded', { timeout: 30_000 });
  await expect(run).toContainText('note:created');
  await expect(run).toContainText('addTag: succeeded');
  await expect(run).toContainText('createNote: succeeded');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'automation-history');
  const { note } = await gql<{ note: { tags: Array<{ title: string }> } }>(
    env,
    'query($id: ID!) { note(id: $id) { tags { title } } }',
    { id: createNote.id },
    as,
  );
  expect(note.tags.map((t) => t.title)).toEqual(['Interview']);

  await page.getByRole('textbox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'failed', exact: true }).click();
  await expect(page.getByText('No runs match.')).toBeVisible();

  await page.getByRole('tab', { name: 'Dry run' }).click();
  await page.getByRole('button', { name: 'Dry run' }).click();
  await expect(page.getByTestId('dry-run-result')).toContainText('would run');
  await expect(page.getByTestId('dry-run-result')).toContainText('Follow up on Interview with Ada');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'automation-dry-run');

  await page.getByRole('link', { name: 'All automations' }).click();
  const row = page.getByTestId('automation-row').filter({ hasText: 'Tag interviews' });
  await expect(row).toContainText('succeeded');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'automation-list');

  // The tag the automation applied shows on the note.
  await page.goto(`/data/${createNote.id}`);
  await page.getByRole('tab', { name: 'Tags' }).click();
  await expect(page.getByRole('list', { name: 'Tags on this note' })).toHaveText('Interview');
  await shot(page, 'automation-note-tags');
});

test('Run now runs a manual automation and its run appears in the history', async ({ page, env }) => {
  test.slow();
  const email = uniqueEmail('runner');
  const token = await signUpByApi(env, email, 'Rae Runner');
  const workspace = await createWorkspaceByApi(env, token, 'Manual Runs');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Weekly digest' } },
    as,
  );
  const input = {
    title: 'Start a digest',
    trigger: { type: 'Event', eventKey: 'manual' },
    actions: [
      {
        actionType: 'createNote',
        parameters: { projectId: createProject.id, title: 'Digest draft' },
        executionOrder: 1,
      },
    ],
  };
  const { createAutomation } = await gql<{ createAutomation: { id: string } }>(
    env,
    'mutation($input: AutomationInput!) { createAutomation(input: $input) { id } }',
    { input },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/automation/${createAutomation.id}`);
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Run started' })).toHaveText(
    'Run started. It is listed under Run history.',
  );
  await expect(page.getByRole('tab', { name: 'Run history' })).toHaveAttribute('aria-selected', 'true');
  const run = page.getByTestId('run').first();
  await expect(run).toContainText('succeeded', { timeout: 30_000 });
  await expect(run).toContainText('manual');
  await expect(run).toContainText('createNote: succeeded');
  expect(await seriousViolations(page)).toEqual([]);
  await shot(page, 'automation-run-now');
});

test('a Channel trigger picks its channel, and invokeAgent its agent, from lists', async ({ page, env }) => {
  const email = uniqueEmail('channel-automator');
  const token = await signUpByApi(env, email, 'Cleo Channels');
  const workspace = await createWorkspaceByApi(env, token, 'Channel Automation');
  const as = { token, workspace: workspace.id };
  await gql(
    env,
    'mutation($input: CreateChannelInput!) { createChannel(input: $input) { id } }',
    { input: { name: 'Support tickets' } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }',
    { input: { name: 'Theme writer', instructions: 'Write up new themes.' } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/automation/new');
  await page.getByRole('textbox', { name: 'Title' }).fill('Write up new themes');
  await pick(page, 'Event', 'Channel: dataset:created, theme:created');
  await pick(page, 'In channel', 'Support tickets');
  await page.getByRole('button', { name: 'Add an action' }).click();
  await page.getByRole('menuitem', { name: /Ask an AI agent/ }).click();
  await pick(page, 'Agent', 'Theme writer');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('Write up {{theme.title}}');
  await shot(page, 'automation-channel-agent');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Create automation' }).click();
  await expect(page).toHaveURL(/\/automation\/[0-9a-f-]{36}$/);
  const { automations } = await gql<{
    automations: Array<{
      title: string;
      trigger: { configure: Record<string, string> };
      actions: Array<{ actionType: string; parameters: { agentId: string } }>;
    }>;
  }>(env, '{ automations { title trigger { configure } actions { actionType parameters } } }', {}, as);
  expect(automations).toHaveLength(1);
  expect(Object.keys(automations[0]!.trigger.configure)).toEqual(['channel.id']);
  expect(automations[0]!.actions[0]!.actionType).toBe('invokeAgent');
});

test('an admin lists the email domains outside the workspace that Send an email may write to', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('mailout');
  const token = await signUpByApi(env, email, 'Ava Automator');
  await createWorkspaceByApi(env, token, 'Automation Mail');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/automation');
  const settings = page.getByRole('region', { name: 'Workspace settings' });
  const domains = settings.getByRole('textbox', { name: 'Email domains outside the workspace' });
  await domains.fill('Partner.example');
  await domains.press('Enter');
  await domains.fill('@agency.example');
  await domains.press('Enter');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(settings.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  // Kept lower-case without the "@", as the server stores them.
  await expect(settings.getByText('partner.example', { exact: true })).toBeVisible();
  await expect(settings.getByText('agency.example', { exact: true })).toBeVisible();
  await shot(page, 'automation-email-domains');
  expect(await seriousViolations(page)).toEqual([]);
});
