import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

type As = { token: string; workspace: string };

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const paragraphs = (...texts: string[]) => ({ type: 'doc', content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })) });

async function researcher(env: Parameters<typeof signUpByApi>[0], label: string, teamName: string): Promise<{ email: string; as: As }> {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, `${label} person`);
  const workspace = await createWorkspaceByApi(env, token, teamName);
  return { email, as: { token, workspace: workspace.id } };
}

async function project(env: Parameters<typeof signUpByApi>[0], as: As, title: string): Promise<string> {
  return (await gql<{ createProject: { id: string } }>(env, 'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }', { input: { title } }, as)).createProject.id;
}

async function note(env: Parameters<typeof signUpByApi>[0], as: As, projectId: string, title: string, ...texts: string[]): Promise<string> {
  return (await gql<{ createNote: { id: string } }>(env, 'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }', { input: { projectId, title, content: paragraphs(...texts) } }, as)).createNote.id;
}

test('typing an existing tag’s name and pressing Enter applies that tag to the highlight', async ({ page, env }) => {
  const { email, as } = await researcher(env, 'tagger', 'Tagging Research');
  const projectId = await project(env, as, 'Onboarding study');
  const noteId = await note(env, as, projectId, 'Call with Ana', 'The setup wizard took an hour.');
  const board = (await gql<{ createTagBoard: { id: string } }>(env, 'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }', { input: { projectId, title: 'Tags' } }, as)).createTagBoard.id;
  const tagId = (await gql<{ createTag: { id: string } }>(env, 'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }', { input: { boardId: board, title: 'Setup pain' } }, as)).createTag.id;
  await gql(env, 'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }', { input: { boardId: board, title: 'Setup pain points' } }, as);
  const { createHighlight } = await gql<{ createHighlight: { id: string } }>(env, 'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }', { input: { noteId, startOffset: 4, endOffset: 16 } }, as);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`/data/${noteId}`);
  const row = page.getByRole('list', { name: 'Highlights' }).getByRole('listitem').first();
  await row.getByRole('button', { name: /tags/i }).first().click();
  const search = page.getByRole('textbox', { name: 'Find or create a tag' });
  // Another tag's name starts the same way: Enter takes the one whose whole name was typed, case aside.
  await search.fill('setup pain');
  await search.press('Enter');
  await expect(page.getByRole('checkbox', { name: 'Setup pain', exact: true })).toBeChecked();
  await expect(search).toHaveValue('');
  await shot(page, 'everyday-tag-by-enter');
  const { highlightTags } = await gql<{ highlightTags: Array<{ id: string }> }>(env, 'query($id: ID!) { highlightTags(highlightId: $id) { id } }', { id: createHighlight.id }, as);
  expect(highlightTags.map((t) => t.id)).toEqual([tagId]);
  const boards = await gql<{ tagBoards: Array<{ ungroupedTags: unknown[] }> }>(env, 'query($p: ID) { tagBoards(projectId: $p) { ungroupedTags { id } } }', { p: projectId }, as);
  expect(boards.tagBoards[0]!.ungroupedTags).toHaveLength(2);
});

test('the home shows published insights, the latest published first', async ({ page, env }) => {
  const { email, as } = await researcher(env, 'publisher', 'Home Research');
  const projectId = await project(env, as, 'Pricing study');
  const make = async (title: string) => (await gql<{ createInsight: { id: string } }>(env, 'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }', { input: { projectId, title } }, as)).createInsight.id;
  const first = await make('Teams compare plans by seats');
  const second = await make('Annual billing needs a discount');
  await make('A draft nobody should see yet');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText('No published insights yet')).toBeVisible();

  for (const id of [first, second]) await gql(env, 'mutation($id: ID!) { publishInsight(id: $id) { id } }', { id }, as);
  await page.reload();
  const list = page.getByRole('list', { name: 'Published insights' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('link')).toHaveText(['Annual billing needs a discount', 'Teams compare plans by seats']);
  await expect(list.getByRole('listitem').first()).toContainText('Pricing study');
  await expectAccessible(page, 'the home with published insights');
  await shot(page, 'everyday-home-insights');
  await list.getByRole('link', { name: 'Teams compare plans by seats' }).click();
  await expect(page).toHaveURL(new RegExp(`/insights/${first}$`));
});
