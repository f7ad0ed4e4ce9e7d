import { test as base, expect, type Page } from '@playwright/test';
import { startBrowserEnvironment, type BrowserEnvironment } from './fieldbook.ts';

export const PASSWORD = 'Correct-Horse-42';

/**
 * The workspace home itself. Signing in with one workspace passes through
 * /team-redirect/{id}/home, which a bare /home$/ also matches: a test that moves on then races the
 * redirect that enters the workspace.
 */
export const WORKSPACE_HOME = /^https?:\/\/[^/]+\/home$/;

let counter = 0;
/** A fresh address per call, so tests never share an account. */
export const uniqueEmail = (label: string): string => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

/** One Fieldbook (database, mail server, web app) per worker; tests share it with fresh accounts. */
export const test = base.extend<
  { mailLink: (to: string, subject: RegExp, path: string) => Promise<string>; freshModel: void },
  { env: BrowserEnvironment; fieldbookEnv: Record<string, string> }
>({
  /** Extra settings of a spec's Fieldbook (`test.use({ fieldbookEnv: { AI_STEPS: 'on' } })`): it then gets a worker of its own. */
  fieldbookEnv: [{}, { scope: 'worker', option: true }],
  env: [
    async ({ fieldbookEnv }, use) => {
      const env = await startBrowserEnvironment(fieldbookEnv);
      await use(env);
      await env.stop();
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ env }, use) => use(env.url),
  /** Tests of one worker share its model server; each starts with it answering blank, whatever the last one scripted. */
  freshModel: [
    async ({ env }, use) => {
      env.ai.reset();
      await use();
    },
    { auto: true },
  ],
  /** Waits for a mail to `to` whose subject matches, and returns the link in it to `path`. */
  mailLink: async ({ env }, use) => {
    await use(async (to, subject, path) => {
      const mail = await env.mail.waitForMail(to, (m) => subject.test(m.subject), 15_000);
      return env.mail.linkIn(mail, `${env.url}${path}`).toString();
    });
  },
});

export { expect };

/** Signs up through the web app and confirms through the mailed link; ends signed in. */
export async function signUpAndConfirm(
  page: Page,
  mailLink: (to: string, subject: RegExp, path: string) => Promise<string>,
  email: string,
  name: string,
) {
  await page.goto('/auth/signup');
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your inbox')).toBeVisible();
  await page.goto(await mailLink(email, /Confirm your email/, '/auth/confirm-email'));
}

/** Creates a workspace from the create-workspace screen and waits for home. */
export async function createWorkspace(page: Page, name: string) {
  await expect(page).toHaveURL(/\/auth\/create-workspace/);
  if ((await page.getByLabel('Workspace name').inputValue()) !== name)
    await page.getByLabel('Workspace name').fill(name);
  await expect(page.getByLabel('Subdomain')).not.toHaveValue('', { timeout: 5000 });
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Good (morning|afternoon|evening)/);
}

/** Signs in on the sign-in page with email and password (the page may carry a `next`). */
export async function signInWithPassword(
  page: Page,
  email: string,
  password = PASSWORD,
  opts: { goto?: boolean } = {},
) {
  if (opts.goto !== false) await page.goto('/auth/login');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
