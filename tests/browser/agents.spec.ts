import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

// Each test walks a whole conversation (several model turns and page loads); a loaded machine needs the room.
test.describe.configure({ timeout: 120_000 });

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

async function setUp(env: Parameters<Parameters<typeof test>[2]>[0]['env'], label: string) {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, 'Ada Analyst');
  const workspace = await createWorkspaceByApi(env, token, `Agents ${label}`);
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Travel interviews' } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    {
      input: {
        projectId: createProject.id,
        title: 'Interview with Priya',
        content: doc('Priya said exports to spreadsheets matter most to her managers.'),
      },
    },
    as,
  );
  return { email, as, projectId: createProject.id };
}

test('an agent is made with a tool picker and answers a question streaming, its steps collapsed with links, and takes a rating', async ({
  page,
  env,
}) => {
  const { email } = await setUp(env, 'answer');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.getByRole('link', { name: 'Agents', exact: true }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByText('No agents yet')).toBeVisible();
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Research helper');
  await form
    .getByRole('textbox', { name: 'Instructions' })
    .fill('Answer from our interviews and name the notes you use.');
  await expect(form.getByRole('checkbox', { name: /Keyword search/ })).toBeChecked();
  await form.getByRole('checkbox', { name: /Create document/ }).check();
  await shot(page, 'agents-new');
  await expectAccessible(page, 'the new agent form');
  await form.getByRole('button', { name: 'Create agent' }).click();
  await expect(page.getByRole('heading', { name: 'Research helper', level: 1 })).toBeVisible();

  env.ai.script(
    {
      content: 'Searching the interviews for exports.',
      toolCalls: [{ name: 'keyword_search', arguments: '{"query":"exports"}' }],
    },
    { content: 'Managers care most about exports to spreadsheets (Interview with Priya).', chunkChars: 5, delayMs: 40 },
  );
  await page.getByRole('button', { name: 'New conversation' }).click();
  await expect(page).toHaveURL(/\/agents\/[^/]+\/conversations\/[^/]+$/);
  await page.getByRole('textbox', { name: 'Message' }).fill('What do managers care about?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('message-assistant')).toContainText('Managers care most about exports to spreadsheets');
  // The step is collapsed to its tool and the items it found, which open their pages.
  const result = page.getByTestId('message-result');
  await expect(result.getByRole('button', { name: /Keyword search · 1 item/ })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  await expect(page.getByTestId('message-thinking').getByText('Searching the interviews for exports.')).toBeHidden();
  await page.getByRole('button', { name: 'Good answer' }).click();
  await expect(page.getByRole('button', { name: 'Good answer' })).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'agents-conversation');
  await expectAccessible(page, 'a conversation');
});

test('the agent asks before writing a note, the question survives a reload, and conversations are found by text and by a note they named', async ({
  page,
  env,
}) => {
  const { email, as, projectId } = await setUp(env, 'confirm');
  const { createAgent } = await gql<{ createAgent: { id: string } }>(
    env,
    'mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }',
    { input: { name: 'Note taker', tools: ['create_document'] } },
    as,
  );
  const { startConversation } = await gql<{ startConversation: { id: string } }>(
    env,
    'mutation($input: StartConversationInput!) { startConversation(input: $input) { id } }',
    { input: { agentId: createAgent.id, title: 'Spreadsheet exports' } },
    as,
  );
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/agents/${createAgent.id}/conversations/${startConversation.id}`);
  env.ai.script({
    content: '',
    toolCalls: [
      {
        name: 'create_document',
        arguments: JSON.stringify({ projectId, title: 'What managers want', text: 'Exports to spreadsheets.' }),
      },
    ],
  });
  await page.getByRole('textbox', { name: 'Message' }).fill('Write that down as a note');
  await page.getByRole('button', { name: 'Send' }).click();
  const ask = page.getByRole('alertdialog', { name: 'The agent asks you' });
  await expect(ask).toContainText('Allow create document?');
  // What will happen, in words: the action, the project by its title, the title and the text.
  await expect(ask.getByTestId('pending-action')).toContainText('Create a note');
  await page.reload();
  await expect(ask).toContainText('Allow create document?');
  await expect(ask.getByTestId('pending-action')).toContainText('Title: What managers want');
  await expect(ask.getByLabel('Text it will write')).toHaveText('Exports to spreadsheets.');
  await shot(page, 'agents-confirm');
  await expectAccessible(page, 'a confirmation');
  env.ai.script({ content: 'I wrote the note “What managers want”.' });
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('I wrote the note');
  await page.getByTestId('message-result').last().getByRole('link', { name: 'What managers want' }).click();
  await expect(page).toHaveURL(/\/data\/[0-9a-f-]+$/);

  await page.goto('/agents');
  await page.getByRole('textbox', { name: 'Search conversations' }).fill('spreadsheet');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: 'Conversations found' }).getByRole('link')).toHaveCount(1);
  // A note filter finds the conversation whose result named the note; it stays in the address.
  await page.getByRole('textbox', { name: 'Filter by' }).click();
  await page.getByRole('option', { name: 'Note', exact: true }).click();
  await page.getByRole('textbox', { name: 'Naming notes' }).click();
  await page.getByRole('option', { name: 'What managers want (Travel interviews)' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add filter' }).click();
  const chips = page.getByRole('list', { name: 'Filters applied' });
  await expect(chips).toContainText('Note: What managers want (Travel interviews)');
  await expect(page).toHaveURL(/f=Note/);
  await page.reload();
  await expect(chips).toContainText('Note: What managers want (Travel interviews)');
  await expect(page.getByRole('table', { name: 'Conversations found' }).getByRole('link')).toHaveCount(1);
  await shot(page, 'agents-list');
  await expectAccessible(page, '/agents');

  // The conversation is renamed and deleted from its own page.
  await page.getByRole('table', { name: 'Conversations found' }).getByRole('link').click();
  page.once('dialog', (d) => void d.accept('Exports for managers'));
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Exports for managers' })).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/agents\/[0-9a-f-]+$/);
  await expect(page.getByText('Exports for managers')).toHaveCount(0);
});

test('a confirmation to empty a note names it a deletion and shows the text it removes as a readable diff', async ({
  page,
  env,
}) => {
  const { email, as, projectId } = await setUp(env, 'diff');
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    {
      input: {
        projectId,
        title: 'Interview with Sam',
        content: doc(
          'Sam leads a support team of nine.',
          'Exports to spreadsheets break when a field holds a comma.',
          'He wants a weekly digest of new insights.',
        ),
      },
    },
    as,
  );
  const { createAgent } = await gql<{ createAgent: { id: string } }>(
    env,
    'mutation($input: CreateAgentInput!) { createAgent(input: $input) { id } }',
    { input: { name: 'Editor', tools: ['edit_document'] } },
    as,
  );
  const { startConversation } = await gql<{ startConversation: { id: string } }>(
    env,
    'mutation($input: StartConversationInput!) { startConversation(input: $input) { id } }',
    { input: { agentId: createAgent.id, title: 'Tidy Sam' } },
    as,
  );
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/agents/${createAgent.id}/conversations/${startConversation.id}`);
  env.ai.script({
    content: '',
    toolCalls: [
      {
        name: 'edit_document',
        arguments: JSON.stringify({
          noteId: createNote.id,
          mode: 'replace',
          text: 'Sam leads a support team of nine.\nExports to spreadsheets break on commas.\nHe wants a weekly digest of new insights.',
        }),
      },
    ],
  });
  await page.getByRole('textbox', { name: 'Message' }).fill('Shorten the second line');
  await page.getByRole('button', { name: 'Send' }).click();
  const ask = page.getByRole('alertdialog', { name: 'The agent asks you' });
  await expect(ask.getByTestId('pending-action')).toContainText('Replace the text of a note');
  const diff = ask.getByRole('group', { name: /Change to the note: 1 paragraph removed, 1 added/ });
  await expect(diff.locator('del')).toHaveText(/Removed: Exports to spreadsheets break when a field holds a comma\./);
  await expect(diff.locator('ins')).toHaveText(/Added: Exports to spreadsheets break on commas\./);
  await shot(page, 'agents-confirm-diff');
  await expectAccessible(page, 'a confirmation with a diff');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('message-assistant').last()).toContainText('You cancelled');

  env.ai.script({
    content: '',
    toolCalls: [
      { name: 'edit_document', arguments: JSON.stringify({ noteId: createNote.id, mode: 'replace', text: '' }) },
    ],
  });
  await page.getByRole('textbox', { name: 'Message' }).fill('Clear it');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(ask.getByTestId('pending-action')).toContainText('Delete all the text of a note');
  await expect(ask.getByTestId('pending-action')).toContainText('Deletes all 133 characters of its text.');
  await expect(ask.getByRole('group', { name: /3 paragraphs removed, 0 added/ }).locator('del')).toHaveCount(3);
  await shot(page, 'agents-confirm-delete');
  await expectAccessible(page, 'a confirmation of a deletion');
});
