import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const paragraphs = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

interface SavedView {
  sort: Array<{ field: string; direction: string }>;
  columns: Array<{ field: string; width: number | null; sticky: boolean; wrapped: boolean }>;
  filter: { forms: unknown[] } | null;
}

async function workshop(env: Parameters<typeof gql>[0]) {
  const email = uniqueEmail('views');
  const token = await signUpByApi(env, email, 'Vera Views');
  const workspace = await createWorkspaceByApi(env, token, 'Views Workshop');
  const as = { token, workspace: workspace.id };
  const call = <T>(query: string, variables: Record<string, unknown> = {}) => gql<T>(env, query, variables, as);
  const projectId = (
    await call<{ createProject: { id: string } }>(
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Checkout study' } },
    )
  ).createProject.id;
  const note = async (title: string) =>
    (
      await call<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId, title, content: paragraphs(`${title}: the price was unclear.`) } },
      )
    ).createNote.id;
  const ana = await note('Call with Ana');
  await note('Call with Ben');
  await note('Call with Cai');
  const insight = async (title: string) =>
    (
      await call<{ createInsight: { id: string } }>(
        'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        { input: { projectId, title } },
      )
    ).createInsight.id;
  const pricey = await insight('Prices surprise people');
  await call('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: pricey });
  const stage = (
    await call<{ createField: { id: string; options: Array<{ id: string; label: string }> } }>(
      'mutation($input: CreateFieldInput!) { createField(input: $input) { id options { id label } } }',
      {
        input: {
          objectType: 'NOTE',
          projectId,
          type: 'SELECT',
          label: 'Stage',
          maxSelectable: 1,
          options: [
            { label: 'To do', color: '#868e96' },
            { label: 'Done', color: '#2f9e44' },
          ],
        },
      },
    )
  ).createField;
  const option = (label: string) => stage.options.find((o) => o.label === label)!.id;
  const saved = async (id: string) =>
    (
      await call<{ projectView: SavedView }>(
        'query($id: ID!) { projectView(id: $id) { sort { field direction } columns { field width sticky wrapped } filter } }',
        { id },
      )
    ).projectView;
  const stageOf = async (id: string) =>
    (
      await call<{ fieldValues: Array<{ field: { id: string }; value: unknown }> }>(
        'query($id: ID!) { fieldValues(objectType: NOTE, objectId: $id) { field { id } value } }',
        { id },
      )
    ).fieldValues.find((v) => v.field.id === stage.id)?.value ?? null;

  return { email, call, projectId, ana, stage, option, saved, stageOf };
}

