import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const paragraphs = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

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
  const projectId = (await call<{ createProject: { id: string } }>('mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }', { input: { title: 'Checkout study' } })).createProject.id;
  const note = async (title: string) =>
    (await call<{ createNote: { id: string } }>('mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }', { input: { projectId, title, content: paragraphs(`${title}: the price was unclear.`) } })).createNote.id;
  const ana = await note('Call with Ana');
  await note('Call with Ben');
  await note('Call with Cai');
  const insight = async (title: string) => (await call<{ createInsight: { id: string } }>('mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }', { input: { projectId, title } })).createInsight.id;
  const pricey = await insight('Prices surprise people');
  await call('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: pricey });
  const stage = (
    await call<{ createField: { id: string; options: Array<{ id: string; label: string }> } }>('mutation($input: CreateFieldInput!) { createField(input: $input) { id options { id label } } }', {
      input: { objectType: 'NOTE', projectId, type: 'SELECT', label: 'Stage', maxSelectable: 1, options: [{ label: 'To do', color: '#868e96' }, { label: 'Done', color: '#2f9e44' }] },
    })
  ).createField;
  const option = (label: string) => stage.options.find((o) => o.label === label)!.id;
  const saved = async (id: string) => (await call<{ projectView: SavedView }>('query($id: ID!) { projectView(id: $id) { sort { field direction } columns { field width sticky wrapped } filter } }', { id })).projectView;
  const stageOf = async (id: string) =>
    (await call<{ fieldValues: Array<{ field: { id: string }; value: unknown }> }>('query($id: ID!) { fieldValues(objectType: NOTE, objectId: $id) { field { id } value } }', { id })).fieldValues.find((v) => v.field.id === stage.id)?.value ?? null;

  return { email, call, projectId, ana, stage, option, saved, stageOf };
}

test('a table view is added, edited in place, resized, wrapped, sorted and filtered, then presented', async ({ page, env }) => {
  const { email, call, projectId, ana, stage, option, saved, stageOf } = await workshop(env);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);

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
  await expect.poll(async () => (await call<{ note: { title: string } }>('query($id: ID!) { note(id: $id) { title } }', { id: ana })).note.title).toBe('Call with Ana (pricing)');
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
  await page.getByRole('menu', { name: 'Options for the Title column' }).getByRole('menuitem', { name: 'Sort descending' }).click();
  await expect(table.locator('td[data-cell="Title"]')).toHaveText(['Call with Cai', 'Call with Ben', 'Call with Ana (pricing)']);
  expect((await saved(viewId)).sort).toEqual([{ field: 'Title', direction: 'DESC' }]);
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

test('a board moves cards between groups by dragging or from the keyboard, and a canvas is laid out from the picker', async ({ page, env }) => {
  const { email, call, projectId, ana, stage, option, stageOf } = await workshop(env);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);
  const dialog = page.getByRole('dialog', { name: 'Add a view' });
  await call('mutation($o: ID!, $f: ID!, $d: [String!]) { setFieldValue(objectType: NOTE, objectId: $o, fieldId: $f, optionIds: $d) { value } }', { o: ana, f: stage.id, d: [option('Done')] });
  // BOARD by Stage: drag a card to another column, and move one with the keyboard's menu.
  const boardId = (
    await call<{ createProjectView: { id: string } }>('mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }', {
      p: projectId,
      input: { title: 'Stages', layout: 'BOARD', objectType: 'NOTE', group: { kind: 'SELECT', fieldId: stage.id } },
    })
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
  await page.getByRole('toolbar', { name: 'View settings' }).getByRole('button', { name: /^Group/ }).click();
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
