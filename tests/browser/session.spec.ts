import { createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { PASSWORD, expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('signs out and back in', async ({ page, env }) => {
  const email = uniqueEmail('person');
  const token = await signUpByApi(env, email, 'Sam Person');
  await createWorkspaceByApi(env, token, 'Fabrikam Research');

  await page.goto('/home');
  // Not signed in: sign-in first, then back to where the person was going.
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fhome/);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Wrong-Password-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The email or password is not right.');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByText('Welcome to Fabrikam Research.')).toBeVisible();

  await page.getByRole('button', { name: /Open account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?signedOut=1$/);
  await expect(page.getByText('You have signed out.')).toBeVisible();
  await shot(page, 'signed-out');

  // Signed out means signed out: the workspace pages ask to sign in again, even after a reload.
  await page.goto('/settings/user/account');
  await expect(page).toHaveURL(/\/auth\/login\?next=/);

  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/user\/account$/);
  await expect(page.getByLabel('Name')).toHaveValue('Sam Person');
});

test('an expired access token is renewed from the refresh cookie, and a dead session asks to sign in', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('renew');
  const token = await signUpByApi(env, email, 'Rene Renew');
  await createWorkspaceByApi(env, token, 'Renewal Research');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // A token the server refuses: the app renews the session once and carries on.
  await page.evaluate(() =>
    sessionStorage.setItem(
      'fieldbook.session',
      JSON.stringify({ token: 'not-a-valid-token', expiresAt: Date.now() + 600_000 }),
    ),
  );
  await page.reload();
  await expect(page.getByText('Welcome to Renewal Research.')).toBeVisible();

  // With the refresh cookie gone too, the session is over: back to sign-in with a prompt.
  await page.context().clearCookies();
  await page.evaluate(() =>
    sessionStorage.setItem(
      'fieldbook.session',
      JSON.stringify({ token: 'not-a-valid-token', expiresAt: Date.now() + 600_000 }),
    ),
  );
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/login\?next=%2Fhome/);
  await expect(page.getByRole('alert')).toContainText(/sign in again/i);
  await shot(page, 'session-expired');
});

test('shows when Fieldbook cannot be reached, and when it is back', async ({ page, env }) => {
  const email = uniqueEmail('offline');
  const token = await signUpByApi(env, email, 'Otto Offline');
  await createWorkspaceByApi(env, token, 'Offline Research');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // The workspace has loaded before the connection goes (its pages load on demand).
  const members = page.getByRole('link', { name: 'Members' });
  await expect(members).toBeVisible();

  await page.route('**/api/graphql', (route) => route.abort('connectionrefused'));
  await page.route('**/ping', (route) => route.abort('connectionrefused'));
  await members.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Connection problem' })).toContainText(
    'Check your internet connection',
  );
  await expect(page.getByText('Reconnecting…')).toBeVisible();
  await shot(page, 'reconnecting');

  await page.unroute('**/api/graphql');
  await page.unroute('**/ping');
  // The app checks /ping while unhealthy, so it notices on its own.
  await expect(page.getByText('Reconnected')).toBeVisible({ timeout: 12_000 });
  await expect(page.getByText('Reconnected')).toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('button', { name: 'Try again' }).first().click();
  await expect(page.getByText('Otto Offline')).toBeVisible();
});
