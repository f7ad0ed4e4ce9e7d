import type { Page, Response } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

/** Every script response of the page from now on. */
function recordScripts(page: Page): Response[] {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response);
  });
  return scripts;
}

test('the workspace home loads no plugin web part, and a plugin loads where its slot is drawn', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('web-loading');
  const token = await signUpByApi(env, email, 'Lou Loading');
  const workspace = await createWorkspaceByApi(env, token, 'Loading Research');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Interviews' } },
    as,
  );
  await gql(
    env,
    'mutation($p: String!) { installPlugin(pluginId: "slack", settings: [{ key: "projectId", text: $p }]) { id } }',
    { p: createProject.id },
    as,
  );
  await gql(
    env,
    'mutation($p: ID!) { setProjectPluginEnabled(projectId: $p, pluginId: "slack", enabled: true) { enabled } }',
    { p: createProject.id },
    as,
  );

  const scripts = recordScripts(page);
  // The federation runtime names its global in its code: a script that has it carries the runtime.
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  const hasFederation = async () => (await Promise.all(bodies)).some((text) => text.includes('__FEDERATION__'));
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/^Good (morning|afternoon|evening)/);
  await page.waitForLoadState('networkidle');
  // Slack fills no slot of the home: its web part is not fetched there.
  expect(scripts.map((s) => new URL(s.url()).pathname).filter((p) => p.startsWith('/plugins/'))).toEqual([]);
  // Nor the Module Federation runtime: it starts with the first plugin slot drawn.
  expect(await hasFederation()).toBe(false);
  // The app's own scripts come compressed and, being content-hashed, cached for a year.
  const own = scripts.filter((s) => new URL(s.url()).pathname.startsWith('/static/js/'));
  expect(own.length).toBeGreaterThan(0);
  for (const s of own) {
    const headers = await s.allHeaders();
    if (Number(headers['content-length'] ?? 2000) < 1024) continue; // too small to be worth compressing
    expect(headers['content-encoding'], s.url()).toMatch(/^(br|gzip)$/);
    expect(headers['cache-control'], s.url()).toBe('public, max-age=31536000, immutable');
  }

  // Its project panel is drawn on the project's extensions page: there the web part loads.
  await page.goto(`/projects/${createProject.id}/settings/extensions`);
  await expect(page.getByRole('region', { name: 'Slack' })).toBeVisible();
  expect(scripts.some((s) => new URL(s.url()).pathname.startsWith('/plugins/slack/web/'))).toBe(true);
  expect(await hasFederation()).toBe(true);
  await shot(page, 'plugin-slot-slack-panel');
});

test('the editor loads with a note, not with the project it is in', async ({ page, env }) => {
  const email = uniqueEmail('web-editor');
  const token = await signUpByApi(env, email, 'Ed Editor');
  const workspace = await createWorkspaceByApi(env, token, 'Editor Research');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Field visits' } },
    as,
  );
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { projectId: createProject.id, title: 'Visit to the bakery' } },
    as,
  );

  // ProseMirror names its view classes in its code; a script that has them carries the editor.
  // Bodies are read as they arrive: a page navigated away from no longer has them.
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  const hasEditor = async () => (await Promise.all(bodies)).some((text) => text.includes('ProseMirror-focused'));
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${createProject.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Field visits');
  await expect(page.getByText('Visit to the bakery').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await hasEditor()).toBe(false);

  await page.goto(`/data/${createNote.id}`);
  await expect(page.locator('.ProseMirror').first()).toBeVisible();
  expect(await hasEditor()).toBe(true);
});

test('the header menus load on first use and the first click opens them; notifications load with the first one', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('web-menus');
  const token = await signUpByApi(env, email, 'Mia Menus');
  await createWorkspaceByApi(env, token, 'Menu Research');

  // Mantine names its components in its code: a script that has these carries them.
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  const loaded = async (marker: string) => (await Promise.all(bodies)).some((text) => text.includes(marker));
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/^Good (morning|afternoon|evening)/);
  await page.waitForLoadState('networkidle');
  expect(await loaded('"@mantine/core/Menu"')).toBe(false);
  expect(await loaded('"@mantine/notifications/Notifications"')).toBe(false);

  // One click, and the menu is open: the click that loads its code is not lost.
  const account = page.getByRole('button', { name: /Open account menu/ });
  await expect(account).toHaveAttribute('aria-haspopup', 'menu');
  await account.click();
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
  expect(await loaded('"@mantine/core/Menu"')).toBe(true);
  await shot(page, 'header-account-menu');
  expect(await seriousViolations(page), 'axe with the account menu open').toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeHidden();

  // The other menu, from the keyboard: its first Enter opens it too.
  const workspaceMenu = page.getByRole('button', { name: 'Menu Research workspace menu' });
  await workspaceMenu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Switch workspace' })).toBeVisible();
  await page.keyboard.press('Escape');

  // A fresh page, the account menu's first click again, and then a notification.
  await page.goto('/settings/user/account');
  await page.getByRole('button', { name: /Open account menu/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Account settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: 'Name' }).fill('Mia Menus-Lee');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await expect(page.getByText('Your name was saved.')).toBeVisible();
  expect(await loaded('"@mantine/notifications/Notifications"')).toBe(true);
  await shot(page, 'notification-after-first-save');
});
