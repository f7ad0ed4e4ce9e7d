import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const TEXT = 'Pricing is confusing. Onboarding took a week. I love the search.';

type Env = Parameters<typeof signUpByApi>[0];
type Call = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** A person signed up by the API with a workspace of their own, and a GraphQL call made as them. */
async function team(env: Env, label: string, name: string, workspaceName: string) {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, name);
  const workspace = await createWorkspaceByApi(env, token, workspaceName);
  const as = { token, workspace: workspace.id };
  const call: Call = <T>(query: string, variables: Record<string, unknown> = {}) => gql<T>(env, query, variables, as);
  return { email, workspace, call };
}

/**
 * The "Pricing study" project with one note of TEXT, whose three sentences are highlighted and
 * tagged with `tags` (title, and the group of the "Themes" board it sits in, if any).
 */
async function pricingStudy(
  call: Call,
  tags: ReadonlyArray<{ title: string; group?: string }>,
): Promise<{ projectId: string; note: string }> {
  const projectId = (
    await call<{ createProject: { id: string } }>(
      'mutation { createProject(input: { title: "Pricing study" }) { id } }',
    )
  ).createProject.id;
  const note = (
    await call<{ createNote: { id: string } }>(
      'mutation($p: ID!, $c: JSON) { createNote(input: { projectId: $p, title: "Interview 1", content: $c }) { id } }',
      {
        p: projectId,
        c: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: TEXT }] }] },
      },
    )
  ).createNote.id;
  const board = (
    await call<{ createTagBoard: { id: string } }>(
      'mutation($p: ID) { createTagBoard(input: { projectId: $p, title: "Themes" }) { id } }',
      { p: projectId },
    )
  ).createTagBoard.id;
  const groups = new Map<string, string>();
  for (const title of new Set(tags.flatMap((t) => (t.group ? [t.group] : [])))) {
    groups.set(
      title,
      (
        await call<{ createTagGroup: { id: string } }>(
          'mutation($b: ID!, $t: String!) { createTagGroup(input: { boardId: $b, title: $t }) { id } }',
          { b: board, t: title },
        )
      ).createTagGroup.id,
    );
  }
  const ids = new Map<string, string>();
  for (const t of tags) {
    if (ids.has(t.title)) continue;
    const g = t.group ? groups.get(t.group)! : null;
    ids.set(
      t.title,
      (
        await call<{ createTag: { id: string } }>(
          'mutation($b: ID!, $g: ID, $t: String!) { createTag(input: { boardId: $b, groupId: $g, title: $t }) { id } }',
          { b: board, g, t: t.title },
        )
      ).createTag.id,
    );
  }
  const spans = [
    [0, 21],
    [22, 45],
    [46, 64],
  ] as const;
  for (const [i, [start, end]] of spans.entries()) {
    const h = (
      await call<{ createHighlight: { id: string } }>(
        'mutation($n: ID!, $s: Int!, $e: Int!) { createHighlight(input: { noteId: $n, startOffset: $s, endOffset: $e }) { id } }',
        { n: note, s: start, e: end },
      )
    ).createHighlight.id;
    await call('mutation($h: ID!, $t: [ID!]!) { tagHighlight(highlightId: $h, tagIds: $t) { id } }', {
      h,
      t: [ids.get(tags[i]!.title)!],
    });
  }
  return { projectId, note };
}

