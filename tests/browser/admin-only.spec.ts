import { addMemberByApi, createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('a viewer cannot open admin settings', async ({ page, env }) => {
  const admin = await signUpByApi(env, uniqueEmail('admin'), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Tailspin Research');
  const viewer = uniqueEmail('viewer');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, viewer, 'VIEWER');

  await signInWithPassword(page, viewer);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // The sidebar offers no admin screens to a viewer.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Home' })).toBeVisible();
  for (const name of ['Members', 'Groups', 'Security', 'Audit log'])
    await expect(nav.getByRole('link', { name })).toHaveCount(0);

  // Typing the addresses shows a clear page instead of the admin screens.
  for (const path of ['/settings/users', '/settings/groups', '/settings/security', '/audit-log']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You need to be a workspace admin');
    await expect(page.getByRole('button', { name: 'Invite people' })).toHaveCount(0);
    await expect(page.getByText('Allowed email domains')).toHaveCount(0);
  }
  await shot(page, 'needs-admin');

  // Their own account settings stay open to them.
  await page.goto('/settings/user/account');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
});
