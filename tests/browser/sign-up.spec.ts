import { createWorkspace, expect, signUpAndConfirm, test, uniqueEmail } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('a new person signs up, confirms by email, creates a workspace and lands on home', async ({ page, mailLink }) => {
  const email = uniqueEmail('founder');
  await page.goto('/auth/signup');
  await shot(page, 'signup');

  // The password rule of 002 §5 is shown and checked before anything is sent.
  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(/Your password needs at least 12 characters/)).toBeVisible();
  await expect(page.getByText('Check your inbox')).toHaveCount(0);

  await signUpAndConfirm(page, mailLink, email, 'Grace Hopper');
  // No workspace yet: the confirmation signs in and leads to creating one.
  await expect(page).toHaveURL(/\/auth\/create-workspace$/);
  await expect(page.getByRole('textbox', { name: 'Data region' })).toHaveValue('Ohio (us-east-2)');
  await page.getByLabel('Workspace name').fill('Acme Research');
  await expect(page.getByLabel('Subdomain')).toHaveValue(/^acme-research/);
  await shot(page, 'create-workspace');
  await createWorkspace(page, 'Acme Research');

  await expect(page.getByText('Welcome to Acme Research.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acme Research workspace menu' })).toBeVisible();
  await shot(page, 'home');

  // A reload keeps the session and the workspace.
  await page.reload();
  await expect(page.getByText('Welcome to Acme Research.')).toBeVisible();
});
