import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { seriousViolations } from './support/axe.ts';
import { shot } from './support/shots.ts';

test('an admin manages roles, members, groups, security and sees it in the audit log', async ({
  page,
  browser,
  env,
}) => {
  const email = uniqueEmail('owner');
  const token = await signUpByApi(env, email, 'Olga Owner');
  const workspace = await createWorkspaceByApi(env, token, 'Admin Research');
  const admin = { token, workspaceId: workspace.id };
  await addMemberByApi(env, admin, uniqueEmail('viewer'), 'VIEWER');
  await addMemberByApi(env, admin, uniqueEmail('leaver'), 'CONTRIBUTOR');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // Change a role.
  await page.goto('/settings/users');
  await page.getByRole('textbox', { name: 'Role of Member viewer' }).click();
  await page.getByRole('option', { name: 'Manager' }).click();
  await expect(page.getByText('Member viewer is now manager.')).toBeVisible();

  // Remove a member, after confirming.
  await page.getByRole('button', { name: 'More actions for Member contributor' }).click();
  await page.getByRole('menuitem', { name: 'Remove from workspace' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Member contributor was removed from Admin Research.')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Members (2)' })).toBeVisible();
  await shot(page, 'members-managed');
  expect(await seriousViolations(page), 'axe on members').toEqual([]);

  // A group with a member.
  await page.goto('/settings/groups');
  await page.getByRole('button', { name: 'New group' }).click();
  await page.getByRole('dialog').getByLabel('Group name').fill('Design');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('cell', { name: 'Design', exact: true })).toBeVisible();
  await page.getByRole('button', { name: /edit the members of Design/ }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Members' }).click();
  await page.getByRole('option', { name: /Olga Owner/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: /edit the members of Design/ })).toHaveText('1 member');
  await shot(page, 'groups-filled');
  expect(await seriousViolations(page), 'axe on groups with a group').toEqual([]);

  // Security: allowed domains, public links, an API token shown once.
  await page.goto('/settings/security');
  const domains = page.getByRole('textbox', { name: 'Domains' });
  await domains.fill('admin-research.example');
  await domains.press('Enter');
  await page.getByRole('button', { name: 'Save domains' }).click();
  await expect(page.getByText('Allowed email domains saved.')).toBeVisible();
  await page.getByRole('switch', { name: 'Allow public links' }).click();
  await expect(page.getByText(/Public links are off/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Token name' }).fill('Warehouse sync');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByText('Copy your new token now')).toBeVisible();
  const shown = await page.getByLabel('New API token').textContent();
  expect(shown).toMatch(new RegExp(`^api\\.${workspace.id}\\.`));
  await expect(page.getByRole('cell', { name: 'Warehouse sync', exact: true })).toBeVisible();
  await shot(page, 'security-filled');
  expect(await seriousViolations(page), 'axe on security with a token').toEqual([]);
  // The token works against the API on its own.
  const { currentWorkspace } = await gql<{
    currentWorkspace: { allowedDomains: string[]; publicLinksDisabled: boolean };
  }>(env, '{ currentWorkspace { allowedDomains publicLinksDisabled } }', {}, { token: shown! });
  expect(currentWorkspace).toEqual({ allowedDomains: ['admin-research.example'], publicLinksDisabled: true });

  // Someone with an email at the allowed domain finds the workspace and joins it.
  const colleague = `colleague-${Date.now().toString(36)}@admin-research.example`;
  await signUpByApi(env, colleague, 'Cole League');
  const context = await browser.newContext();
  const other = await context.newPage();
  await signInWithPassword(other, colleague);
  await expect(other).toHaveURL(/\/auth\/workspaces$/);
  await expect(other.getByText('Anyone with your email domain can join.')).toBeVisible();
  await shot(other, 'workspaces-domain');
  await other.getByRole('button', { name: 'Join Admin Research' }).click();
  await expect(other).toHaveURL(WORKSPACE_HOME);
  await expect(other.getByText('Welcome to Admin Research.')).toBeVisible();
  await context.close();

  // Every change is in the audit log, newest first.
  await page.goto('/audit-log');
  await expect(page.getByText('Created the API token “Warehouse sync”')).toBeVisible();
  await expect(page.getByText('Set the allowed email domains to admin-research.example')).toBeVisible();
  await expect(page.getByText('Removed a member')).toBeVisible();
  await expect(page.getByText('Joined by email domain as viewer')).toBeVisible();
  await expect(page.getByText(/Changed a member’s role from viewer to manager/)).toBeVisible();
  await shot(page, 'audit-log-filled');
  expect(await seriousViolations(page), 'axe on the audit log').toEqual([]);

  // Own name.
  await page.goto('/settings/user/account');
  await page.getByRole('textbox', { name: 'Name' }).fill('Olga O. Owner');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your name was saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Olga O. Owner');
});
