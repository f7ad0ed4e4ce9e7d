import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

test('a new workspace gets its first project with sample content it deletes, and a person keeps a dark theme', async ({
  page,
  env,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('onboarding');
  const token = await signUpByApi(env, email, 'Olive Onboard');
  const workspace = await createWorkspaceByApi(env, token, 'Onboarding Team');
  const as = { token, workspace: workspace.id };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  await page.getByRole('link', { name: 'Open the setup guide' }).click();
  await expect(page).toHaveURL(/\/onboarding\/getting-started$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Onboarding Team' })).toBeVisible();
  await expectAccessible(page, 'getting started');
  await shot(page, 'onboarding-getting-started');
  await page.getByRole('link', { name: 'Open: Start your first project' }).click();

  await expect(page).toHaveURL(/\/onboarding\/project-setup$/);
  await page.getByRole('textbox', { name: 'Project title' }).fill('Customer interviews');
  await expect(page.getByRole('checkbox', { name: /sample interview/ })).toBeChecked();
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Your project is ready' })).toBeVisible({ timeout: 20_000 });
  await shot(page, 'onboarding-project-ready');

  // The sample: one note, its three highlights tagged.
  const { projects } = await gql<{ projects: Array<{ id: string; title: string }> }>(
    env,
    'query { projects { id title } }',
    {},
    as,
  );
  expect(projects.map((p) => p.title)).toEqual(['Customer interviews']);
  const notes = async () =>
    (
      await gql<{ notes: { nodes: Array<{ title: string }> } }>(
        env,
        'query($p: ID!) { notes(projectId: $p) { nodes { title } } }',
        { p: projects[0]!.id },
        as,
      )
    ).notes.nodes;
  expect((await notes()).map((n) => n.title)).toEqual(['Sample interview (you can delete it)']);
  const chart = await gql<{ createProjectChart: { items: Array<{ title: string; value: number }> } }>(
    env,
    'mutation($p: ID!) { createProjectChart(projectId: $p, input: { title: "Sample", metric: HIGHLIGHT_COUNT, groupBy: TAG, type: BAR }) { items { title value } } }',
    { p: projects[0]!.id },
    as,
  );
  expect(chart.createProjectChart.items).toEqual([
    { title: 'Pain points', value: 2 },
    { title: 'Delights', value: 1 },
  ]);

  await page.getByRole('button', { name: 'Delete the sample note' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The sample note is in the trash.' })).toBeVisible();
  expect(await notes()).toEqual([]);
  await page.getByRole('link', { name: 'Open the project' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Customer interviews' })).toBeVisible();

  // Dark theme from the user menu: kept on the account and applied before the first paint.
  await page.getByRole('button', { name: /Open account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect
    .poll(
      async () => (await gql<{ me: { themeMode: string } }>(env, 'query { me { themeMode } }', {}, as)).me.themeMode,
    )
    .toBe('DARK');
  await page.goto(`${env.url}/settings/user/account`);
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expectAccessible(page, 'account settings in the dark theme');
  await shot(page, 'theme-dark-account');

  // A fresh page in another tab: the theme is dark before any script of the app has run.
  const second = await page.context().newPage();
  await second.route('**/static/js/**', (route) => route.abort());
  await second.goto(`${env.url}/home`);
  await expect(second.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await second.close();

  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  await expect
    .poll(
      async () => (await gql<{ me: { themeMode: string } }>(env, 'query { me { themeMode } }', {}, as)).me.themeMode,
    )
    .toBe('LIGHT');
});
