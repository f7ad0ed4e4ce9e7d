import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('a note an agent wrote says Written by AI on its page and in its project’s list; a person’s does not', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('provenance');
  const token = await signUpByApi(env, email, 'Pia Person');
  const workspace = await createWorkspaceByApi(env, token, 'Provenance');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Mixed authorship' } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { projectId: createProject.id, title: 'Written by Pia' } },
    as,
  );
  const { runAgentTool } = await gql<{ runAgentTool: { items: Array<{ id: string }> } }>(
    env,
    'mutation($name: String!, $input: JSON) { runAgentTool(name: $name, input: $input) { items { id } } }',
    {
      name: 'create_document',
      input: { projectId: createProject.id, title: 'Agent findings', text: 'What the agent found.' },
    },
    as,
  );
  const agentNote = runAgentTool.items[0]!.id;

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME, { timeout: 30_000 });
  await page.goto(`/projects/${createProject.id}`);
  const rows = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: /^(Agent findings|Written by Pia)$/ }) });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Agent findings' }).getByText('Written by AI')).toBeVisible();
  await expect(rows.filter({ hasText: 'Written by Pia' }).getByText('Written by AI')).toHaveCount(0);
  await shot(page, 'provenance-project-list');

  await page.goto(`/data/${agentNote}`);
  await expect(page.getByRole('textbox', { name: 'Note title' })).toHaveValue('Agent findings');
  const label = page.getByTestId('written-by-ai');
  await expect(label).toHaveText('Written by AI');
  await expect(label).toHaveAttribute('title', /^An agent wrote this/);
  await shot(page, 'provenance-note-page');
  expect(await seriousViolations(page), 'axe on an agent’s note').toEqual([]);
});
