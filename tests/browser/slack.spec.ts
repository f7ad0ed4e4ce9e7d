import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('an admin installs Slack, connects it, enables it on a project, and a signed Slack shortcut becomes a note there', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('slack-admin');
  const token = await signUpByApi(env, email, 'Sam Slack');
  const workspace = await createWorkspaceByApi(env, token, 'Slack Research');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Customer feedback' } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Install, choosing the project saved messages go to.
  await page.goto('/settings/extensions');
  const card = page.getByRole('article', { name: 'Slack' });
  await card.getByRole('button', { name: 'Install Slack' }).click();
  const form = page.getByRole('dialog', { name: 'Install Slack' });
  await form.getByRole('textbox', { name: 'Project for saved messages' }).click();
  await page.getByRole('option', { name: 'Customer feedback' }).click();
  await form.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(card.getByText('Installed', { exact: true })).toBeVisible();

  // Its settings page comes from the plugin's own web part, loaded at run time.
  await card.getByRole('button', { name: 'Settings of Slack' }).click();
  const settings = page.getByRole('dialog', { name: 'Slack settings' });
  await expect(settings.getByRole('heading', { name: 'Set up the Slack app' })).toBeVisible();
  await expect(settings.getByText(`${env.url}/slack/webhook`)).toBeVisible();
  await shot(page, 'slack-settings');
  await settings.getByRole('button', { name: 'Cancel' }).click();

  // Connect the Slack workspace: Slack's consent page sends the browser back with a code.
  await page.goto('/settings/integrations');
  await page.getByRole('button', { name: 'Connect Slack' }).click();
  await expect(page).toHaveURL(/\/settings\/integrations\?integration=slack&connected=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'Slack is connected' })).toBeVisible();
  await expect(page.getByText('Connected as Fake Team')).toBeVisible();

  // Enable it on the project; the project's panel from the plugin says where messages go.
  await page.goto(`/projects/${createProject.id}/settings/extensions`);
  await page.getByRole('switch', { name: 'Slack' }).click();
  await expect(page.getByRole('switch', { name: 'Slack' })).toBeChecked();
  const panel = page.getByRole('region', { name: 'Slack' });
  await expect(panel).toContainText('Connected to the Slack workspace Fake Team.');
  await expect(panel).toContainText('become notes in this project');
  await shot(page, 'slack-project-extensions');
  expect(await seriousViolations(page), 'axe on project extensions').toEqual([]);

  // Someone uses the shortcut in Slack; Slack signs and posts it to Fieldbook.
  const payload = {
    type: 'message_action',
    callback_id: 'save_to_fieldbook',
    trigger_id: `trigger-${Date.now()}`,
    response_url: env.slack.responseUrl(),
    team: { id: 'T0FAKE001', domain: 'fake-team' },
    user: { id: 'U777', name: 'dana' },
    channel: { id: 'CFEED', name: 'customer-feedback' },
    message: {
      type: 'message',
      user: 'U888',
      ts: '1700000000.000100',
      text: 'Annual billing is impossible to find\nThree customers asked this week.',
    },
  };
  const signed = env.slack.signedRequest(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  const unsigned = await fetch(`${env.url}/slack/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: signed.body,
  });
  expect(unsigned.status).toBe(401);
  const delivered = await fetch(`${env.url}/slack/webhook`, {
    method: 'POST',
    headers: { ...signed.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: signed.body,
  });
  expect(delivered.status).toBe(200);

  await page.goto(`/projects/${createProject.id}`);
  const noteLink = page.getByRole('link', { name: 'Annual billing is impossible to find' });
  await expect(noteLink).toBeVisible({ timeout: 20_000 });
  await shot(page, 'slack-note-in-project');

  // In the note, Slack's toolbar action (from its web part) copies the note's link for a message.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.url });
  await noteLink.click();
  await page.getByRole('button', { name: 'Copy for Slack' }).click();
  await expect(page.getByRole('button', { name: 'Copied for Slack' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(new RegExp(`^<${env.url}/data/[0-9a-f-]{36}\\|Annual billing is impossible to find>$`));
  await shot(page, 'slack-note-toolbar');
});

test('a plugin web part that fails shows an error in its slot, and the rest of the page works', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('slack-broken');
  const token = await signUpByApi(env, email, 'Bo Broken');
  const workspace = await createWorkspaceByApi(env, token, 'Broken Remote');
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

  // The plugin's code fails to arrive, as when its server is down.
  await page.route('**/plugins/slack/web/**', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/projects/${createProject.id}/settings/extensions`);
  await expect(page.getByRole('alert').filter({ hasText: 'extension could not be shown' })).toBeVisible();
  // The host's own part of the page still works: the switch turns Slack off.
  await page.getByRole('switch', { name: 'Slack' }).click();
  await expect(page.getByRole('switch', { name: 'Slack' })).not.toBeChecked();
  await shot(page, 'slack-remote-failed');
});