/** A channel named `name` with `points` pushed through its API, as an integration would. */
async function channelWith(
  env: Env,
  call: Call,
  workspaceId: string,
  name: string,
  points: ReadonlyArray<{ externalId: string; content: string; createdAt: string }>,
): Promise<string> {
  const channel = (
    await call<{ createChannel: { id: string } }>(
      'mutation($n: String!) { createChannel(input: { name: $n }) { id } }',
      { n: name },
    )
  ).createChannel.id;
  const apiToken = (
    await call<{ createApiToken: { token: string } }>('mutation { createApiToken(name: "Charts test") { token } }')
  ).createApiToken.token;
  const pushed = await fetch(`${env.url}/api/channels/${channel}/datapoints`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiToken}`,
      'content-type': 'application/json',
      'x-fieldbook-workspace': workspaceId,
    },
    body: JSON.stringify({ dataPoints: points }),
  });
  expect(pushed.status).toBe(200);
  return channel;
}

/** From any page: a new dashboard named `title`, open. */
async function newDashboard(page: Page, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboards' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboards' })).toBeVisible();
  await page.getByRole('button', { name: 'New dashboard' }).click();
  await page.getByRole('dialog', { name: 'New dashboard' }).getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('button', { name: 'Create dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** Adds a project's chart to the open dashboard. */
async function addProjectChart(page: Page, project: string, chart: string): Promise<void> {
  await page.getByRole('button', { name: 'Add chart' }).click();
  const add = page.getByRole('dialog', { name: 'Add a chart' });
  await add.getByRole('textbox', { name: 'Project' }).click();
  await page.getByRole('option', { name: project }).click();
  await add.getByRole('textbox', { name: 'Chart' }).click();
  await page.getByRole('option', { name: chart }).click();
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add).toBeHidden();
}

/**
 * Opens "Add a chart" for a channel's chart with the options chosen (field label: option), and
 * answers the dialog, not yet submitted.
 */
async function channelChartDialog(page: Page, channel: string, choices: Record<string, string> = {}) {
  await page.getByRole('button', { name: 'Add chart' }).click();
  const add = page.getByRole('dialog', { name: 'Add a chart' });
  await add.getByText('Channel', { exact: true }).click();
  await add.getByRole('textbox', { name: 'Channel' }).click();
  await page.getByRole('option', { name: channel }).click();
  for (const [field, option] of Object.entries(choices)) {
    await add.getByRole('textbox', { name: field }).click();
    await page.getByRole('option', { name: option }).click();
  }
  return add;
}

async function addChannelChart(page: Page, channel: string, choices: Record<string, string> = {}): Promise<void> {
  const add = await channelChartDialog(page, channel, choices);
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add).toBeHidden();
}

test('a project chart opens the highlights behind a bar, and a dashboard shows it beside a channel', async ({
  page,
  env,
}) => {
  test.setTimeout(120_000);
  const { email, workspace, call } = await team(env, 'charts', 'Charlie Charts', 'Chart Team');

  // A project with three tagged highlights, and a channel with two data points.
  const { projectId, note } = await pricingStudy(call, [
    { title: 'Pricing' },
    { title: 'Pricing' },
    { title: 'Delight' },
  ]);
  const now = Date.now();
  await channelWith(
    env,
    call,
    workspace.id,
    'Support tickets',
    [0, 1].map((i) => ({
      externalId: `t-${i}`,
      content: `Ticket ${i}`,
      createdAt: new Date(now - i * 86_400_000).toISOString(),
    })),
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

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
  await expect(
    card.getByRole('img', { name: /Themes by highlights: highlight count of 2 items, as a bar chart/ }),
  ).toBeVisible();
  // The table beside the drawing carries the same figures for screen readers.
  await expect(
    card.getByRole('table', { name: 'Themes by highlights' }).getByRole('row', { name: /Pricing 2/ }),
  ).toBeAttached();
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
  await newDashboard(page, 'Quarterly review');
  const dashboardUrl = page.url();
  await addProjectChart(page, 'Pricing study', 'Themes by highlights');
  await addChannelChart(page, 'Support tickets', { 'Data points per': 'Day' });

  const cards = page.getByTestId('chart-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0).getByRole('img', { name: /Themes by highlights/ })).toBeVisible();
  await expect(cards.nth(1).getByRole('img', { name: /Support tickets: 2 data points over/ })).toBeVisible();
  await expect(cards.nth(1).getByRole('table', { name: 'Support tickets' }).getByRole('columnheader')).toHaveText([
    'From',
    'Data points',
  ]);
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

test('a dashboard and a chart are shared by link and read signed out; a channel chart opens the data points of a theme', async ({
  page,
  browser,
  env,
}) => {
  test.setTimeout(180_000);
  const { email, workspace, call } = await team(env, 'share-charts', 'Sasha Share', 'Share Team');

  // A project whose two tags sit in one group, one chart of it, and a clustered channel.
  const { projectId } = await pricingStudy(call, [
    { title: 'Pricing', group: 'Pain' },
    { title: 'Onboarding', group: 'Pain' },
    { title: 'Delight' },
  ]);
  await call(
    'mutation($p: ID!) { createProjectChart(projectId: $p, input: { title: "Themes by highlights", metric: HIGHLIGHT_COUNT, groupBy: TAG, type: BAR }) { id } }',
    { p: projectId },
  );
  const subjects = {
    login: [
      'Cannot log in with Google single sign-on',
      'Login with SSO fails every morning',
      'Single sign-on login loops back',
      'SSO login error after reset',
      'Google login for SSO keeps failing',
    ],
    pricing: [
      'The pricing of the team plan is too high',
      'Team plan price doubled',
      'Pricing page unclear about team plan seats',
      'Seats on the team plan cost too much',
      'Team plan price per seat too expensive',
    ],
  };
  const points = Object.entries(subjects).flatMap(([s, texts]) =>
    texts.flatMap((t, i) =>
      [0, 1].map((c) => ({
        externalId: `${s}-${i}-${c}`,
        content: c ? `${t}, again` : t,
        createdAt: new Date(Date.now() - (i + c) * 86_400_000).toISOString(),
      })),
    ),
  );
  const channel = await channelWith(env, call, workspace.id, 'App feedback', points);
  await call('mutation($c: ID!) { clusterChannel(channelId: $c, sensitivity: 5, amount: 10) { id } }', { c: channel });
  await expect
    .poll(
      async () =>
        (
          await call<{ channelClustering: { status: string } }>(
            'query($c: ID!) { channelClustering(channelId: $c) { status } }',
            { c: channel },
          )
        ).channelClustering.status,
      { timeout: 30_000 },
    )
    .toBe('COMPLETED');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Chart options: the Pain group collapsed into one item, Delight hidden.
  await page.goto(`${env.url}/team-redirect/${workspace.id}/projects/${projectId}/charts`);
  const card = page.getByTestId('chart-card');
  await expect(card.getByRole('img', { name: /highlight count of 3 items/ })).toBeVisible();
  await card.getByRole('button', { name: 'Actions for chart Themes by highlights' }).click();
  await page.getByRole('menuitem', { name: 'Edit chart' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit chart' });
  await editor.getByRole('textbox', { name: 'Collapsed groups' }).click();
  await page.getByRole('option', { name: 'Pain (Themes)' }).click();
  await editor.getByRole('textbox', { name: 'Hidden items' }).click();
  await page.getByRole('option', { name: 'Delight (Themes)' }).click();
  await editor.getByRole('heading', { name: 'Edit chart' }).click();
  await editor.getByRole('button', { name: 'Save chart' }).click();
  await expect(editor).toBeHidden();
  await expect(card.getByRole('img', { name: /highlight count of 1 items/ })).toBeVisible();
  await expect(
    card.getByRole('table', { name: 'Themes by highlights' }).getByRole('row', { name: /Pain 2/ }),
  ).toBeAttached();

  // The chart's Share button: the usual share dialog makes a link, read signed out.
  await card.getByRole('button', { name: 'Share chart Themes by highlights' }).click();
  let dialog = page.getByRole('dialog', { name: 'Share this chart' });
  await expect(dialog).toContainText('not the highlights behind them');
  await dialog.getByRole('button', { name: 'Create public link' }).click();
  const chartLink = await dialog.getByRole('textbox', { name: 'Public link' }).inputValue();
  await expectAccessible(page, 'the chart share dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const anonymous = await browser.newContext();
  const reader = await anonymous.newPage();
  await reader.goto(chartLink);
  await expect(reader).toHaveURL(/\/p\/chart\/[A-Za-z0-9]{12}$/);
  await expect(reader.getByRole('heading', { level: 1, name: 'Themes by highlights' })).toBeVisible();
  await expect(
    reader.getByRole('table', { name: 'Themes by highlights' }).getByRole('row', { name: /Pain 2/ }),
  ).toBeAttached();
  await expect(reader.getByRole('button')).toHaveCount(0);
  await expectAccessible(reader, 'a shared chart');
  await shot(reader, 'dashboards-public-chart');

  // A dashboard with the project chart and the channel's data points per theme, as a pie.
  await newDashboard(page, 'Launch review');
  await addProjectChart(page, 'Pricing study', 'Themes by highlights');
  const add = await channelChartDialog(page, 'App feedback', { Shows: 'Data points per theme', 'Drawn as': 'Pie' });
  // A title over 300 characters is refused by the server, naming the limit.
  await add.getByRole('textbox', { name: 'Title' }).fill('x'.repeat(301));
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add.getByRole('alert')).toContainText('at most 300 characters');
  await add.getByRole('textbox', { name: 'Title' }).fill('Feedback by theme');
  await add.getByRole('button', { name: 'Add to dashboard' }).click();
  await expect(add).toBeHidden();
  const cards = page.getByTestId('chart-card');
  await expect(cards).toHaveCount(2);
  const pie = cards.nth(1);
  await expect(
    pie.getByRole('img', { name: /Feedback by theme: data points of \d+ themes, as a pie chart/ }),
  ).toBeVisible();
  // Its figures as a table, each theme a button that opens its data points as the slices do.
  await expect(pie.getByRole('table', { name: 'Feedback by theme' }).getByRole('columnheader')).toHaveText([
    'Theme',
    'Data points',
  ]);
  await expect(
    pie.getByRole('table', { name: 'Feedback by theme' }).getByRole('rowheader').getByRole('button').first(),
  ).toBeAttached();

  // A click on a theme's slice opens its data points.
  await pie.locator('.recharts-pie-sector path').first().click();
  const drawer = page.getByRole('dialog', { name: /^Data points: / });
  await expect(drawer.getByTestId('theme-data-point').first()).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Open the theme' })).toHaveAttribute(
    'href',
    new RegExp(`/channels/${channel}/themes/`),
  );
  await expectAccessible(page, 'the data points of a theme');
  await shot(page, 'dashboards-theme-points');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  // The same channel over time, one line per theme.
  await addChannelChart(page, 'App feedback', { 'Drawn as': 'Line' });
  await expect(cards).toHaveCount(3);
  await expect(
    cards.nth(2).getByRole('img', { name: /App feedback: 20 data points over \d+ weeks, in \d+ themes/ }),
  ).toBeVisible();
  await expectAccessible(page, 'the dashboard with channel charts');
  await shot(page, 'dashboards-dashboard-themes');

  // The dashboard's Share button; signed out, the dashboard reads without edit controls.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  dialog = page.getByRole('dialog', { name: 'Share this dashboard' });
  await dialog.getByRole('button', { name: 'Create public link' }).click();
  const dashboardLink = await dialog.getByRole('textbox', { name: 'Public link' }).inputValue();
  expect(dashboardLink).toMatch(/\/p\/dashboard\/[A-Za-z0-9]{12}$/);
  await expectAccessible(page, 'the dashboard share dialog');
  await shot(page, 'dashboards-share-dialog');
  await reader.goto(dashboardLink);
  await expect(reader.getByRole('heading', { level: 1, name: 'Launch review' })).toBeVisible();
  await expect(reader.getByTestId('public-chart')).toHaveCount(3);
  await expect(reader.getByRole('img', { name: /Feedback by theme: data points of \d+ themes/ })).toBeVisible();
  await expect(reader.getByRole('button')).toHaveCount(0);
  await expectAccessible(reader, 'a shared dashboard');
  await shot(reader, 'dashboards-public-dashboard');

  // Revoking ends the link at once.
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(dialog).toContainText('There is no public link to this dashboard yet.');
  await reader.reload();
  await expect(reader.getByRole('heading', { level: 1, name: 'This link isn’t available' })).toBeVisible();
  await shot(reader, 'dashboards-public-revoked');
  await anonymous.close();
});
