import { seriousViolations } from './support/axe.ts';
import { createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { startBrowserEnvironment, type BrowserEnvironment } from './support/fieldbook.ts';
import { expect, signInWithPassword, test as base, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const MISSING = 'fieldbook-plugin-not-installed';

/** A Fieldbook whose operator named an npm plugin that was never installed: it starts regardless. */
const test = base.extend<object, { env: BrowserEnvironment }>({
  env: [
    async ({}, use) => {
      const env = await startBrowserEnvironment({ FIELDBOOK_PLUGINS: MISSING });
      await use(env);
      await env.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
});

test('a plugin that failed to load is listed as failed with its reason, beside the plugins that started', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('plugin-admin');
  const token = await signUpByApi(env, email, 'Ada Admin');
  await createWorkspaceByApi(env, token, 'Plugin Failures');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/extensions');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Extensions');
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);

  const failed = page.getByRole('article', { name: MISSING });
  await expect(failed.getByText('Failed', { exact: true })).toBeVisible();
  await expect(
    failed.getByText(`The npm package ${MISSING} is not installed: run npm install ${MISSING}`),
  ).toBeVisible();
  await expect(failed.getByText(`npm package ${MISSING}`, { exact: true })).toBeVisible();
  await expect(failed.getByRole('button')).toHaveCount(0); // nothing to install

  // The bundled plugins started regardless, each saying where it came from.
  const slack = page.getByRole('article', { name: 'Slack' });
  await expect(
    slack.getByText(/^Bundled \(@fieldbook\/plugin-slack \d+\.\d+\.\d+\) · .*plugins\/slack$/),
  ).toBeVisible();
  await expect(slack.getByRole('button', { name: 'Install Slack' })).toBeEnabled();

  await failed.scrollIntoViewIfNeeded();
  await shot(page, 'extensions-failed-plugin');
  expect(await seriousViolations(page), 'axe on /settings/extensions with a failed plugin').toEqual([]);
});
