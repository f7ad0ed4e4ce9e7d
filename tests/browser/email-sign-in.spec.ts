import { createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { PASSWORD, expect, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('signs in by a one-time code, by a magic link, and after resetting the password', async ({
  page,
  env,
  mailLink,
}) => {
  const email = uniqueEmail('mail');
  const token = await signUpByApi(env, email, 'Mia Mail');
  await createWorkspaceByApi(env, token, 'Mailroom Research');

  // One-time code (002 §4 EMAIL_ONE_TIME_CODE).
  await page.goto('/auth/login');
  await page.getByText('Email code').click();
  await page.getByRole('textbox', { name: 'Work email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in code' }).click();
  await expect(page.getByText(/We sent a six-digit code/)).toBeVisible();
  await shot(page, 'login-code');
  const mail = await env.mail.waitForMail(email, (m) => m.subject.includes('sign-in code'), 15_000);
  const code = /(\d{6})/.exec(mail.subject)![1]!;
  await page.getByLabel('Sign-in code').first().focus();
  await page.keyboard.type(code);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByText('Welcome to Mailroom Research.')).toBeVisible();
  await page.goto('/auth/logout');
  await expect(page).toHaveURL(/signedOut=1/);

  // Magic link.
  await page.getByText('Email link').click();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await page.goto(await mailLink(email, /sign-in link/, '/auth/magic-login'));
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/auth/logout');
  await expect(page).toHaveURL(/signedOut=1/);

  // Forgotten password: the reset link lets the person choose a new one and signs them in.
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await page.goto(await mailLink(email, /Reset your Fieldbook password/, '/auth/reset-password'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a new password');
  await page.getByRole('textbox', { name: 'New password' }).fill(`${PASSWORD}-new`);
  await shot(page, 'reset-password-new');
  await page.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // A used link does not work twice, and says what to do.
  await page.goto('/auth/logout');
  await page.goto(`/auth/magic-login?token=used-or-made-up`);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByText(/Sign-in links work once/)).toBeVisible();
  await shot(page, 'magic-link-failed');
});
