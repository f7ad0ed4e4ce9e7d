import type { Page } from '@playwright/test';
import { addMemberByApi, createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { seriousViolations } from './support/axe.ts';
import { shot } from './support/shots.ts';

async function check(page: Page, path: string, heading: string | RegExp, name: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  // Wait until the page has loaded what it shows (no spinner left).
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await shot(page, name);
  expect(await seriousViolations(page), `axe on ${path}`).toEqual([]);
}

test('the sign-in and sign-up screens have no serious accessibility problems', async ({ page }) => {
  await check(page, '/auth/login', 'Sign in to Fieldbook', 'login');
  await check(page, '/auth/signup', 'Create your Fieldbook account', 'signup');
  await check(page, '/auth/reset-password', 'Reset your password', 'reset-password');
  await check(page, '/auth/find-workspace', 'Find your workspace', 'find-workspace');
  await check(page, '/auth/accept-invite?token=not-a-real-token', 'Accept your invitation', 'accept-invite-invalid');
  await check(page, '/no-such-page', 'Page not found', 'not-found');

  // Keyboard only: the sign-in form is reachable and usable with Tab and Enter.
  await page.goto('/auth/login');
  await page.getByRole('textbox', { name: 'Email', exact: true }).focus();
  await page.keyboard.type('nobody@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Not-The-Password-1');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('The email or password is not right.');
});

test('home and the settings screens have no serious accessibility problems', async ({ page, env }) => {
  const email = uniqueEmail('a11y');
  const token = await signUpByApi(env, email, 'Alex Access');
  const workspace = await createWorkspaceByApi(env, token, 'Access Research');
  await addMemberByApi(env, { token, workspaceId: workspace.id }, uniqueEmail('colleague'), 'CONTRIBUTOR');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  await check(page, '/home', /Good (morning|afternoon|evening), Alex/, 'home');
  await check(page, '/settings/users', 'Members', 'members');
  await page.getByRole('button', { name: 'Invite people' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await seriousViolations(page), 'axe on the invite dialog').toEqual([]);
  await page.keyboard.press('Escape');
  await check(page, '/settings/groups', 'Groups', 'groups');
  await check(page, '/settings/security', 'Security', 'security');
  await check(page, '/settings/user/account', 'Account', 'account');
  await check(page, '/audit-log', 'Audit log', 'audit-log');
  await check(page, '/onboarding', 'Set up Access Research', 'onboarding');
  await check(page, '/auth/workspaces', 'Choose a workspace', 'workspaces');
  await check(page, '/auth/create-workspace', 'Create a workspace', 'create-workspace-filled');
});
