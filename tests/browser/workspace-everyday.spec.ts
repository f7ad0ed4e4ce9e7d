import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

type As = { token: string; workspace: string };

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const paragraphs = (...texts: string[]) => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

async function researcher(
  env: Parameters<typeof signUpByApi>[0],
  label: string,
  teamName: string,
): Promise<{ email: string; as: As }> {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, `${label} person`);
  const workspace = await createWorkspaceByApi(env, token, teamName);
  return { email, as: { token, workspace: workspace.id } };
}

async function project(env: Parameters<typeof signUpByApi>[0], as: As, title: string): Promise<string> {
  return (
    await gql<{ createProject: { id: string } }>(
      env,
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title } },
      as,
    )
  ).createProject.id;
}

async function note(
  env: Parameters<typeof signUpByApi>[0],
  as: As,
  projectId: string,
  title: string,
  ...texts: string[]
): Promise<string> {
  return (
    await gql<{ createNote: { id: string } }>(
      env,
      'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      { input: { projectId, title, content: paragraphs(...texts) } },
      as,
    )
  ).createNote.id;
}

test('typing an existing tag’s name and pressing Enter applies that tag to the highlight', async ({ page, env }) => {
  const { email, as } = await researcher(env, 'tagger', 'Tagging Research');
  const projectId = await project(env, as, 'Onboarding study');
  const noteId = await note(env, as, projectId, 'Call with Ana', 'The setup wizard took an hour.');
  const board = (
    await gql<{ createTagBoard: { id: string } }>(
      env,
      'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
      { input: { projectId, title: 'Tags' } },
      as,
    )
  ).createTagBoard.id;
  const tagId = (
    await gql<{ createTag: { id: string } }>(
      env,
      'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
      { input: { boardId: board, title: 'Setup pain' } },
      as,
    )
  ).createTag.id;
  await gql(
    env,
    'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
    { input: { boardId: board, title: 'Setup pain points' } },
    as,
  );
  const { createHighlight } = await gql<{ createHighlight: { id: string } }>(
    env,
    'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
    { input: { noteId, startOffset: 4, endOffset: 16 } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
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
  const { highlightTags } = await gql<{ highlightTags: Array<{ id: string }> }>(
    env,
    'query($id: ID!) { highlightTags(highlightId: $id) { id } }',
    { id: createHighlight.id },
    as,
  );
  expect(highlightTags.map((t) => t.id)).toEqual([tagId]);
  const boards = await gql<{ tagBoards: Array<{ ungroupedTags: unknown[] }> }>(
    env,
    'query($p: ID) { tagBoards(projectId: $p) { ungroupedTags { id } } }',
    { p: projectId },
    as,
  );
  expect(boards.tagBoards[0]!.ungroupedTags).toHaveLength(2);
});

test('the home shows published insights, the latest published first', async ({ page, env }) => {
  const { email, as } = await researcher(env, 'publisher', 'Home Research');
  const projectId = await project(env, as, 'Pricing study');
  const make = async (title: string) =>
    (
      await gql<{ createInsight: { id: string } }>(
        env,
        'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        { input: { projectId, title } },
        as,
      )
    ).createInsight.id;
  const first = await make('Teams compare plans by seats');
  const second = await make('Annual billing needs a discount');
  await make('A draft nobody should see yet');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
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

test('notes are listed with what people scan for, sorted, and moved to the trash one or several at a time, with undo', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'lister', 'Lists Research');
  const projectId = await project(env, as, 'Churn study');
  const first = await note(
    env,
    as,
    projectId,
    'Interview with Ada',
    'Ada cancelled because the export was slow.',
    'She would come back for a faster export.',
  );
  const second = await note(env, as, projectId, 'Interview with Bo', 'Bo never found the settings page.');
  const third = await note(env, as, projectId, 'Interview with Cy', 'Cy loves the tags.');
  await gql(
    env,
    'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
    { input: { noteId: first, startOffset: 0, endOffset: 13 } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
    { input: { noteId: first, startOffset: 14, endOffset: 30 } },
    as,
  );
  const person = (
    await gql<{ createPerson: { id: string } }>(
      env,
      'mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }',
      { input: { name: 'Ada Lovelace' } },
      as,
    )
  ).createPerson.id;
  await gql(
    env,
    'mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id } }',
    { n: first, p: person },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${projectId}`);
  const list = page.getByRole('list', { name: 'Notes' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  // Newest first by default; the oldest first on request.
  await expect(list.getByRole('link', { name: /^Interview/ })).toHaveText([
    'Interview with Cy',
    'Interview with Bo',
    'Interview with Ada',
  ]);
  const ada = list.getByRole('listitem').filter({ hasText: 'Interview with Ada' });
  await expect(ada).toContainText(
    'Ada cancelled because the export was slow. She would come back for a faster export.',
  );
  await expect(ada).toContainText('Ada Lovelace');
  await expect(ada).toContainText('2 highlights');
  await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
  await expect(list.getByRole('link', { name: /^Interview/ })).toHaveText([
    'Interview with Ada',
    'Interview with Bo',
    'Interview with Cy',
  ]);
  await expectAccessible(page, 'the notes list');
  await shot(page, 'everyday-notes-list');

  // Two at once: both go to the trash, and Undo brings them back.
  await page.getByRole('checkbox', { name: 'Select “Interview with Ada”' }).check();
  await page.getByRole('checkbox', { name: 'Select “Interview with Bo”' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await shot(page, 'everyday-notes-selected');
  await page.getByRole('region', { name: 'Select notes' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('2 notes moved to the trash.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  const trashed = await gql<{ trash: Array<{ id: string }> }>(env, 'query { trash(type: NOTE) { id } }', {}, as);
  expect(trashed.trash.map((t) => t.id).sort()).toEqual([first, second].sort());
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('2 notes restored.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(3);
  expect((await gql<{ trash: unknown[] }>(env, 'query { trash(type: NOTE) { id } }', {}, as)).trash).toEqual([]);

  // One from its row's menu.
  await page.getByRole('button', { name: 'Actions for “Interview with Cy”' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page.getByText('1 note moved to the trash.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  expect(
    (await gql<{ trash: Array<{ id: string }> }>(env, 'query { trash(type: NOTE) { id } }', {}, as)).trash.map(
      (t) => t.id,
    ),
  ).toEqual([third]);
});

test('a note is moved to the trash from its own page and restored from the trash; highlights are tagged and trashed in bulk', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'trasher', 'Trash Research');
  const projectId = await project(env, as, 'Support study');
  const text = 'Refunds take too long and the form loses my text.';
  const noteId = await note(env, as, projectId, 'Ticket review', text);
  const mk = async (words: string) =>
    (
      await gql<{ createHighlight: { id: string } }>(
        env,
        'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
        { input: { noteId, startOffset: text.indexOf(words), endOffset: text.indexOf(words) + words.length } },
        as,
      )
    ).createHighlight.id;
  const h1 = await mk('Refunds');
  const h2 = await mk('loses my text.');
  const h3 = await mk('take too long');
  const board = (
    await gql<{ createTagBoard: { id: string } }>(
      env,
      'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
      { input: { projectId, title: 'Tags' } },
      as,
    )
  ).createTagBoard.id;
  const tagId = (
    await gql<{ createTag: { id: string } }>(
      env,
      'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
      { input: { boardId: board, title: 'Frustration' } },
      as,
    )
  ).createTag.id;

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${projectId}?tab=highlights`);
  const list = page.getByRole('list', { name: 'Highlights' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select highlight “Refunds”' }).check();
  await page.getByRole('checkbox', { name: 'Select highlight “loses my text.”' }).check();
  await page.getByRole('button', { name: 'Tag', exact: true }).click();
  const tagBox = page.getByRole('textbox', { name: 'Tag to apply' });
  await tagBox.fill('frustration');
  await tagBox.press('Enter');
  await expect(page.getByText('2 highlights tagged “Frustration”.')).toBeVisible();
  for (const [id, expected] of [
    [h1, [tagId]],
    [h2, [tagId]],
    [h3, []],
  ] as const) {
    const { highlightTags } = await gql<{ highlightTags: Array<{ id: string }> }>(
      env,
      'query($id: ID!) { highlightTags(highlightId: $id) { id } }',
      { id },
      as,
    );
    expect(highlightTags.map((t) => t.id)).toEqual(expected);
  }
  await expect(list.getByRole('listitem').filter({ hasText: 'Refunds' })).toContainText('Frustration');
  await expectAccessible(page, 'the highlights list');
  await shot(page, 'everyday-highlights-tagged');
  await page.getByRole('region', { name: 'Select highlights' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('2 highlights moved to the trash.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // The note itself, from its page: to the trash, then back from the trash page.
  await page.goto(`/data/${noteId}`);
  await page.getByRole('button', { name: 'More actions for this note' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}$`));
  await expect(page.getByText('1 note moved to the trash.')).toBeVisible();
  await expect(page.getByText('No notes yet')).toBeVisible();
  await page.goto('/settings/trash');
  await page.getByRole('button', { name: 'Restore Ticket review' }).click();
  await expect(page.getByRole('button', { name: 'Restore Ticket review' })).toHaveCount(0);
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByRole('list', { name: 'Notes' }).getByRole('link', { name: 'Ticket review' })).toBeVisible();
});

async function finishedExport(
  env: Parameters<typeof signUpByApi>[0],
  as: As,
  projectId: string,
): Promise<{ id: string; downloadUrl: string }> {
  const { exportProject } = await gql<{ exportProject: { id: string } }>(
    env,
    'mutation($p: ID!) { exportProject(projectId: $p) { id } }',
    { p: projectId },
    as,
  );
  for (let i = 0; i < 60; i++) {
    const { projectTransfer } = await gql<{ projectTransfer: { status: string; downloadUrl: string | null } }>(
      env,
      'query($id: ID!) { projectTransfer(id: $id) { status downloadUrl } }',
      { id: exportProject.id },
      as,
    );
    if (projectTransfer.status === 'COMPLETED')
      return { id: exportProject.id, downloadUrl: projectTransfer.downloadUrl! };
    if (projectTransfer.status === 'FAILED') throw new Error('The export failed');
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('The export did not finish');
}

test('a project is imported from an export or an uploaded archive under the title the person gives it, with live progress', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'importer', 'Import Research');
  const projectId = await project(env, as, 'Pricing study');
  await note(env, as, projectId, 'Call with Dee', 'Dee pays yearly.');
  const exported = await finishedExport(env, as, projectId);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/projects');
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(page).toHaveURL(/\/projects\/import$/);
  await page.getByText('From an export').click();
  await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Pricing study' });
  await expect(page.getByLabel('Export', { exact: true })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'New project’s title' })).toHaveValue('Pricing study (imported)');
  await expectAccessible(page, 'the import screen');
  await shot(page, 'everyday-import-form');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const progress = page.getByRole('region', { name: 'Import progress' });
  await expect(progress.getByRole('progressbar')).toBeVisible();
  await expect(progress).toContainText('“Pricing study (imported)” is imported', { timeout: 30_000 });
  await shot(page, 'everyday-import-done');
  await progress.getByRole('link', { name: 'Open the project' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Pricing study (imported)');
  await expect(page.getByRole('list', { name: 'Notes' }).getByRole('link', { name: 'Call with Dee' })).toBeVisible();

  // An archive downloaded earlier, uploaded under a title of the person's own.
  const archive = await fetch(`${env.url}${exported.downloadUrl}`, {
    headers: { authorization: `Bearer ${as.token}`, 'x-fieldbook-workspace': as.workspace },
  });
  expect(archive.status).toBe(200);
  await page.goto('/projects/import');
  await page.getByLabel('Export archive (.tar)').setInputFiles({
    name: 'Pricing-study.tar',
    mimeType: 'application/x-tar',
    buffer: Buffer.from(await archive.arrayBuffer()),
  });
  const title = page.getByRole('textbox', { name: 'New project’s title' });
  await expect(title).toHaveValue('Pricing study (imported)');
  await title.fill('x'.repeat(201));
  await expect(page.getByText('A project title can be at most 200 characters long.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
  await title.fill('Pricing, second copy');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Import progress' })).toContainText(
    '“Pricing, second copy” is imported',
    { timeout: 30_000 },
  );
  const { projects } = await gql<{ projects: Array<{ title: string }> }>(env, '{ projects { title } }', {}, as);
  expect(projects.map((p) => p.title).sort()).toEqual([
    'Pricing study',
    'Pricing study (imported)',
    'Pricing, second copy',
  ]);
});

test('folders are renamed, moved and trashed, projects starred, and views added, rearranged and deleted from the web app', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'organiser', 'Organising Research');
  const projectId = await project(env, as, 'Mobile study');
  const folder = (
    await gql<{ createFolder: { id: string } }>(env, 'mutation { createFolder(title: "Discovery") { id } }', {}, as)
  ).createFolder.id;
  const parent = (
    await gql<{ createFolder: { id: string } }>(env, 'mutation { createFolder(title: "2026") { id } }', {}, as)
  ).createFolder.id;

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/folders/${folder}`);
  await page.getByRole('button', { name: 'Folder actions' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Folder name' }).fill('Discovery interviews');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Discovery interviews');
  await page.getByRole('button', { name: 'Folder actions' }).click();
  await page.getByRole('menuitem', { name: 'Move to…' }).click();
  await page.getByLabel('Put it in').selectOption({ label: '2026' });
  await page.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByText('2026 / Discovery interviews')).toBeVisible();
  const moved = await gql<{ folder: { parentId: string; title: string } }>(
    env,
    'query($id: ID!) { folder(id: $id) { parentId title } }',
    { id: folder },
    as,
  );
  expect(moved.folder).toEqual({ parentId: parent, title: 'Discovery interviews' });
  // Its sections have loaded (a loader's label is not what axe should judge).
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expectAccessible(page, 'the folder page');
  await page.getByRole('button', { name: 'Folder actions' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(/\/projects\/folders$/);
  expect(
    (await gql<{ trash: Array<{ id: string }> }>(env, 'query { trash(type: FOLDER) { id } }', {}, as)).trash.map(
      (t) => t.id,
    ),
  ).toEqual([folder]);

  // Star the project.
  await page.goto(`/projects/${projectId}`);
  await page.getByRole('button', { name: 'Star this project' }).click();
  await expect(page.getByRole('button', { name: 'Unstar this project' })).toHaveAttribute('aria-pressed', 'true');
  expect(
    (
      await gql<{ project: { starred: boolean } }>(
        env,
        'query($id: ID!) { project(id: $id) { starred } }',
        { id: projectId },
        as,
      )
    ).project.starred,
  ).toBe(true);

  // Two views: added from the project, the second moved before the first, then deleted.
  for (const [title, layout] of [
    ['Interview board', 'Board'],
    ['Quote canvas', 'Canvas'],
  ] as const) {
    await page.goto(`/projects/${projectId}`);
    await page.getByRole('navigation', { name: 'Project views' }).getByRole('button', { name: 'Add view' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill(title);
    await page.getByLabel('Layout').selectOption({ label: layout });
    await shot(page, 'everyday-add-view');
    await page.getByRole('dialog').getByRole('button', { name: 'Add view' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  const views = async () =>
    (
      await gql<{ projectViews: Array<{ title: string; layout: string }> }>(
        env,
        'query($p: ID!) { projectViews(projectId: $p) { title layout } }',
        { p: projectId },
        as,
      )
    ).projectViews;
  expect(await views()).toEqual([
    { title: 'Interview board', layout: 'BOARD' },
    { title: 'Quote canvas', layout: 'CANVAS' },
  ]);
  // On the canvas: a text is added, moved, hidden and shown again, then removed.
  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByRole('textbox', { name: 'Text' }).fill('Pricing comes up in every call');
  await page.getByRole('button', { name: 'Add to canvas' }).click();
  const menu = page.getByRole('button', { name: 'Actions for text “Pricing comes up in every call”' });
  await menu.click();
  await page.getByRole('menuitem', { name: 'Move right' }).click();
  await expect(page.getByText('1 item on the canvas')).toBeVisible();
  await menu.click();
  await page.getByRole('menuitem', { name: 'Hide' }).click();
  await expect(page.getByText('0 items on the canvas')).toBeVisible();
  await page.getByRole('button', { name: 'Show 1 hidden item' }).click();
  await expect(page.getByText('1 item on the canvas')).toBeVisible();
  await expectAccessible(page, 'a canvas view with its item menu');
  await menu.click();
  await page.getByRole('menuitem', { name: 'Remove from canvas' }).click();
  await expect(page.getByText('0 items on the canvas')).toBeVisible();

  await page.getByRole('button', { name: 'View actions' }).click();
  await page.getByRole('menuitem', { name: 'Move earlier' }).click();
  await expect.poll(async () => (await views()).map((v) => v.title)).toEqual(['Quote canvas', 'Interview board']);
  await page.getByRole('button', { name: 'View actions' }).click();
  await page.getByRole('menuitem', { name: 'Show as table' }).click();
  await expect.poll(async () => (await views())[0]!.layout).toBe('TABLE');
  await page.getByRole('button', { name: 'View actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete view' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}$`));
  expect((await views()).map((v) => v.title)).toEqual(['Interview board']);
});

test('notifications are read from the header’s bell and their settings changed on the account page', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'notified', 'Notified Research');
  const projectId = await project(env, as, 'Retention study');
  await finishedExport(env, as, projectId);
  await finishedExport(env, as, projectId);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const bell = page.getByRole('button', { name: 'Notifications, 2 unread' });
  await bell.click();
  await expect(
    page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('button', { name: /The export of “Retention study” is ready/ }),
  ).toHaveCount(2);
  await expectAccessible(page, 'the notification menu');
  await shot(page, 'everyday-notifications');
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  const { notifications } = await gql<{ notifications: Array<{ read: boolean }> }>(
    env,
    '{ notifications { read } }',
    {},
    as,
  );
  expect(notifications.map((n) => n.read)).toEqual([true, true]);
  await page.keyboard.press('Escape');

  await page.goto('/settings/user/account');
  const noEmail = page.getByRole('switch', { name: 'No email' });
  await expect(noEmail).not.toBeChecked();
  await noEmail.click();
  await expect(noEmail).toBeChecked();
  await expect
    .poll(
      async () =>
        (
          await gql<{ notificationSettings: { emailNotificationsDisabled: boolean } }>(
            env,
            '{ notificationSettings { emailNotificationsDisabled } }',
            {},
            as,
          )
        ).notificationSettings.emailNotificationsDisabled,
    )
    .toBe(true);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'No email' })).toBeChecked();
  await expectAccessible(page, 'the account page with notification settings');
  await shot(page, 'everyday-notification-settings');
});

test('tags, groups and boards, field names and options, and people are changed and removed from their screens', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'curator', 'Curating Research');
  const projectId = await project(env, as, 'Billing study');
  const noteId = await note(env, as, projectId, 'Call with Eve', 'Eve wants invoices in euros.');
  const highlightId = (
    await gql<{ createHighlight: { id: string } }>(
      env,
      'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
      { input: { noteId, startOffset: 0, endOffset: 3 } },
      as,
    )
  ).createHighlight.id;
  const eve = (
    await gql<{ createPerson: { id: string } }>(
      env,
      'mutation($input: CreatePersonInput!) { createPerson(input: $input) { id } }',
      { input: { name: 'Eve Euro' } },
      as,
    )
  ).createPerson.id;
  await gql(
    env,
    'mutation($n: ID!, $p: ID!) { addPersonToNote(noteId: $n, personId: $p) { id } }',
    { n: noteId, p: eve },
    as,
  );
  const board = (
    await gql<{ createTagBoard: { id: string } }>(
      env,
      'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
      { input: { projectId, title: 'Tags' } },
      as,
    )
  ).createTagBoard.id;
  const needs = (
    await gql<{ createTagGroup: { id: string } }>(
      env,
      'mutation($input: CreateTagGroupInput!) { createTagGroup(input: $input) { id } }',
      { input: { boardId: board, title: 'Needs' } },
      as,
    )
  ).createTagGroup.id;
  await gql(
    env,
    'mutation($input: CreateTagGroupInput!) { createTagGroup(input: $input) { id } }',
    { input: { boardId: board, title: 'Pains' } },
    as,
  );
  const currency = (
    await gql<{ createTag: { id: string } }>(
      env,
      'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
      { input: { boardId: board, title: 'Currency' } },
      as,
    )
  ).createTag.id;
  await gql(
    env,
    'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
    { input: { boardId: board, title: 'Obsolete' } },
    as,
  );
  await gql(
    env,
    'mutation($input: CreateFieldInput!) { createField(input: $input) { id } }',
    {
      input: {
        objectType: 'NOTE',
        projectId,
        type: 'SELECT',
        label: 'Plan',
        options: [{ label: 'Free' }, { label: 'Tema' }, { label: 'Old' }],
      },
    },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Tags: one moved into a group, one deleted, the groups reordered, the board renamed.
  await page.goto(`/projects/${projectId}/tags`);
  await page.getByRole('button', { name: 'Actions for tag Currency' }).click();
  await page.getByRole('menuitem', { name: 'Move to Needs' }).click();
  await expect(page.getByRole('region', { name: 'Needs' }).getByRole('link', { name: 'Currency' })).toBeVisible();
  await page.getByRole('button', { name: 'Actions for tag Obsolete' }).click();
  await page.getByRole('menuitem', { name: 'Delete tag' }).click();
  await expect(page.getByRole('link', { name: 'Obsolete' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Actions for group Pains' }).click();
  await page.getByRole('menuitem', { name: 'Move up' }).click();
  await expect(
    page
      .getByRole('region')
      .filter({ has: page.getByText(/^(Needs|Pains)$/) })
      .first(),
  ).toHaveAccessibleName('Pains');
  await page.getByRole('button', { name: 'Actions for board Tags' }).click();
  await page.getByRole('menuitem', { name: 'Rename board' }).click();
  await page.getByRole('dialog', { name: 'Rename board' }).getByRole('textbox', { name: 'Name' }).fill('Billing tags');
  await page.getByRole('dialog', { name: 'Rename board' }).getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { name: 'Billing tags' })).toBeVisible();
  await expectAccessible(page, 'the tag board with its menus');
  await shot(page, 'everyday-tag-board');
  const boards = await gql<{
    tagBoards: Array<{
      title: string;
      groups: Array<{ id: string; title: string; tags: Array<{ id: string }> }>;
      ungroupedTags: unknown[];
    }>;
  }>(
    env,
    'query($p: ID) { tagBoards(projectId: $p) { title groups { id title tags { id } } ungroupedTags { id } } }',
    { p: projectId },
    as,
  );
  expect(boards.tagBoards[0]!.title).toBe('Billing tags');
  expect(boards.tagBoards[0]!.groups.map((g) => g.title)).toEqual(['Pains', 'Needs']);
  expect(boards.tagBoards[0]!.groups.find((g) => g.id === needs)!.tags.map((t) => t.id)).toEqual([currency]);
  expect(boards.tagBoards[0]!.ungroupedTags).toEqual([]);
  await page.getByRole('button', { name: 'Actions for group Pains' }).click();
  await page.getByRole('menuitem', { name: 'Delete group' }).click();
  await expect(page.getByRole('region', { name: 'Pains' })).toHaveCount(0);

  // Fields: the field renamed, an option renamed and another deleted.
  await page.goto(`/projects/${projectId}/settings/note-fields`);
  await page.getByRole('button', { name: 'Rename field Plan' }).click();
  await page.getByRole('textbox', { name: 'Field name' }).fill('Pricing plan');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Pricing plan', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Option Tema: rename or delete' }).click();
  await page.getByRole('menuitem', { name: 'Rename option' }).click();
  await page.getByRole('textbox', { name: 'Option name' }).fill('Team');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Option Old: rename or delete' }).click();
  await page.getByRole('menuitem', { name: 'Delete option' }).click();
  await expect(page.getByRole('button', { name: 'Option Old: rename or delete' })).toHaveCount(0);
  await expectAccessible(page, 'the note fields with their menus');
  const { fieldSet } = await gql<{ fieldSet: Array<{ label: string; options: Array<{ label: string }> }> }>(
    env,
    'query($p: ID) { fieldSet(objectType: NOTE, projectId: $p) { label options { label } } }',
    { p: projectId },
    as,
  );
  expect(fieldSet.map((f) => [f.label, f.options.map((o) => o.label)])).toEqual([['Pricing plan', ['Free', 'Team']]]);

  // The highlight says who said it, then the person goes to the trash.
  await page.goto(`/data/${noteId}`);
  await page.getByRole('button', { name: 'People of highlight “Eve”' }).click();
  await page.getByRole('checkbox', { name: 'Eve Euro' }).check();
  await expect
    .poll(async () =>
      (
        await gql<{ personHighlights: { nodes: Array<{ id: string }> } }>(
          env,
          'query($p: ID!) { personHighlights(personId: $p) { nodes { id } } }',
          { p: eve },
          as,
        )
      ).personHighlights.nodes.map((h) => h.id),
    )
    .toEqual([highlightId]);
  await page.getByRole('checkbox', { name: 'Eve Euro' }).uncheck();
  await expect
    .poll(
      async () =>
        (
          await gql<{ personHighlights: { nodes: unknown[] } }>(
            env,
            'query($p: ID!) { personHighlights(personId: $p) { nodes { id } } }',
            { p: eve },
            as,
          )
        ).personHighlights.nodes,
    )
    .toEqual([]);
  await page.keyboard.press('Escape');
  await page.goto(`/contacts/${eve}`);
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  expect(
    (await gql<{ trash: Array<{ id: string }> }>(env, 'query { trash(type: PERSON) { id } }', {}, as)).trash.map(
      (t) => t.id,
    ),
  ).toEqual([eve]);
});

test('Ctrl+K finds pages, actions and notes and opens them from the keyboard; / goes to search; ? lists the shortcuts', async ({
  page,
  env,
}) => {
  const { email, as } = await researcher(env, 'keyboard', 'Keyboard Research');
  const projectId = await project(env, as, 'Onboarding study');
  const noteId = await note(env, as, projectId, 'Interview with Quentin', 'Quentin found the wizard slow.');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // The workspace app (which listens for the shortcut) is drawn.
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: 'Find a page, action, note, insight, project, tag or person' });
  await expect(box).toBeFocused();
  await box.fill('import');
  await expect(page.getByRole('option', { name: /Import a project/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/projects\/import$/);

  // A note found by search, chosen with the arrow keys.
  await page.keyboard.press('Control+k');
  await box.fill('quentin');
  const found = page.getByRole('option', { name: /Interview with Quentin/ });
  await expect(found).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, 'the command palette');
  await shot(page, 'everyday-command-palette');
  const options = page.getByRole('option');
  const index = (await options.allTextContents()).findIndex((t) => t.includes('Interview with Quentin'));
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(found).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/data/${noteId}$`));

  // Typing in the note is not a shortcut; outside a text box, / goes to search and ? shows the list.
  await page.getByRole('textbox', { name: 'Note title' }).press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await shot(page, 'everyday-shortcuts');
  await page.keyboard.press('Escape');
  await page.keyboard.press('/');
  await expect(page).toHaveURL(/\/search/);
  await expect(page.getByRole('searchbox', { name: 'Search text' })).toBeFocused();
});
