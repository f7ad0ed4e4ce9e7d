import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const TEXT = 'Pricing is confusing. Onboarding took a week. I love the search.';

test('a project chart opens the highlights behind a bar, and a dashboard shows it beside a channel', async ({ page, env }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('charts');
  const token = await signUpByApi(env, email, 'Charlie Charts');
  const workspace = await createWorkspaceByApi(env, token, 'Chart Team');
  const as = { token, workspace: workspace.id };
  const call = <T,>(query: string, variables: Record<string, unknown> = {}) => gql<T>(env, query, variables, as);

  // A project with three tagged highlights, and a channel with two data points.
  const { createProject } = await call<{ createProject: { id: string } }>('mutation { createProject(input: { title: "Pricing study" }) { id } }');
  const projectId = createProject.id;
  const note = (await call<{ createNote: { id: string } }>('mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Interview 1", content: $c }) { id } }', {
    p: projectId,
    c: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: TEXT }] }] },
  })).createNote.id;
  const board = (await call<{ createTagBoard: { id: string } }>('mutation($p: ID) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }', { p: projectId })).createTagBoard.id;
  const tag = async (title: string) => (await call<{ createTag: { id: string } }>('mutation($b: ID!, $t: String!) { createTag(input: { boardId: $b, title: $t }) { id } }', { b: board, t: title })).createTag.id;
  const pricing = await tag('Pricing');
  const delight = await tag('Delight');
  for (const [start, end, tags] of [[0, 21, [pricing]], [22, 45, [pricing]], [46, 64, [delight]]] as const) {
    const h = (await call<{ createHighlight: { id: string } }>('mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }', { n: note, s: start, e: end })).createHighlight.id;
    await call('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', { h, t: tags });
  }
  const channel = (await call<{ createChannel: { id: string } }>('mutation { createChannel(input: { name: "Support tickets" }) { id } }')).createChannel.id;
  const apiToken = (await call<{ createApiToken: { token: string } }>('mutation { createApiToken(name: "Charts test") { token } }')).createApiToken.token;
  const now = Date.now();
  const pushed = await fetch(`${env.url}/api/channels/${channel}/datapoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiToken}`, 'content-type': 'application/json', 'x-fieldbook-workspace': workspace.id },
    body: JSON.stringify({ dataPoints: [0, 1].map((i) => ({ externalId: `t-${i}`, content: `Ticket ${i}`, createdAt: new Date(now - i * 86_400_000).toISOString() })) }),
  });
  expect(pushed.status).toBe(200);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);

  // The project's Charts tab: make a bar chart and open what is behind the Pricing bar.
  await page.goto(`${env.url}/projects/${projectId}`);
  await page.getByRole('tab', { name: 'Charts' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/charts$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Charts' })).toBeVisible();
  await page.getByRole('button', { name: 'New chart' }).click();
  const editor = page.getByRole('dialog', { name: 'New chart' });
  await editor.getByRole('button', { name: 'Create chart' }).click();
  await expect(editor).toContainText('Give the chart a title.');
  await editor.getByRole('textbox', { name: 'Title' }).fill('Themes by highlights');
  await editor.getByRole('button', { name: 'Create chart' }).click();
  await expect(editor).toBeHidden();
  const card = page.getByTestId('chart-card');
  await expect(card.getByRole('heading', { name: 'Themes by highlights' })).toBeVisible();
  await expect(card.getByRole('img', { name: /Themes by highlights: highlight count of 2 items, as a bar chart/ })).toBeVisible();
  // The table beside the drawing carries the same figures for screen readers.
  await expect(card.getByRole('table', { name: 'Themes by highlights' }).getByRole('row', { name: /Pricing 2/ })).toBeAttached();
  await expectAccessible(page, 'the project charts page');
  await shot(page, 'dashboards-project-charts');

  // Bars are drawn largest first: the first is Pricing, with its two highlights.
  await card.locator('.recharts-bar-rectangle path').first().click();
  const drawer = page.getByRole('dialog', { name: 'Highlights: Pricing' });
  await expect(drawer.getByTestId('chart-highlight')).toHaveCount(2);
  await expect(drawer).toContainText('Onboarding took a week.');
  await expect(drawer.getByRole('link', { name: 'Interview 1' }).first()).toHaveAttribute('href', `/data/${note}`);
  await expectAccessible(page, 'the highlights behind a bar');
  await shot(page, 'dashboards-chart-highlights');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // A dashboard with the project chart and the channel's data points.
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboards' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboards' })).toBeVisible();
  await page.getByRole('button', { name: 'New dashboard' }).click();
  await page.getByRole('dialog', { name: 'New dashboard' }).getByRole('textbox', { name: 'Title' }).fill('Quarterly review');
  await page.getByRole('button', { name: 'Create dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quarterly review' })).toBeVisible();
  const dashboardUrl = page.url();

  await page.getByRole('button', { name: 'Add chart' }).click();
  let add = page.getByRole('dialog', { name: 'Add a chart' });
  await add.getByRole('textbox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Pricing study' }).click();
  await add.getByRole('textbox', { name: 'Chart' }).click();
  await page.getByRole('option', { name: 'Themes by highlights' }).click();
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add).toBeHidden();

  await page.getByRole('button', { name: 'Add chart' }).click();
  add = page.getByRole('dialog', { name: 'Add a chart' });
  await add.getByText('Channel', { exact: true }).click();
  await add.getByRole('textbox', { name: 'Channel' }).click();
  await page.getByRole('option', { name: 'Support tickets' }).click();
  await add.getByRole('textbox', { name: 'Data points per' }).click();
  await page.getByRole('option', { name: 'Day' }).click();
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add).toBeHidden();

  const cards = page.getByTestId('chart-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0).getByRole('img', { name: /Themes by highlights/ })).toBeVisible();
  await expect(cards.nth(1).getByRole('img', { name: /Support tickets: 2 data points over/ })).toBeVisible();
  await expectAccessible(page, 'the dashboard');
  await shot(page, 'dashboards-dashboard');

  // A dashboard chart opens on its own page, and the dashboard keeps its charts after a reload.
  await cards.nth(1).getByRole('button', { name: 'Actions for chart Support tickets' }).click();
  await page.getByRole('menuitem', { name: 'Open chart' }).click();
  await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]+\/charts\/[0-9a-f-]+$/);
  await expect(page.getByTestId('chart-card')).toHaveCount(1);
  await page.goto(dashboardUrl);
  await expect(page.getByTestId('chart-card')).toHaveCount(2);
});
