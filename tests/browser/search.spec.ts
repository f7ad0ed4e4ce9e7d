import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

/** Picks an option of a Mantine select by the select's accessible name. */
async function choose(page: Page, name: string, option: string | RegExp) {
  await page.getByRole('textbox', { name, exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

test('a filter built on /search survives a reload, is saved as a feed and opens from /explore', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('searcher');
  const token = await signUpByApi(env, email, 'Sam Searcher');
  const workspace = await createWorkspaceByApi(env, token, 'Search Screens');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Discovery research' } },
    as,
  );
  const note = async (title: string, text: string) =>
    (
      await gql<{ createNote: { id: string } }>(
        env,
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId: createProject.id, title, content: doc(text) } },
        as,
      )
    ).createNote.id;
  await note('Roadmap interview alpha', 'They want <b>exports</b> & a calmer roadmap.');
  const beta = await note('Roadmap interview beta', 'An older conversation about the roadmap.');
  await note('Pricing chat', 'Nothing about plans for the future.');
  await gql(
    env,
    'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
    { input: { projectId: createProject.id, title: 'Roadmap insight', content: doc('Customers ask for a roadmap.') } },
    as,
  );
  // An older note, so "Created after 1 week ago" has something to leave out.
  await env.fieldbook.db
    .owner('notes')
    .where({ id: beta })
    .update({ created_at: new Date(Date.now() - 30 * 86_400_000) });

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search' })).toBeVisible();
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('link', { name: 'Pricing chat' })).toBeVisible();
  await expectAccessible(page, '/search');

  // A new filter starts with the three default forms of 000 §4: folder, contributors, created.
  const conditions = page.getByRole('list', { name: 'Conditions' });
  await expect(conditions.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('textbox', { name: 'Field of condition 3' })).toHaveValue('Created');
  // Created offers exactly after and before (000 §5).
  await page.getByRole('textbox', { name: 'Operator of condition 3' }).click();
  await expect(page.getByRole('option')).toHaveText(['after', 'before']);
  await page.keyboard.press('Escape');
  await choose(page, 'Created value', '1 week ago');

  await page.getByRole('button', { name: 'Add condition' }).click();
  await expect(page.getByRole('textbox', { name: 'Field of condition 4' })).toHaveValue('Title');
  await page.getByRole('textbox', { name: 'Operator of condition 4' }).click();
  await expect(page.getByRole('option')).toHaveText(['contains', 'not contains', 'is', 'is not']);
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'Title value' }).fill('roadmap');

  await expect(results.getByRole('link')).toHaveText(['Roadmap insight', 'Roadmap interview alpha']);
  await expect(page.getByRole('tab', { name: 'Notes 1 result' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Insights 1 result' })).toBeVisible();

  // Search text as well: matches are marked, and the note's text shows as text, never as markup.
  await page.getByRole('searchbox', { name: 'Search text' }).fill('exports');
  await expect(results.getByRole('link')).toHaveText(['Roadmap interview alpha']);
  await expect(results.locator('mark')).toHaveText(['exports']);
  await expect(results.getByText(/& a calmer roadmap\./)).toBeVisible();
  await expect(results.locator('b')).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search text' }).fill('');
  await page.getByRole('tab', { name: /^Notes/ }).click();
  await expect(results.getByRole('link')).toHaveText(['Roadmap interview alpha']);

  // Changing a field keeps the operator when the new field allows it (000 §4).
  await choose(page, 'Field of condition 4', 'Content');
  await expect(page.getByRole('textbox', { name: 'Operator of condition 4' })).toHaveValue('contains');
  await choose(page, 'Field of condition 4', 'Title');
  await expect(page.getByRole('textbox', { name: 'Title value' })).toHaveValue('roadmap');

  // Grid layout, remembered for this person.
  await page.getByText('Grid', { exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Grid' })).toBeChecked();
  await shot(page, 'search-filter');

  // The URL carries the search: a reload (or the link) reproduces it.
  await expect(page).toHaveURL(/\/search#[A-Za-z0-9_-]+$/);
  const link = page.url();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Title value' })).toHaveValue('roadmap');
  await expect(page.getByRole('textbox', { name: 'Created value' })).toHaveValue('1 week ago');
  await expect(page.getByRole('tab', { name: /^Notes/ })).toHaveAttribute('aria-selected', 'true');
  await expect(results.getByRole('link')).toHaveText(['Roadmap interview alpha']);
  await expect(page.getByRole('radio', { name: 'Grid' })).toBeChecked();
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByRole('list', { name: 'Search results' }).getByRole('link')).toHaveText([
    'Roadmap interview alpha',
  ]);
  await other.close();

  // Save it as a shared feed.
  await page.getByRole('button', { name: 'Save as feed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save as feed' });
  await dialog.getByRole('textbox', { name: 'Title' }).fill('x'.repeat(201));
  await dialog.getByRole('button', { name: 'Save feed' }).click();
  await expect(dialog.getByText('A saved feed title can be at most 200 characters long.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Recent roadmap notes');
  await dialog.getByRole('switch', { name: /Share with the workspace/ }).check();
  await dialog.getByRole('button', { name: 'Save feed' }).click();
  await expect(page).toHaveURL(new RegExp(`/explore/${UUID}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Recent roadmap notes' })).toBeVisible();
  await expect(page.getByText('Shared with the workspace')).toBeVisible();
  await expect(results.getByRole('link')).toHaveText(['Roadmap interview alpha']);
  const feedUrl = page.url();

  // /explore lists it; it opens with its search.
  await page.goto('/explore');
  await expect(page.getByRole('heading', { level: 1, name: 'Explore' })).toBeVisible();
  const feeds = page.getByRole('list', { name: 'Your feeds' });
  await expect(feeds.getByRole('link', { name: 'Recent roadmap notes' })).toBeVisible();
  await expect(feeds.getByText('2 conditions · Note')).toBeVisible();
  await shot(page, 'search-explore');
  await expectAccessible(page, '/explore');
  await feeds.getByRole('link', { name: 'Recent roadmap notes' }).click();
  await expect(page).toHaveURL(feedUrl);
  await expect(results.getByRole('link')).toHaveText(['Roadmap interview alpha']);
  await expect(page.getByRole('textbox', { name: 'Title value' })).toHaveValue('roadmap');
  await shot(page, 'search-feed');
  await expectAccessible(page, 'a saved feed');

  // Editing the feed's search offers to save the change back.
  await page.getByRole('textbox', { name: 'Title value' }).fill('pricing');
  await expect(results.getByRole('link')).toHaveText(['Pricing chat']);
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved the changes to “Recent roadmap notes”.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.goto(feedUrl);
  await expect(page.getByRole('textbox', { name: 'Title value' })).toHaveValue('pricing');
  await expect(results.getByRole('link')).toHaveText(['Pricing chat']);
  await page.getByRole('textbox', { name: 'Title value' }).fill('nothing is called this');
  await expect(page.getByText('Nothing matches this search')).toBeVisible();

  // A feed that does not exist says so and leads back.
  await page.goto('/explore/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('That saved feed was not found')).toBeVisible();
});

test('a workspace admin finds the search index from /search, and hears that PostgreSQL needs no reindex', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('index-admin');
  const token = await signUpByApi(env, email, 'Ines Index');
  await createWorkspaceByApi(env, token, 'Search Index');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/search');
  await page.getByRole('link', { name: 'Search index' }).click();
  await expect(page).toHaveURL(/\/search\/index$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search index' })).toBeVisible();
  await expect(page.getByTestId('search-reindex')).toContainText('no reindex is needed');
  await expect(page.getByRole('button', { name: 'Reindex now' })).toHaveCount(0);
  await expectAccessible(page, '/search/index');
});
