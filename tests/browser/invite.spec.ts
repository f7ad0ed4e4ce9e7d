import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { PASSWORD, expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('an admin invites a second person, who signs up from the mailed link and joins', async ({
  page,
  browser,
  env,
  mailLink,
}) => {
  const adminEmail = uniqueEmail('admin');
  const token = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, token, 'Northwind Insights');

  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  await page.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await page.getByRole('button', { name: 'Invite people' }).click();
  const dialog = page.getByRole('dialog');
  const invitee = uniqueEmail('invitee');
  await dialog.getByLabel('Email addresses').fill(invitee);
  await dialog.getByRole('textbox', { name: 'Role' }).click();
  // An admin may invite with any role.
  await expect(page.getByRole('option')).toHaveText(['Viewer', 'Contributor', 'Manager']);
  await page.getByRole('option', { name: 'Manager' }).click();
  await shot(page, 'invite-dialog');
  await dialog.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText('Invitations sent')).toBeVisible();
  await page.getByRole('tab', { name: /Pending invitations/ }).click();
  await expect(page.getByRole('cell', { name: invitee, exact: true })).toBeVisible();
  await shot(page, 'members-invites');

  const link = await mailLink(invitee, /invited you to Northwind Insights/, '/auth/accept-invite');

  // The invited person has never used Fieldbook: a fresh browser with no session.
  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Join Northwind Insights on Fieldbook');
  await expect(guest.getByText(/Ada Admin invited/)).toBeVisible();
  await expect(guest.getByLabel('Work email')).toHaveValue(invitee);
  await shot(guest, 'accept-invite');
  await guest.getByLabel('Your name').fill('Ian Invitee');
  await guest.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await guest.getByRole('button', { name: 'Create account' }).click();
  await expect(guest.getByText('Check your inbox')).toBeVisible();

  // Confirming the email signs in and lands in the workspace of the invitation, even in another
  // browser than the one that signed up (the mail opened on a phone): the link carries the invitation.
  await context.close();
  const elsewhere = await browser.newContext();
  const confirmer = await elsewhere.newPage();
  await confirmer.goto(await mailLink(invitee, /Confirm your email/, '/auth/confirm-email'));
  await expect(confirmer).toHaveURL(WORKSPACE_HOME);
  await expect(confirmer.getByText('Welcome to Northwind Insights.')).toBeVisible();
  await expect(confirmer.getByText(/^Your role:\s*Manager$/)).toBeVisible();
  await shot(confirmer, 'invite-landed');
  await elsewhere.close();

  // The admin sees the new member.
  await page.getByRole('tab', { name: /Members/ }).click();
  await page.reload();
  await expect(page.getByText('Ian Invitee')).toBeVisible();
  const { members } = await gql<{ members: { totalCount: number } }>(
    env,
    '{ members { totalCount } }',
    {},
    { token, workspace: workspace.id },
  );
  expect(members.totalCount).toBe(2);
});

test('a contributor may invite only with their own role or a lower one', async ({ page, env }) => {
  const admin = await signUpByApi(env, uniqueEmail('admin'), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, admin, 'Contoso Research');
  const email = uniqueEmail('contributor');
  await addMemberByApi(env, { token: admin, workspaceId: workspace.id }, email, 'CONTRIBUTOR');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/users');
  await page.getByRole('button', { name: 'Invite people' }).click();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Role' }).click();
  await expect(page.getByRole('option')).toHaveText(['Viewer', 'Contributor']);
  // No role changes or removals for a contributor.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /More actions for/ })).toHaveCount(0);
});
