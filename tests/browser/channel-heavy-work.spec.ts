import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

async function channelOfOwnWorkspace(env: Parameters<typeof signUpByApi>[0], who: string) {
  const email = uniqueEmail(who);
  const token = await signUpByApi(env, email, 'Hana Heavy');
  const ws = await createWorkspaceByApi(env, token, 'Heavy Team');
  const { createChannel } = await gql<{ createChannel: { id: string } }>(
    env,
    'mutation { createChannel(input: { name: "Survey" }) { id } }',
    {},
    { token, workspace: ws.id },
  );
  return { email, workspaceId: ws.id, channelId: createChannel.id };
}

test('a large CSV file is previewed from its first rows, with long values cut, and imported whole', async ({
  page,
  env,
}) => {
  test.setTimeout(120_000);
  const { email, channelId } = await channelOfOwnWorkspace(env, 'heavy-csv');
  const rows = Array.from({ length: 40_000 }, (_, i) => `Answer ${i} about slow exports,2026-04-0${1 + (i % 9)}`);
  const csv = ['Comment,Date', `"${'A very long answer. '.repeat(200)}",2026-04-01`, ...rows].join('\n');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/channels/${channelId}`);
  await page.getByRole('button', { name: 'Import data' }).click({ timeout: 30_000 });
  const wizard = page.getByRole('dialog', { name: 'Import a CSV file' });
  await wizard
    .locator('input[type="file"]')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(
    wizard.getByText('Separated by commas. The first 10 rows are shown; long values are cut.'),
  ).toBeVisible();
  await expect(wizard.getByRole('table', { name: 'Column mapping' })).toContainText('A very long answer.');
  await expectAccessible(page, 'a large file’s preview');
  await shot(page, 'channels-import-large-preview');
  await wizard.getByRole('button', { name: 'Import the file' }).click();
  await expect(wizard.getByText('Import complete')).toBeVisible({ timeout: 60_000 });
  await expect(wizard.getByText(/^40001 read: 40001 created/)).toBeVisible();
});

test('a clustering whose server died says it is being taken over instead of its last percent', async ({
  page,
  env,
}) => {
  // The first screen loads the channel's code: more than the default wait on a busy machine.
  test.setTimeout(180_000);
  const { email, workspaceId, channelId } = await channelOfOwnWorkspace(env, 'heavy-themes');
  // A run whose worker went away a minute ago at 30 %: nothing beats for it any more.
  await env.fieldbook.db.owner('channel_clusterings').insert({
    workspace_id: workspaceId,
    channel_id: channelId,
    version: 1,
    status: 'RUNNING',
    progress: 0.3,
    sensitivity: 3,
    amount: 10,
    heartbeat_at: env.fieldbook.db.owner.raw("now() - interval '1 minute'"),
  });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/channels/${channelId}`);
  const panel = page.getByRole('region', { name: 'Themes' });
  await expect(panel.getByRole('status')).toHaveText(
    'The server finding themes stopped at 30%; another one is taking over and starts again…',
    { timeout: 30_000 },
  );
  await expect(panel.getByRole('progressbar', { name: 'Clustering progress, being taken over' })).toBeVisible();
  await expectAccessible(page, 'a clustering being taken over');
  await shot(page, 'themes-taking-over');
});
