import type { Page } from '@playwright/test';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

test('a contributor creates and renames a project, writes a note and adds a person; a viewer gets it read-only', async ({
  page,
  browser,
  env,
}) => {
  const admin = await signUpByApi(env, uniqueEmail('admin'), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Browse Research');
  const contributor = uniqueEmail('contributor');
  const viewer = uniqueEmail('viewer');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, contributor, 'CONTRIBUTOR');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, viewer, 'VIEWER');

  await signInWithPassword(page, contributor);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Trash' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(page.getByText('No active projects yet')).toBeVisible();

  // New project: a blank title is refused before anything is sent.
  await page.getByRole('button', { name: 'New project' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New project' });
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(dialog.getByText('Give the project a title.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Onboarding interviews');
  await dialog.getByRole('radio', { name: 'Colour #12b886' }).click();
  await shot(page, 'browse-new-project');
  await dialog.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${UUID}$`));
  const projectUrl = page.url();
  const projectId = projectUrl.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Onboarding interviews');
  await expect(page.getByText('No notes yet')).toBeVisible();

  // Rename in place; the new title is what the server keeps.
  await page.getByRole('button', { name: 'Rename project' }).click();
  await page.getByRole('textbox', { name: 'Project title' }).fill('Onboarding study');
  await page.getByRole('textbox', { name: 'Project title' }).press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Onboarding study');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Onboarding study');
  await expectAccessible(page, 'the project page');
  await shot(page, 'browse-project');

  // A new note opens on its own page; back on the project it is in the list.
  await page.getByRole('button', { name: 'New note' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/data/${UUID}$`));
  const noteId = page.url().split('/').pop()!;
  await page.goBack();
  await expect(page).toHaveURL(projectUrl);
  const notes = page.getByRole('list', { name: 'Notes' });
  await expect(notes.getByRole('listitem')).toHaveCount(1);
  await expect(notes.locator(`a[href="/data/${noteId}"]`)).toBeVisible();

  // The old sub-path lands on the right tab.
  await page.goto(`/projects/${projectId}/insights`);
  await expect(page).toHaveURL(`${projectUrl}?tab=insights`);
  await expect(page.getByRole('tab', { name: 'Insights', selected: true })).toBeVisible();
  await expect(page.getByText('No insights yet')).toBeVisible();

  // The project list shows the renamed project.
  await page.goto('/projects');
  await expect(page.getByRole('link', { name: 'Onboarding study' })).toBeVisible();
  await expectAccessible(page, '/projects');
  await shot(page, 'browse-projects');

  // Access settings: the creator has full access and can change the map.
  await page.goto(`/projects/${projectId}/settings/access`);
  await expect(page.getByRole('heading', { name: 'Your access' })).toBeVisible();
  await expect(page.getByText('Full access', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Access for everyone in the workspace' })).toBeEnabled();
  await expectAccessible(page, 'settings/access');
  await shot(page, 'browse-settings-access');

  // Contacts: create a person, then a second with the same email shows the server's message.
  await nav.getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByText('No contacts yet')).toBeVisible();
  await expectAccessible(page, '/contacts');
  await page.getByRole('button', { name: 'New person' }).click();
  const personDialog = page.getByRole('dialog', { name: 'New person' });
  await personDialog.getByRole('textbox', { name: 'Name' }).fill('Dana Park');
  await personDialog.getByRole('textbox', { name: 'Email' }).fill('dana@example.com');
  await personDialog.getByRole('textbox', { name: 'Company' }).fill('Acme');
  await personDialog.getByRole('button', { name: 'Create person' }).click();
  await expect(page).toHaveURL(new RegExp(`/people/${UUID}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dana Park');
  await page.goto('/contacts');
  await expect(page.getByRole('link', { name: 'Dana Park' })).toBeVisible();
  await page.getByRole('button', { name: 'New person' }).click();
  await personDialog.getByRole('textbox', { name: 'Name' }).fill('Dana Again');
  await personDialog.getByRole('textbox', { name: 'Email' }).fill('DANA@example.com');
  await personDialog.getByRole('button', { name: 'Create person' }).click();
  await expect(personDialog.getByRole('alert')).toContainText('already has the email address');
  await shot(page, 'browse-contacts-error');
  await personDialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('textbox', { name: 'Search contacts' }).fill('zzz');
  await expect(page.getByText('No one matches “zzz”')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search contacts' }).fill('dana');
  await expect(page.getByRole('link', { name: 'Dana Park' })).toBeVisible();
  await shot(page, 'browse-contacts');

  // The viewer sees the project, but cannot create, rename or change its settings.
  const viewerContext = await browser.newContext({ baseURL: env.url });
  const vp = await viewerContext.newPage();
  await signInWithPassword(vp, viewer);
  await expect(vp).toHaveURL(WORKSPACE_HOME);
  await vp.goto('/projects');
  await expect(vp.getByRole('link', { name: 'Onboarding study' })).toBeVisible();
  await expect(vp.getByRole('button', { name: 'New project' })).toHaveCount(0);
  await vp.getByRole('link', { name: 'Onboarding study' }).click();
  await expect(vp.getByRole('heading', { level: 1 })).toHaveText('Onboarding study');
  await expect(vp.locator(`a[href="/data/${noteId}"]`)).toBeVisible();
  await expect(vp.getByRole('button', { name: 'New note' })).toHaveCount(0);
  await expect(vp.getByRole('button', { name: 'Rename project' })).toHaveCount(0);
  await vp.goto(`/projects/${projectId}/settings`);
  await expect(vp.getByText('Read-only')).toBeVisible();
  await expect(vp.getByRole('textbox', { name: 'Title' })).toBeDisabled();
  await expect(vp.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await vp.goto(`/projects/${projectId}/settings/access`);
  await expect(vp.getByRole('textbox', { name: 'Access for everyone in the workspace' })).toBeDisabled();
  await expect(vp.getByRole('button', { name: 'Save access' })).toHaveCount(0);
  await shot(vp, 'browse-viewer-settings');
  await viewerContext.close();

  // What the browser did is what the server kept.
  const { projects } = await gql<{ projects: Array<{ title: string; color: string }> }>(
    env,
    '{ projects { title color } }',
    {},
    { token: admin, workspace: workspace.id },
  );
  expect(projects).toEqual([{ title: 'Onboarding study', color: '#12b886' }]);
});

test('an admin works with fields, tags, folders, exports, recent work and the trash', async ({ page, env }) => {
  const email = uniqueEmail('owner');
  const token = await signUpByApi(env, email, 'Olive Owner');
  const workspace = await createWorkspaceByApi(env, token, 'Browse Settings');
  const as = { token, workspace: workspace.id };
  const { createFolder } = await gql<{ createFolder: { id: string } }>(
    env,
    'mutation { createFolder(title: "Growth team") { id } }',
    {},
    as,
  );
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($f: ID) { createProject(input: { title: "Pricing research", folderId: $f }) { id } }',
    { f: createFolder.id },
    as,
  );
  const projectId = createProject.id;
  await gql(
    env,
    'mutation($p: ID!) { createNote(input: { projectId: $p, title: "Call with Acme" }) { id } }',
    { p: projectId },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // The home page carries the research card with the latest note.
  await expect(page.getByRole('heading', { name: 'Recent research' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Call with Acme' })).toBeVisible();
  await shot(page, 'browse-home');

  // Note fields: a select field with options, then one more option.
  await page.goto(`/projects/${projectId}/settings/fields`);
  await page.getByRole('textbox', { name: 'Label' }).fill('Plan');
  await page.getByRole('textbox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Select' }).click();
  await page.getByRole('textbox', { name: 'Options' }).fill('Free\nPro\npro\n');
  await page.getByRole('button', { name: 'Create field' }).click();
  const row = page.getByRole('row', { name: /Plan/ });
  await expect(row.getByText('Free')).toBeVisible();
  await expect(row.getByText('Pro', { exact: true })).toHaveCount(1);
  await row.getByRole('textbox', { name: 'New option for Plan' }).fill('Enterprise');
  await row.getByRole('button', { name: 'Add' }).click();
  await expect(row.getByText('Enterprise')).toBeVisible();
  await expectAccessible(page, 'settings/fields');
  await shot(page, 'browse-settings-fields');

  // Export: live progress, then a download of the archive.
  await page.goto(`/projects/${projectId}/settings/export`);
  await page.getByRole('button', { name: 'Export project' }).click();
  await expect(page.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
  await expect(page.getByText('Your export is ready')).toBeVisible({ timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: /^Download/ })
    .first()
    .click();
  expect((await download).suggestedFilename()).toBe('Pricing-research.tar');
  await shot(page, 'browse-settings-export');

  // Tags: a board, a tag, a rename.
  await page.goto(`/projects/${projectId}/tags`);
  await page.getByRole('textbox', { name: 'New tag board' }).fill('Interview tags');
  await page.getByRole('button', { name: 'Create tag board' }).click();
  await page.getByRole('textbox', { name: 'New tag in Ungrouped' }).fill('Pricng');
  await page.getByRole('button', { name: 'Add tag' }).click();
  await page.getByRole('button', { name: 'Actions for tag Pricng' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('dialog', { name: 'Rename tag' }).getByRole('textbox', { name: 'Name' }).fill('Pricing');
  await page.getByRole('dialog', { name: 'Rename tag' }).getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('link', { name: 'Pricing', exact: true })).toBeVisible();
  await shot(page, 'browse-tags');
  await page.getByRole('link', { name: 'Pricing', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pricing');
  await expect(page.getByText('No highlights with this tag yet')).toBeVisible();

  // The folder page shows its path and its project; channels are not there yet.
  await page.goto(`/folders/${createFolder.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Growth team');
  await expect(page.getByRole('link', { name: 'Pricing research' })).toBeVisible();
  await page.getByRole('tab', { name: 'Channels' }).click();
  await expect(page).toHaveURL(new RegExp(`/folders/${createFolder.id}/channels$`));
  await expect(page.getByText('No channels in this folder')).toBeVisible();
  await shot(page, 'browse-folder');

  // Your work, then the trash: a deleted project comes back.
  await page.goto('/your-work');
  await expect(page.getByRole('link', { name: 'Call with Acme' })).toBeVisible();
  await page.goto(`/projects/${projectId}/settings`);
  await page.getByRole('button', { name: 'Move project to trash' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Trash' }).click();
  await page.getByRole('button', { name: 'Restore Pricing research' }).click();
  await expect(page.getByText('The trash is empty')).toBeVisible();
  await expectAccessible(page, '/settings/trash');
  await page.goto('/projects');
  await expect(page.getByRole('link', { name: 'Pricing research' })).toBeVisible();
});

test('the notes list shows tags, highlights and dates, and keeps its sort and filters across a reload', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('lists');
  const token = await signUpByApi(env, email, 'Lena Lists');
  const workspace = await createWorkspaceByApi(env, token, 'Browse Lists');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation { createProject(input: { title: "Checkout study" }) { id } }',
    {},
    as,
  );
  const p = createProject.id;
  const note = async (title: string, text: string) =>
    (
      await gql<{ createNote: { id: string } }>(
        env,
        'mutation($p: ID!, $t: String!, $c: JSON) { createNote(input: { projectId: $p, title: $t, content: $c }) { id } }',
        { p, t: title, c: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } },
        as,
      )
    ).createNote.id;
  const zed = await note('Zed call', 'Shipping costs surprised them');
  await note('Amy call', 'Loved the coupon field');
  await note('Mo call', 'Shipping was fine');
  const { createTagBoard } = await gql<{ createTagBoard: { id: string } }>(
    env,
    'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
    { p },
    as,
  );
  const { createTag } = await gql<{ createTag: { id: string } }>(
    env,
    'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Shipping", color: "#1c7ed6" }) { id } }',
    { b: createTagBoard.id },
    as,
  );
  await gql(
    env,
    'mutation($n: ID!, $t: [ID!]!) { tagNote(noteId: $n, tagIds: $t) { id } }',
    { n: zed, t: [createTag.id] },
    as,
  );
  await gql(
    env,
    'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 8 }) { id } }',
    { n: zed },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${p}`);
  const notes = page.getByRole('list', { name: 'Notes' });
  await expect(notes.getByRole('listitem')).toHaveCount(3);
  const zedRow = notes.getByRole('listitem').filter({ hasText: 'Zed call' });
  await expect(zedRow.getByText('Shipping', { exact: true })).toBeVisible();
  await expect(zedRow.getByText(/^1 highlight · created .* · updated /)).toBeVisible();
  await expect(zedRow.getByText('Shipping costs surprised them')).toBeVisible();

  await page.getByRole('combobox', { name: 'Sort' }).selectOption('TITLE_ASC');
  await expect(notes.getByRole('link')).toHaveText(['Amy call', 'Mo call', 'Zed call']);
  await page.getByRole('textbox', { name: 'Find' }).fill('shipping');
  await expect(notes.getByRole('link')).toHaveText(['Mo call', 'Zed call']);
  await page.getByRole('textbox', { name: 'Tags' }).click();
  await page.getByRole('option', { name: 'Shipping' }).click();
  await page.keyboard.press('Escape');
  await expect(notes.getByRole('link')).toHaveText(['Zed call']);
  await expect(page).toHaveURL(/sort=TITLE_ASC/);
  await expectAccessible(page, 'the filtered notes list');
  await shot(page, 'browse-notes-filtered');

  // A reload keeps the sort, the words and the tag.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Find' })).toHaveValue('shipping');
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveValue('TITLE_ASC');
  await expect(notes.getByRole('link')).toHaveText(['Zed call']);
  await page.getByRole('textbox', { name: 'Find' }).fill('nothing like this');
  await expect(page.getByText('No notes match these words or tags.')).toBeVisible();
});
