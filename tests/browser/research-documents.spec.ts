import type { Page } from '@playwright/test';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

/** Selects `text` inside the editor the way a person dragging over it would. */
async function selectInEditor(page: Page, label: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: label }).evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      (root as HTMLElement).focus();
      const selection = window.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    throw new Error(`"${wanted}" is not in the editor`);
  }, text);
}

test('a note is written, highlighted and tagged; an insight cites it, is published and shared by link', async ({
  page,
  browser,
  env,
}) => {
  const email = uniqueEmail('researcher');
  const token = await signUpByApi(env, email, 'Rita Researcher');
  const workspace = await createWorkspaceByApi(env, token, 'Documents Research');
  const viewerEmail = uniqueEmail('viewer');
  await addMemberByApi(env, { token, workspaceId: workspace.id }, viewerEmail, 'VIEWER');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Checkout study' } },
    as,
  );
  const projectId = createProject.id;
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { projectId } },
    as,
  );
  const noteId = createNote.id;

  // Write the note in the editor; it saves itself.
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('textbox', { name: 'Note title' }).fill('Interview with Sam');
  const content = page.getByRole('textbox', { name: 'Note content' });
  await content.click();
  await page.keyboard.type('Sam runs a bakery.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('The checkout asks for my address twice, so I gave up.');
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  const saved = await gql<{ note: { title: string; contentText: string } }>(
    env,
    'query($id: ID!) { note(id: $id) { title contentText } }',
    { id: noteId },
    as,
  );
  expect(saved.note).toEqual({
    title: 'Interview with Sam',
    contentText: 'Sam runs a bakery.\nThe checkout asks for my address twice, so I gave up.',
  });

  // Select text and highlight it: the offsets point at the same words in the server's text.
  await selectInEditor(page, 'Note content', 'asks for my address twice');
  await page.getByRole('button', { name: 'Highlight', exact: true }).click();
  await expect(page.getByText('Highlighted. Add tags?')).toBeVisible();
  await expect(page.locator('.fb-highlight')).toHaveText('asks for my address twice');
  const { note } = await gql<{
    note: { highlights: Array<{ id: string; text: string; startOffset: number; endOffset: number }> };
  }>(env, 'query($id: ID!) { note(id: $id) { highlights { id text startOffset endOffset } } }', { id: noteId }, as);
  expect(note.highlights).toHaveLength(1);
  expect(note.highlights[0]).toMatchObject({ text: 'asks for my address twice', startOffset: 32, endOffset: 57 });

  // Tag it with a new tag.
  await page.getByRole('textbox', { name: 'Find or create a tag' }).fill('Checkout friction');
  await page.getByRole('button', { name: 'Create tag “Checkout friction”' }).click();
  await expect(page.getByRole('checkbox', { name: 'Checkout friction' })).toBeChecked();
  await shot(page, 'note-highlight-tagged');
  await page.getByRole('button', { name: 'Done' }).click();
  const { highlightTags } = await gql<{ highlightTags: Array<{ title: string }> }>(
    env,
    'query($id: ID!) { highlightTags(highlightId: $id) { title } }',
    { id: note.highlights[0]!.id },
    as,
  );
  expect(highlightTags.map((t) => t.title)).toEqual(['Checkout friction']);
  await page.getByRole('tab', { name: 'Tags' }).click();
  await expect(page.getByRole('list', { name: 'Tags' })).toContainText('Checkout friction');
  // The note itself is tagged by typing a tag's name and pressing Enter, and the tag is taken off again.
  const noteTags = page.getByRole('list', { name: 'Tags on this note', exact: true });
  const ownTags = async () =>
    (
      await gql<{ note: { tags: Array<{ title: string }> } }>(
        env,
        'query($id: ID!) { note(id: $id) { tags { title } } }',
        { id: noteId },
        as,
      )
    ).note.tags.map((t) => t.title);
  await page.getByRole('textbox', { name: 'Find or create a tag' }).fill('checkout friction');
  await page.keyboard.press('Enter');
  await expect(noteTags).toHaveText('Checkout friction');
  await page.getByRole('textbox', { name: 'Find or create a tag' }).fill('Pricing');
  await page.keyboard.press('Enter');
  await expect(noteTags.getByRole('listitem')).toHaveText(['Checkout friction', 'Pricing']);
  expect((await ownTags()).sort()).toEqual(['Checkout friction', 'Pricing']);
  expect(await seriousViolations(page), 'axe on the note tags').toEqual([]);
  await shot(page, 'note-own-tags');
  await page.getByRole('button', { name: 'Remove tag Pricing' }).click();
  await expect(noteTags).toHaveText('Checkout friction');
  expect(await ownTags()).toEqual(['Checkout friction']);
  await page.getByRole('tab', { name: /Highlights/ }).click();
  await expect(page.getByRole('list', { name: 'Highlights' })).toContainText('asks for my address twice');
  await shot(page, 'note-page');
  expect(await seriousViolations(page), 'axe on the note page').toEqual([]);

  // Comment with an @mention, and link the person interviewed.
  await page.getByRole('tab', { name: 'Comments' }).click();
  const box = page.getByRole('combobox', { name: 'Add a comment' });
  await box.fill('Worth a follow-up, @Memb');
  await page.getByRole('option', { name: /Member viewer/ }).click();
  await box.pressSequentially('what do you think?');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Comments' })).toContainText(
    'Worth a follow-up, @Member viewer what do you think?',
  );
  const { comments } = await gql<{ comments: { nodes: Array<{ body: string; mentions: Array<{ name: string }> }> } }>(
    env,
    'query($id: ID!) { comments(objectType: NOTE, objectId: $id) { nodes { body mentions { name } } } }',
    { id: noteId },
    as,
  );
  expect(comments.nodes[0]!.mentions).toEqual([{ name: 'Member viewer' }]);
  expect(comments.nodes[0]!.body).toMatch(
    /^Worth a follow-up, @\[Member viewer\]\([0-9a-f-]{36}\) what do you think\?$/,
  );
  await shot(page, 'note-comments');
  await page.getByRole('tab', { name: 'Contacts' }).click();
  await page.getByRole('textbox', { name: 'Add a person' }).fill('Sam Baker');
  await page.getByRole('option', { name: 'Add “Sam Baker” as a new person' }).click();
  await expect(page.getByRole('list', { name: 'People in this note' })).toContainText('Sam Baker');
  await shot(page, 'note-contacts');
  expect(await seriousViolations(page), 'axe on the note contacts').toEqual([]);

  // An insight that cites the highlight, published and shared by link.
  const { createInsight } = await gql<{ createInsight: { id: string } }>(
    env,
    'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
    { input: { projectId } },
    as,
  );
  await page.goto(`/insights/${createInsight.id}`);
  await page.getByRole('textbox', { name: 'Insight title' }).fill('Checkout repeats questions');
  await page.getByRole('textbox', { name: 'Insight content' }).click();
  await page.keyboard.type('Customers abandon the checkout when it asks for the same thing twice.');
  await page.getByRole('button', { name: 'Add highlight' }).click();
  await page
    .getByRole('dialog', { name: 'Cite a highlight' })
    .getByRole('button', { name: /Cite “asks for my address twice/ })
    .click();
  await expect(page.getByRole('dialog', { name: 'Cite a highlight' })).toBeHidden();
  await expect(page.locator('.fb-citation')).toContainText('asks for my address twice');
  await expect(page.locator('.fb-citation')).toContainText('From Interview with Sam');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Saved$/ })).toBeVisible();
  await shot(page, 'insight-page');
  expect(await seriousViolations(page), 'axe on the insight page').toEqual([]);

  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this insight' });
  await dialog.getByRole('button', { name: 'Create public link' }).click();
  const linkBox = dialog.getByRole('textbox', { name: 'Public link' });
  await expect(linkBox).toHaveValue(new RegExp(`^${env.url}/p/[A-Za-z0-9]{12}$`));
  await shot(page, 'share-dialog');
  expect(await seriousViolations(page), 'axe on the share dialog').toEqual([]);
  const link = await linkBox.inputValue();
  const shareToken = link.split('/').pop()!;

  // Signed out, the link shows the insight and nothing else of the workspace.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Checkout repeats questions' })).toBeVisible();
  await expect(
    visitor.getByText('Customers abandon the checkout when it asks for the same thing twice.'),
  ).toBeVisible();
  const citation = visitor.locator('.fb-citation');
  await expect(citation).toContainText('asks for my address twice');
  await expect(citation).toContainText('From Interview with Sam');
  await expect(citation.getByRole('link')).toHaveCount(0);
  await expect(visitor.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  await expect(visitor.getByText('Documents Research')).toHaveCount(0);
  await expect(visitor.getByText('Sam runs a bakery.')).toHaveCount(0);
  await expect(visitor.getByRole('textbox', { name: /content/ })).toHaveAttribute('contenteditable', 'false');
  await shot(visitor, 'public-insight');
  expect(await seriousViolations(visitor), 'axe on the public page').toEqual([]);
  const projects = await visitor.evaluate(async (t) => {
    const res = await fetch('/api/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-share-token': t },
      body: JSON.stringify({ query: '{ projects { id title } }' }),
    });
    return (await res.json()) as { data?: unknown; errors?: Array<{ message: string }> };
  }, shareToken);
  expect(projects.errors?.length).toBeGreaterThan(0);
  expect(projects.data ?? null).toBeNull();
  await visitor.goto('/p/AAAAAAAAAAAA');
  await expect(visitor.getByRole('heading', { name: 'This link isn’t available' })).toBeVisible();
  await expect(
    visitor.getByText('This link does not exist or is no longer shared. Ask whoever sent it for a new one.'),
  ).toBeVisible();
  await shot(visitor, 'public-dead-link');

  // With public links turned off, sharing is refused with the server's words and the link stops working.
  await gql(
    env,
    'mutation($input: UpdateWorkspaceInput!) { updateWorkspace(input: $input) { id } }',
    { input: { publicLinksDisabled: true } },
    as,
  );
  await dialog.getByRole('button', { name: 'Create another link' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.',
  );
  await shot(page, 'share-refused');
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: 'This link isn’t available' })).toBeVisible();
  await anonymous.close();

  // A viewer reads the note but cannot edit or highlight it.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signInWithPassword(viewer, viewerEmail);
  await expect(viewer).toHaveURL(WORKSPACE_HOME);
  await viewer.goto(`/data/${noteId}`);
  const readOnly = viewer.getByRole('textbox', { name: 'Note content' });
  await expect(readOnly).toContainText('The checkout asks for my address twice');
  await expect(readOnly).toHaveAttribute('contenteditable', 'false');
  await expect(viewer.getByRole('textbox', { name: 'Note title' })).toHaveAttribute('readonly', '');
  await expect(viewer.getByText('Read only')).toBeVisible();
  await selectInEditor(viewer, 'Note content', 'bakery');
  await expect(viewer.getByRole('button', { name: 'Highlight', exact: true })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Share' })).toHaveCount(0);
  await shot(viewer, 'note-viewer');
  await viewerContext.close();
});
