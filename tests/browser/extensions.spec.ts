import type { Page } from '@playwright/test';
import { seriousViolations } from './support/axe.ts';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function settled(page: Page) {
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
}

test('an admin sees every plugin with what it may do, and why one cannot be installed', async ({ page, env }) => {
  const adminEmail = uniqueEmail('admin');
  const admin = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Plugin Research');
  const { plugins, extensionLimits: limits } = await gql<{
    plugins: Array<{ name: string; state: string; problem: string | null }>;
    extensionLimits: { installed: number; maximum: number | null };
  }>(
    env,
    '{ plugins { name state problem } extensionLimits { installed maximum } }',
    {},
    { token: admin, workspace: workspace.id },
  );

  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Extensions' }).click();
  await expect(page).toHaveURL(/\/settings\/extensions$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Extensions');
  await settled(page);
  const limitText =
    limits.maximum === null
      ? `${limits.installed} extension${limits.installed === 1 ? '' : 's'} installed`
      : `${limits.installed} of ${limits.maximum} extensions installed`;
  await expect(page.getByText(limitText, { exact: true })).toBeVisible();
  if (plugins.length === 0) {
    await expect(page.getByRole('heading', { name: 'No plugins are available' })).toBeVisible();
    await expect(page.getByText('plugins/', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'How to add a plugin' })).toHaveAttribute('href', /README|#plugins/);
  } else {
    for (const p of plugins) {
      const card = page.getByRole('article', { name: p.name });
      await expect(card.getByRole('heading', { level: 2, name: p.name })).toBeVisible();
      // What a plugin may do is listed before anyone installs it.
      await expect(card.getByText(/What it may do/)).toBeVisible();
      if (p.state !== 'READY') {
        // A plugin the server cannot run says why, and cannot be installed.
        await expect(card.getByText(p.problem ?? '')).toBeVisible();
        await expect(card.getByRole('button', { name: `Install ${p.name}` })).toBeDisabled();
      }
    }
  }
  await shot(page, 'extensions');
  expect(await seriousViolations(page), 'axe on /settings/extensions').toEqual([]);

  await page.goto('/settings/integrations');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Integrations');
  await settled(page);
  expect(await seriousViolations(page), 'axe on /settings/integrations').toEqual([]);

  // A provider's error comes back in the address and is shown, not lost.
  await page.goto('/settings/integrations?integration=slack&integrationError=The%20request%20was%20denied');
  await expect(page.getByRole('alert').filter({ hasText: 'The request was denied' })).toBeVisible();
});

test('a viewer cannot open the extensions or integrations settings', async ({ page, env }) => {
  const admin = await signUpByApi(env, uniqueEmail('admin'), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Viewer Extensions');
  const viewer = uniqueEmail('viewer');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, viewer, 'VIEWER');

  await signInWithPassword(page, viewer);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Your integrations' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Extensions' })).toHaveCount(0);
  for (const path of ['/settings/extensions', '/settings/integrations']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need to be a workspace admin');
    await expect(page.getByRole('button', { name: /^Install/ })).toHaveCount(0);
  }
});

