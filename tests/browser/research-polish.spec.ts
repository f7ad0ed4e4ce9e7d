import type { Page } from '@playwright/test';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
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

test('the readme keeps headings, lists and quotes, and is read-only for a viewer', async ({ page, browser, env }) => {
  const email = uniqueEmail('writer');
  const token = await signUpByApi(env, email, 'Wren Writer');
  const workspace = await createWorkspaceByApi(env, token, 'Readme Research');
  const viewerEmail = uniqueEmail('reader');
  await addMemberByApi(env, { token, workspaceId: workspace.id }, viewerEmail, 'VIEWER');
  const as: As = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Pricing study' } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${createProject.id}/readme`);
  await page.getByRole('button', { name: 'Write the readme' }).click();
  const editor = page.getByRole('textbox', { name: 'Readme' });
  await editor.click();
  // The toolbar and the Markdown shortcuts both shape the text.
  await page
    .getByRole('toolbar', { name: 'Readme formatting' })
    .getByRole('button', { name: 'Heading', exact: true })
    .click();
  await page.keyboard.type('Why this study');
  await page.keyboard.press('Enter');
  await page.keyboard.type('We want to learn how teams choose a plan.');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- Five interviews');
  await page.keyboard.press('Enter');
  await page.keyboard.type('One survey');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('> Price is the first thing I look at.');
  await expect(page.getByRole('button', { name: 'Quote' })).toHaveAttribute('aria-pressed', 'true');
  await shot(page, 'polish-readme-editing');
  await page.getByRole('button', { name: 'Save readme' }).click();
  await expect(page.getByText('The readme was saved.')).toBeVisible();

  const { project } = await gql<{
    project: { readme: { content: Array<{ type: string; attrs?: { level?: number }; content?: unknown[] }> } };
  }>(env, 'query($id: ID!) { project(id: $id) { readme } }', { id: createProject.id }, as);
  expect(project.readme.content.map((b) => b.type)).toEqual(['heading', 'paragraph', 'bulletList', 'blockquote']);
  expect(project.readme.content[0]!.attrs?.level).toBe(2);
  expect(project.readme.content[2]!.content).toHaveLength(2);

  // After a reload the shape is still there, and editing again starts from it.
  await page.reload();
  const shown = page.getByRole('textbox', { name: 'Readme' });
  await expect(shown.getByRole('heading', { name: 'Why this study' })).toBeVisible();
  await expect(shown.getByRole('listitem')).toHaveText(['Five interviews', 'One survey']);
  await expect(shown.locator('blockquote')).toHaveText('Price is the first thing I look at.');
  await expectAccessible(page, 'the readme');
  await shot(page, 'polish-readme');

  // A viewer reads the same rich text and cannot change it.
  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signInWithPassword(viewerPage, viewerEmail);
  await expect(viewerPage).toHaveURL(WORKSPACE_HOME);
  await viewerPage.goto(`/projects/${createProject.id}/readme`);
  const readOnly = viewerPage.getByRole('textbox', { name: 'Readme' });
  await expect(readOnly.getByRole('heading', { name: 'Why this study' })).toBeVisible();
  await expect(readOnly).toHaveAttribute('contenteditable', 'false');
  await expect(readOnly).toHaveAttribute('aria-readonly', 'true');
  await expect(viewerPage.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(viewerPage.getByRole('toolbar', { name: 'Readme formatting' })).toHaveCount(0);
  await shot(viewerPage, 'polish-readme-viewer');
  await context.close();
});

test('project views show their layouts: board columns by grouping, grid, list, table and canvas', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('viewmaker');
  const token = await signUpByApi(env, email, 'Vic Views');
  const workspace = await createWorkspaceByApi(env, token, 'Views Research');
  const as: As = { token, workspace: workspace.id };
  const call = <T>(query: string, variables: Record<string, unknown> = {}) => gql<T>(env, query, variables, as);
  const projectId = (
    await call<{ createProject: { id: string } }>(
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Onboarding study' } },
    )
  ).createProject.id;

  const note = async (title: string, text: string) =>
    (
      await call<{ createNote: { id: string } }>(
        'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
        { input: { projectId, title, content: paragraphs(text) } },
      )
    ).createNote.id;
  const insight = async (title: string) =>
    (
      await call<{ createInsight: { id: string } }>(
        'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
        { input: { projectId, title } },
      )
    ).createInsight.id;
  const view = async (input: Record<string, unknown>) =>
    (
      await call<{ createProjectView: { id: string } }>(
        'mutation($p: ID!, $input: CreateProjectViewInput!) { createProjectView(projectId: $p, input: $input) { id } }',
        { p: projectId, input },
      )
    ).createProjectView.id;

  const ana = await note('Interview with Ana', 'The setup wizard took me an hour.');
  const ben = await note('Interview with Ben', 'Inviting my team was easy.');
  const cai = await note('Interview with Cai', 'I never found the import button.');
  const shipped = await insight('Setup takes too long');
  await insight('Invites work well');
  await call('mutation($id: ID!) { publishInsight(id: $id) { id } }', { id: shipped });

  const highlight = async (noteId: string, start: number, end: number) =>
    (
      await call<{ createHighlight: { id: string } }>(
        'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
        { input: { noteId, startOffset: start, endOffset: end } },
      )
    ).createHighlight.id;
  const slow = await highlight(ana, 4, 16); // "setup wizard"
  const easy = await highlight(ben, 0, 25); // "Inviting my team was easy"
  await highlight(cai, 2, 31); // "never found the import button": no tag
  const board = (
    await call<{ createTagBoard: { id: string } }>(
      'mutation($input: CreateTagBoardInput!) { createTagBoard(input: $input) { id } }',
      { input: { projectId, title: 'Themes' } },
    )
  ).createTagBoard.id;
  const tag = async (title: string, color: string) =>
    (
      await call<{ createTag: { id: string } }>(
        'mutation($input: CreateTagInput!) { createTag(input: $input) { id } }',
        { input: { boardId: board, title, color } },
      )
    ).createTag.id;
  const friction = await tag('Friction', '#e8590c');
  const delight = await tag('Delight', '#2b8a3e');
  await call('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
    h: slow,
    t: [friction],
  });
  await call('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
    h: easy,
    t: [delight, friction],
  });

  const segment = (
    await call<{ createField: { id: string } }>(
      'mutation($input: CreateFieldInput!) { createField(input: $input) { id } }',
      {
        input: {
          objectType: 'NOTE',
          projectId,
          type: 'SELECT',
          label: 'Segment',
          options: [
            { label: 'Enterprise', color: '#1971c2' },
            { label: 'Startup', color: '#f08c00' },
            { label: 'Agency' },
          ],
        },
      },
    )
  ).createField.id;
  const setSegment = (objectId: string, value: string) =>
    call(
      'mutation($o: ID!, $f: ID!, $v: JSON) { setFieldValue(objectType: NOTE, objectId: $o, fieldId: $f, value: $v) { value } }',
      { o: objectId, f: segment, v: value },
    );
  await setSegment(ana, 'Enterprise');
  await setSegment(ben, 'Startup');

  const noteBoard = await view({
    title: 'Notes by segment',
    layout: 'BOARD',
    objectType: 'NOTE',
    group: { kind: 'SELECT', fieldId: segment },
  });
  const insightBoard = await view({
    title: 'Insights by state',
    layout: 'BOARD',
    objectType: 'INSIGHT',
    group: { kind: 'PUBLISHED' },
  });
  const tagBoard = await view({
    title: 'Highlights by tag',
    layout: 'BOARD',
    objectType: 'HIGHLIGHT',
    group: { kind: 'TAG' },
  });
  const grid = await view({ title: 'Insight grid', layout: 'GRID', objectType: 'INSIGHT' });
  const list = await view({
    title: 'Note list',
    layout: 'LIST',
    objectType: 'NOTE',
    sort: [{ field: 'Title', direction: 'ASC' }],
  });
  const table = await view({
    title: 'Note table',
    layout: 'TABLE',
    objectType: 'NOTE',
    columns: [
      { field: 'Title', width: 260, sticky: true },
      { field: `field.${segment}`, width: 160 },
      { field: 'Created', width: 420, wrapped: true },
      { field: 'Updated', width: 420 },
    ],
  });
  const canvas = await view({ title: 'Synthesis canvas', layout: 'CANVAS', objectType: 'NOTE' });
  const addItem = (input: Record<string, unknown>) =>
    call('mutation($v: ID!, $input: AddCanvasItemInput!) { addCanvasItem(viewId: $v, input: $input) { id } }', {
      v: canvas,
      input,
    });
  await addItem({
    kind: 'GROUP',
    x: -40,
    y: -20,
    width: 620,
    height: 300,
    title: 'Onboarding pains',
    color: '#7048e8',
  });
  await addItem({ kind: 'TEXT', x: 0, y: 40, width: 400, height: 40, text: 'What slows people down', format: 'H2' });
  await addItem({ kind: 'REFERENCE', x: 0, y: 120, objectType: 'NOTE', objectId: ana });
  await addItem({ kind: 'REFERENCE', x: 280, y: 120, objectType: 'HIGHLIGHT', objectId: slow });
  await addItem({ kind: 'RECTANGLE', x: 760, y: 500, width: 200, height: 120 });

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const url = (id: string) => `/projects/${projectId}/v/${id}`;
  const column = (title: string) => page.getByRole('region', { name: `${title} column` });

  // BOARD by a select field: one column per option, and "No value" for the note without one.
  await page.goto(url(noteBoard));
  await expect(page.getByRole('heading', { level: 1, name: 'Notes by segment' })).toBeVisible();
  await expect(column('Enterprise').getByRole('article')).toHaveText([/Interview with Ana/]);
  await expect(column('Startup').getByRole('article')).toHaveText([/Interview with Ben/]);
  await expect(column('Agency').getByRole('article')).toHaveCount(0);
  await expect(column('No value').getByRole('article')).toHaveText([/Interview with Cai/]);
  await expectAccessible(page, 'a board view');
  await shot(page, 'polish-view-board-select');

  // BOARD of insights by published; of highlights by tag, a card in each of its tags.
  await page.goto(url(insightBoard));
  await expect(column('Published').getByRole('article')).toHaveText([/Setup takes too long/]);
  await expect(column('Draft').getByRole('article')).toHaveText([/Invites work well/]);
  await shot(page, 'polish-view-board-published');
  await page.goto(url(tagBoard));
  await expect(column('Friction').getByRole('article')).toHaveCount(2);
  await expect(column('Delight').getByRole('article')).toHaveCount(1);
  await expect(column('Delight').getByRole('article')).toContainText('Inviting my team was easy');
  await expect(column('No tags').getByRole('article')).toContainText('never found the import button');
  await shot(page, 'polish-view-board-tags');

  // GRID: cards side by side.
  await page.goto(url(grid));
  const cards = page.getByRole('region', { name: /^Insight grid: / }).getByRole('article');
  await expect(cards).toHaveCount(2);
  const [a, b] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
  expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
  expect(b!.x).toBeGreaterThan(a!.x + a!.width);
  await shot(page, 'polish-view-grid');

  // LIST in the view's sort (Title ascending).
  await page.goto(url(list));
  await expect(page.getByRole('region', { name: /^Note list: / }).getByRole('article')).toHaveText([
    /Ana/,
    /Ben/,
    /Cai/,
  ]);
  await shot(page, 'polish-view-list');

  // TABLE: the view's columns, with their widths, the sticky one and the wrapped one.
  await page.goto(url(table));
  const grid2 = page.getByRole('table', { name: 'Note table' });
  await expect(grid2.getByRole('columnheader')).toHaveText(['Title', 'Segment', 'Created', 'Updated']);
  const row = grid2.getByRole('row').filter({ hasText: 'Interview with Ana' });
  await expect(row.getByRole('cell').nth(1)).toHaveText('Enterprise');
  expect(Math.round((await grid2.getByRole('columnheader', { name: 'Title' }).boundingBox())!.width)).toBe(260);
  await expect(grid2.getByRole('columnheader', { name: 'Title' })).toHaveCSS('position', 'sticky');
  await expect(grid2.getByRole('columnheader', { name: 'Created' })).toHaveCSS('white-space', 'normal');
  await expect(grid2.getByRole('columnheader', { name: 'Updated' })).toHaveCSS('white-space', 'nowrap');
  await expectAccessible(page, 'a table view');
  await shot(page, 'polish-view-table');

  // CANVAS: every item where it was put, references with their titles, in a scrollable area.
  await page.goto(url(canvas));
  const area = page.getByRole('region', { name: 'Canvas, scroll to see every item' });
  await expect(area.getByRole('group', { name: 'Group: Onboarding pains' })).toBeVisible();
  await expect(area.getByRole('heading', { name: 'What slows people down' })).toBeVisible();
  await expect(area.getByRole('article', { name: 'Note: Interview with Ana' })).toBeVisible();
  await expect(area.getByRole('article', { name: 'Highlight: “setup wizard”' })).toBeVisible();
  const noteBox = (await area.getByRole('article', { name: 'Note: Interview with Ana' }).boundingBox())!;
  const highlightBox = (await area.getByRole('article', { name: /^Highlight/ }).boundingBox())!;
  expect(Math.round(highlightBox.x - noteBox.x)).toBe(280);
  expect(Math.round(highlightBox.y - noteBox.y)).toBe(0);
  expect(
    await area.evaluate(
      (el) => el.scrollHeight > el.clientHeight || el.scrollWidth > el.clientWidth || el.scrollHeight >= 600,
    ),
  ).toBe(true);
  await page.getByRole('button', { name: 'Add text' }).click();
  await page.getByRole('textbox', { name: 'Text' }).fill('Next: test a shorter wizard');
  await page.getByRole('button', { name: 'Add to canvas' }).click();
  await expect(area.getByText('Next: test a shorter wizard')).toBeVisible();
  await expectAccessible(page, 'a canvas view');
  await shot(page, 'polish-view-canvas');
});