test('a table view is added, edited in place, resized, wrapped, sorted and filtered, then presented', async ({
  page,
  env,
}) => {
  const { email, call, projectId, ana, stage, option, saved, stageOf } = await workshop(env);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Add view: a table of notes, opened at once.
  await page.goto(`/projects/${projectId}`);
  await page.getByRole('navigation', { name: 'Project views' }).getByRole('button', { name: 'Add view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a view' });
  await dialog.getByLabel('Title').fill('Call tracker');
  await dialog.getByLabel('Layout').selectOption('TABLE');
  await dialog.getByLabel('Shows').selectOption('NOTE');
  await dialog.getByRole('button', { name: 'Add view' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Call tracker' })).toBeVisible();
  const viewId = /\/v\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const table = page.getByRole('table', { name: 'Call tracker' });
  await expect(table.getByRole('row')).toHaveCount(4);

  // Columns: show Stage; edit a title and a stage in place.
  await page.getByRole('toolbar', { name: 'View settings' }).getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Stage' }).click();
  await expect(page.getByRole('checkbox', { name: 'Stage' })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(table.getByRole('columnheader', { name: 'Stage' })).toBeVisible();
  const anaRow = table.locator(`tr[data-row-id="${ana}"]`);
  await anaRow.locator('td[data-cell="Title"]').dblclick();
  await anaRow.getByRole('textbox', { name: 'Title' }).fill('Call with Ana (pricing)');
  await page.keyboard.press('Enter');
  await expect(anaRow.locator('td[data-cell="Title"]')).toHaveText('Call with Ana (pricing)');
  await expect
    .poll(
      async () =>
        (await call<{ note: { title: string } }>('query($id: ID!) { note(id: $id) { title } }', { id: ana })).note
          .title,
    )
    .toBe('Call with Ana (pricing)');
  const stageCell = anaRow.locator(`td[data-cell="field.${stage.id}"]`);
  await stageCell.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('option', { name: 'Done' }).click();
  await expect(stageCell).toHaveText('Done');
  await expect.poll(() => stageOf(ana)).toEqual([option('Done')]);

  // Resize with the keyboard, wrap a column, sort from a header: all saved with the view.
  const handle = table.getByRole('separator', { name: 'Resize the Title column' });
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await saved(viewId)).columns.find((c) => c.field === 'Title')?.width).toBe(352);
  await table.getByRole('button', { name: 'Options for the Tags column' }).click();
  await page.getByRole('menuitem', { name: 'Wrap text' }).click();
  await expect.poll(async () => (await saved(viewId)).columns.find((c) => c.field === 'Tags')?.wrapped).toBe(true);
  await table.getByRole('button', { name: 'Options for the Title column' }).click();
  // The Tags column's menu may still be closing: choose from the Title column's own menu.
  await page
    .getByRole('menu', { name: 'Options for the Title column' })
    .getByRole('menuitem', { name: 'Sort descending' })
    .click();
  await expect(table.locator('td[data-cell="Title"]')).toHaveText([
    'Call with Cai',
    'Call with Ben',
    'Call with Ana (pricing)',
  ]);
  // The rows are sorted on screen at once; the view is saved after, like its widths and wraps.
  await expect.poll(async () => (await saved(viewId)).sort).toEqual([{ field: 'Title', direction: 'DESC' }]);
  await expectAccessible(page, 'a table view');
  await shot(page, 'views-table');

  // Filter with the search filter builder: only titles containing "Ben".
  await page.getByRole('toolbar', { name: 'View settings' }).getByRole('button', { name: 'Filter' }).click();
  const drawer = page.getByRole('dialog', { name: 'Filter this view' });
  await drawer.getByRole('button', { name: 'Add condition' }).click();
  await drawer.getByRole('textbox', { name: /value/i }).first().fill('Ben');
  await shot(page, 'views-filter');
  await drawer.getByRole('button', { name: 'Apply filter' }).click();
  await expect(table.locator('td[data-cell="Title"]')).toHaveText(['Call with Ben']);
  expect((await saved(viewId)).filter?.forms).toHaveLength(1);

  // Presentation: the table view's rows one per slide, arrows to move, Escape to leave.
  await page.goto(`/projects/${projectId}/v/${viewId}`);
  await page.getByRole('link', { name: 'Present' }).click();
  const deck = page.getByRole('main', { name: 'Presentation: Call tracker' });
  await expect(deck.getByRole('heading', { name: 'Call with Ben' })).toBeVisible();
  await expect(deck.getByRole('status')).toHaveText('1 of 1');
  await expectAccessible(page, 'a presentation');
  await shot(page, 'views-present');
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`/v/${viewId}$`));
  await page.goto(`/projects/${projectId}/insights/present`);
  await expect(page.getByRole('heading', { name: 'Prices surprise people' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/insights/present$`));
});

test('a board moves cards between groups by dragging or from the keyboard, and a canvas is laid out from the picker', async ({
  page,
  env,
}) => {
  const { email, call, projectId, ana, stage, option, stageOf } = await workshop(env);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const dialog = page.getByRole('dialog', { name: 'Add a view' });
  await call(
    'mutation($o: ID!, $f: ID!, $d: [String!]) { setFieldValue(objectType: NOTE, objectId: $o, fieldId: $f, optionIds: $d) { value } }',
    { o: ana, f: stage.id, d: [option('Done')] },
  );
  // BOARD by Stage: drag a card to another column, and move one with the keyboard's menu.
  const boardId = (
    await call<{ createProjectView: { id: string } }>(
      'mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
      {
        p: projectId,
        input: { title: 'Stages', layout: 'BOARD', objectType: 'NOTE', group: { kind: 'SELECT', fieldId: stage.id } },
      },
    )
  ).createProjectView.id;
  await page.goto(`/projects/${projectId}/v/${boardId}`);
  const column = (title: string) => page.getByRole('region', { name: `${title} column` });
  await expect(column('Done').getByRole('article')).toHaveText([/Call with Ana/]);
  await expect(column('No value').getByRole('article')).toHaveCount(2);
  const ben = column('No value').getByRole('article', { name: 'Call with Ben' });
  await ben.dragTo(column('To do'));
  await expect(column('To do').getByRole('article')).toHaveText([/Call with Ben/]);
  await page.getByRole('button', { name: 'Move “Call with Ana” to…' }).click();
  await page.getByRole('menuitem', { name: 'To do' }).click();
  await expect(column('To do').getByRole('article')).toHaveCount(2);
  await expect.poll(() => stageOf(ana)).toEqual([option('To do')]);
  // Hide the uncategorized column.
  await page
    .getByRole('toolbar', { name: 'View settings' })
    .getByRole('button', { name: /^Group/ })
    .click();
  await page.getByRole('switch', { name: /Hide uncategorized/ }).click();
  await expect(column('No value')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expectAccessible(page, 'a board view');
  await shot(page, 'views-board');

  // CANVAS: a note from the picker, a group with a colour, a heading and a rectangle.
  await page.goto(`/projects/${projectId}`);
  await page.getByRole('navigation', { name: 'Project views' }).getByRole('button', { name: 'Add view' }).click();
  await dialog.getByLabel('Title').fill('Synthesis');
  await dialog.getByLabel('Layout').selectOption('CANVAS');
  await dialog.getByRole('button', { name: 'Add view' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Synthesis' })).toBeVisible();
  const area = page.getByRole('region', { name: 'Canvas, scroll to see every item' });
  await page.getByRole('button', { name: 'Add group' }).click();
  await page.getByLabel('Title').fill('Pricing pains');
  await page.getByRole('button', { name: 'Add group' }).last().click();
  await expect(area.getByRole('group', { name: 'Group: Pricing pains' })).toBeVisible();
  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByLabel('Format').selectOption('H1');
  await page.getByRole('textbox', { name: 'Text' }).fill('Why people drop out');
  await page.getByRole('button', { name: 'Add to canvas' }).click();
  await expect(area.getByRole('heading', { name: 'Why people drop out' })).toBeVisible();
  await area.getByRole('button', { name: 'Actions for text “Why people drop out”' }).click();
  await page.getByRole('menuitem', { name: 'Edit text' }).click();
  await page.getByRole('dialog', { name: 'Edit text' }).getByLabel('Text').fill('Why people leave');
  await page.getByRole('dialog', { name: 'Edit text' }).getByRole('button', { name: 'Save' }).click();
  await expect(area.getByRole('heading', { name: 'Why people leave' })).toBeVisible();
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByRole('textbox', { name: 'Note' }).click();
  await page.getByRole('option', { name: 'Call with Ben' }).click();
  await page.getByRole('button', { name: 'Add to canvas' }).click();
  await expect(area.getByRole('article', { name: 'Note: Call with Ben' })).toBeVisible();
  await page.getByRole('button', { name: 'Add rectangle' }).click();
  await expect(area.getByRole('img', { name: 'Rectangle' })).toBeVisible();
  await expectAccessible(page, 'a canvas view');
  await shot(page, 'views-canvas');
});

test('views show the columns people scan, draw only the cards in sight, and resize canvas items', async ({
  page,
  env,
}) => {
  const { email, call, projectId, ana } = await workshop(env);
  // Many notes, so a list shows only some of them at once.
  const many = 40;
  for (let i = 0; i < many; i += 15) {
    await Promise.all(
      Array.from({ length: Math.min(15, many - i) }, (_, k) =>
        call('mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }', {
          input: {
            projectId,
            title: `Survey answer ${String(i + k + 1).padStart(2, '0')}`,
            content: paragraphs('Setup took a whole afternoon.'),
          },
        }),
      ),
    );
  }
  // A note with a picture, a highlight tagged and cited by an insight with a summary.
  await call('mutation($id: ID!, $input: UpdateNoteInput!) { updateNote(id: $id, input: $input) { id } }', {
    id: ana,
    input: {
      content: {
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Ana found the price unclear at checkout.' }] },
          { type: 'image', attrs: { src: `${env.url}/favicon.svg` } },
        ],
      },
    },
  });
  const highlight = (
    await call<{ createHighlight: { id: string } }>(
      'mutation($n: ID!) { createHighlight(input: { noteId: $n, startOffset: 0, endOffset: 24 }) { id } }',
      { n: ana },
    )
  ).createHighlight.id;
  const board = (
    await call<{ createTagBoard: { id: string } }>(
      'mutation($p: ID!) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
      { p: projectId },
    )
  ).createTagBoard.id;
  const tag = (
    await call<{ createTag: { id: string } }>(
      'mutation($b: ID!) { createTag(input: { boardId: $b, title: "Pricing" }) { id } }',
      { b: board },
    )
  ).createTag.id;
  await call('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
    h: highlight,
    t: [tag],
  });
  const insight = (
    await call<{ createInsight: { id: string } }>(
      'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
      {
        input: {
          projectId,
          title: 'Checkout prices confuse',
          summary: paragraphs('People cannot tell the final price.'),
        },
      },
    )
  ).createInsight.id;
  await call('mutation($i: ID!, $h: ID!) { citeHighlight(insightId: $i, highlightId: $h) { id } }', {
    i: insight,
    h: highlight,
  });
  const view = async (input: Record<string, unknown>) =>
    (
      await call<{ createProjectView: { id: string } }>(
        'mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
        { p: projectId, input },
      )
    ).createProjectView.id;
  const noteTable = await view({
    title: 'What notes say',
    layout: 'TABLE',
    objectType: 'NOTE',
    filter: {
      combinator: 'and',
      forms: [{ id: 'a', field: 'Title', operator: 'contains', values: { Title: { text: 'Call with' } } }],
    },
    sort: [{ field: 'HighlightCount', direction: 'DESC' }],
    columns: ['Title', 'Thumbnail', 'Content', 'Tags', 'Insights', 'HighlightCount', 'Contributors', 'Summary'].map(
      (field) => ({ field, width: field === 'Content' ? 300 : null }),
    ),
  });
  const insightTable = await view({
    title: 'Insights at a glance',
    layout: 'TABLE',
    objectType: 'INSIGHT',
    columns: ['Title', 'Published', 'PublishedAt', 'Tags', 'HighlightCount', 'Summary'].map((field) => ({ field })),
  });
  const list = await view({
    title: 'Everything said',
    layout: 'LIST',
    objectType: 'NOTE',
    sort: [{ field: 'Title', direction: 'ASC' }],
  });
  const canvas = await view({ title: 'Sketch', layout: 'CANVAS', objectType: 'NOTE' });
  const rectangle = (
    await call<{ addCanvasItem: { id: string } }>(
      'mutation($v: ID!, $input: AddCanvasItemInput!) { addCanvasItem(viewId: $v, input: $input) { id } }',
      { v: canvas, input: { kind: 'RECTANGLE', x: 0, y: 0, width: 200, height: 100 } },
    )
  ).addCanvasItem.id;

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Notes: preview, thumbnail, the insight citing a highlight, counts, contributors.
  await page.goto(`/projects/${projectId}/v/${noteTable}`);
  const table = page.getByRole('table', { name: 'What notes say' });
  const anaRow = table.locator(`tr[data-row-id="${ana}"]`);
  await expect(anaRow).toHaveAttribute('aria-rowindex', '2');
  await expect(anaRow.locator('td[data-cell="Content"]')).toHaveText('Ana found the price unclear at checkout.');
  await expect(anaRow.getByRole('img', { name: 'Thumbnail of Call with Ana' })).toBeVisible();
  await expect(anaRow.getByRole('link', { name: 'Checkout prices confuse' })).toHaveAttribute(
    'href',
    `/insights/${insight}`,
  );
  await expect(anaRow.locator('td[data-cell="HighlightCount"]')).toHaveText('1');
  await expect(anaRow.locator('td[data-cell="Contributors"]')).toHaveText('Vera Views');
  await expect(table.getByRole('columnheader', { name: 'Content preview' })).toBeVisible();
  await expectAccessible(page, 'a table with the note columns');
  await shot(page, 'views-note-columns');

  // Insights: status, published at, the tags of the highlights they cite, their summary.
  await page.goto(`/projects/${projectId}/v/${insightTable}`);
  const insightRow = page.getByRole('table', { name: 'Insights at a glance' }).locator(`tr[data-row-id="${insight}"]`);
  await expect(insightRow.locator('td[data-cell="Tags"]')).toHaveText('Pricing');
  await expect(insightRow.locator('td[data-cell="Summary"]')).toHaveText('People cannot tell the final price.');
  await expect(insightRow.locator('td[data-cell="Published"]')).toHaveText('Draft');

  // A list of 43 notes draws a handful of cards and more as it scrolls.
  await page.goto(`/projects/${projectId}/v/${list}`);
  const cards = page.getByRole('region', { name: /^Everything said: 43 notes/ });
  await expect(cards.getByRole('article').first()).toContainText('Call with Ana');
  const drawn = await cards.getByRole('article').count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(30);
  await cards.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(cards.getByRole('article', { name: 'Survey answer 40' })).toBeVisible();
  await expectAccessible(page, 'a list view');
  await shot(page, 'views-list');

  // Canvas: the corner handle resizes with the arrow keys, and the size is saved.
  await page.goto(`/projects/${projectId}/v/${canvas}`);
  const handle = page.getByRole('button', { name: /^Resize rectangle: 200 by 100/ });
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByRole('button', { name: /^Resize rectangle: 220 by 200/ })).toBeVisible();
  const size = async () =>
    (
      await call<{ projectView: { canvasItems: Array<{ id: string; width?: number; height?: number }> } }>(
        'query($id: ID!) { projectView(id: $id) { canvasItems { id ... on CanvasRectangle { width height } } } }',
        { id: canvas },
      )
    ).projectView.canvasItems.find((i) => i.id === rectangle);
  await expect.poll(size).toMatchObject({ width: 220, height: 200 });
  await expectAccessible(page, 'a canvas with a resize handle');
  await shot(page, 'views-canvas-resize');
});