test('a member sees their own integrations, and a finished connection only links back inside the app', async ({
  page,
  env,
}) => {
  const admin = await signUpByApi(env, uniqueEmail('admin'), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Member Integrations');
  const member = uniqueEmail('member');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, member, 'CONTRIBUTOR');

  await signInWithPassword(page, member);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Your integrations' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your integrations');
  await settled(page);
  await expect(page.getByText('No extension in this workspace connects personal accounts yet.')).toBeVisible();
  await shot(page, 'my-integrations');
  expect(await seriousViolations(page), 'axe on /settings/user/integrations').toEqual([]);

  await page.goto('/account/integration/oauth/slack/confirm?origin=https%3A%2F%2Fevil.example%2F');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Slack is connected');
  await expect(page.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/settings/user/integrations');

  await page.goto('/account/integration/oauth/slack/confirm?origin=%2Fprojects');
  await expect(page.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/projects');

  // Starting a flow for a plugin that is not there says so and offers a way back.
  await page.goto('/integrations/authorize?integration=no-such-plugin&source=link&origin=%2Fhome');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The account could not be connected');
  await expect(page.getByRole('link', { name: 'Go back' })).toHaveAttribute('href', '/home');
});

test('project settings link to the project’s extensions, which only its managers change', async ({
  page,
  browser,
  env,
}) => {
  const adminEmail = uniqueEmail('admin');
  const admin = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Project Extensions');
  const viewer = uniqueEmail('viewer');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, viewer, 'VIEWER');
  const as = { token: admin, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Onboarding study' } },
    as,
  );
  const { projectPlugins } = await gql<{ projectPlugins: unknown[] }>(
    env,
    'query($p: ID!) { projectPlugins(projectId: $p) { enabled } }',
    { p: createProject.id },
    as,
  );

  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${createProject.id}/settings`);
  await page.getByRole('navigation', { name: 'Project settings' }).getByRole('link', { name: 'Extensions' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${createProject.id}/settings/extensions$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Onboarding study: extensions');
  await settled(page);
  await expect(page.getByText('Only the project’s managers can change this')).toHaveCount(0);
  if (projectPlugins.length === 0)
    await expect(page.getByText(/No extensions are installed in this workspace/)).toBeVisible();
  else await expect(page.getByRole('switch')).toHaveCount(projectPlugins.length);
  await shot(page, 'project-extensions');
  expect(await seriousViolations(page), 'axe on the project extensions').toEqual([]);

  const viewerContext = await browser.newContext({ baseURL: env.url });
  const other = await viewerContext.newPage();
  await signInWithPassword(other, viewer);
  await expect(other).toHaveURL(WORKSPACE_HOME);
  await other.goto(`/projects/${createProject.id}/settings/extensions`);
  await expect(other.getByText('Only the project’s managers can change this')).toBeVisible();
  for (const s of await other.getByRole('switch').all()) await expect(s).toBeDisabled();
  await viewerContext.close();
});

test('an admin sees an installation’s own webhook URL, copies it, and rotates it', async ({ page, context, env }) => {
  const adminEmail = uniqueEmail('admin');
  const admin = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Webhook URLs');
  const as = { token: admin, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Issues' } },
    as,
  );
  const installed = await gql<{ installPlugin: { installation: { webhookUrl: string } } }>(
    env,
    'mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "linear-like", settings: $s) { installation { webhookUrl } } }',
    {
      s: [
        { key: 'signingSecret', text: 'linear-signing-secret' },
        { key: 'projectId', text: createProject.id },
      ],
    },
    as,
  );
  const first = installed.installPlugin.installation.webhookUrl;
  // Built from the public address the app's links use.
  expect(first).toMatch(new RegExp(`^${env.url}/hooks/linear-like/[A-Za-z0-9_-]{43}$`));

  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/extensions');
  await settled(page);
  const card = page.getByRole('article', { name: 'Linear-like issues' });
  const field = card.getByRole('textbox', { name: 'Webhook URL' });
  await expect(field).toHaveValue(first);
  await expect(field).toHaveAttribute('readonly', '');

  await card.getByRole('button', { name: 'Copy the webhook URL of Linear-like issues' }).click();
  await expect(card.getByRole('button', { name: 'Copied the webhook URL of Linear-like issues' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
  await shot(page, 'extensions-webhook-url');
  expect(await seriousViolations(page), 'axe on the webhook URL').toEqual([]);

  await card.getByRole('button', { name: 'Rotate URL of Linear-like issues' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the webhook URL of Linear-like issues' });
  await expect(dialog).toContainText('stops working at once');
  // axe reads colours as drawn: wait for the dialog's opening transition to end.
  await expect.poll(() => dialog.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await shot(page, 'extensions-webhook-rotate');
  expect(await seriousViolations(page), 'axe on the rotate dialog').toEqual([]);
  await dialog.getByRole('button', { name: 'Rotate URL' }).click();
  await expect(dialog).toBeHidden();
  await expect(field).not.toHaveValue(first);
  const second = await field.inputValue();
  expect(second).toMatch(/\/hooks\/linear-like\/[A-Za-z0-9_-]{43}$/);
  // The old URL finds nothing from now on; the new one reaches the plugin (an unsigned body is refused by it).
  expect((await page.request.post(first, { data: '{}' })).status()).toBe(404);
  expect((await page.request.post(second, { data: '{}' })).status()).toBe(401);
});

test('an admin approves the permissions a new version of an installed plugin asks for', async ({ page, env }) => {
  const adminEmail = uniqueEmail('admin');
  const admin = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Plugin upgrades');
  const as = { token: admin, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Issues' } },
    as,
  );
  const { installPlugin } = await gql<{ installPlugin: { installation: { id: string } } }>(
    env,
    'mutation($s: [PluginSettingInput!]) { installPlugin(pluginId: "linear-like", settings: $s) { installation { id } } }',
    {
      s: [
        { key: 'signingSecret', text: 'linear-signing-secret' },
        { key: 'projectId', text: createProject.id },
      ],
    },
    as,
  );
  // As if it had been installed at a version that asked for nothing.
  await env.fieldbook.db
    .owner('plugin_installations')
    .where({ id: installPlugin.installation.id })
    .update({ approved_permissions: [] });

  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/extensions');
  await settled(page);
  const card = page.getByRole('article', { name: 'Linear-like issues' });
  await expect(card.getByText('Needs approval', { exact: true })).toBeVisible();
  const notice = card.getByRole('region', { name: /^Needs approval: / });
  await expect(notice).toContainText('Create notes in the projects it is enabled on');
  await shot(page, 'extensions-needs-approval');
  expect(await seriousViolations(page), 'axe on a plugin that needs approval').toEqual([]);

  await notice.getByRole('button', { name: 'Approve new permissions of Linear-like issues' }).click();
  await expect(notice).toBeHidden();
  await expect(card.getByText('Installed', { exact: true })).toBeVisible();
  const row = await env.fieldbook.db.owner('plugin_installations').where({ id: installPlugin.installation.id }).first();
  expect(row.approved_permissions.length).toBeGreaterThan(0);
});
