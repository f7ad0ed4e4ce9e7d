import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('the API tokens screen counts a person’s tokens against the limit and stops offering new ones at it', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('tokens');
  const token = await signUpByApi(env, email, 'Tia Tokens');
  const workspace = await createWorkspaceByApi(env, token, 'Token limit');
  for (let i = 1; i <= 49; i++)
    await gql(
      env,
      'mutation($n: String!) { createApiToken(name: $n) { token } }',
      { n: `Script ${i}` },
      {
        token,
        workspace: workspace.id,
      },
    );
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/user/api-tokens');

  await expect(page.getByText('49 of 50 API tokens in this workspace.')).toBeVisible();
  const name = page.getByRole('textbox', { name: 'Token name' });
  await name.fill('The fiftieth');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByLabel('New API token')).toBeVisible();
  const full =
    'You have 50 of 50 API tokens, the most you can have in this workspace. Revoke one you no longer use to create another.';
  await expect(page.getByText(full)).toBeVisible();
  await expect(name).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Create token' })).toBeDisabled();
  await shot(page, 'api-tokens-at-limit');
  expect(await seriousViolations(page), 'axe on /settings/user/api-tokens at the limit').toEqual([]);

  // Revoking one makes room again (the newest: the list shows the newest first).
  await page.getByRole('button', { name: 'Revoke the token The fiftieth' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('49 of 50 API tokens in this workspace.')).toBeVisible();
  await expect(name).toBeEnabled();
});
