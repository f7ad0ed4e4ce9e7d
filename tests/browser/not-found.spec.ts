import { createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('an unknown route shows the not-found page', async ({ page }) => {
  const res = await page.goto('/no/such/page');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await shot(page, 'not-found');
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test('signed in, an unknown route shows not-found inside the app, and an unknown workspace says so', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('lost');
  const token = await signUpByApi(env, email, 'Lou Lost');
  await createWorkspaceByApi(env, token, 'Lost Research');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  await page.goto('/no/such/place');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await shot(page, 'not-found-in-app');

  // A route that exists, naming something that does not.
  await page.goto('/projects/nothing-here');
  await expect(page.getByText('This project was not found')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to projects' })).toBeVisible();

  // A workspace that does not exist (a stale link or a deleted workspace).
  await page.evaluate(() => localStorage.setItem('fieldbook.workspace', '00000000-0000-4000-8000-000000000000'));
  await page.goto('/home');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Workspace not found');
  await shot(page, 'workspace-not-found');
  await page.getByRole('button', { name: 'Choose a workspace' }).click();
  await expect(page).toHaveURL(/\/auth\/workspaces$/);
  await expect(page.getByRole('link', { name: 'Open Lost Research' })).toBeVisible();
  await shot(page, 'workspaces');
});
