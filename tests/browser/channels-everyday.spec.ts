import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const CSV = [
  'Comment,Date',
  'Exports time out on large projects,2026-03-01',
  'Exports time out on big projects again,2026-03-02',
  'The onboarding checklist is lovely,2026-03-03',
  'Broken date,yesterday',
].join('\n');

test('a channel’s datasets, imports, share links, similar points and an insight made of selected points', async ({
  page,
  env,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('everyday');
  const token = await signUpByApi(env, email, 'Robin Feedback');
  const ws = await createWorkspaceByApi(env, token, 'Insights Team');
  const as = { token, workspace: ws.id };
  const { createChannel } = await gql<{ createChannel: { id: string } }>(
    env,
    'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
    {},
    as,
  );
  await gql(env, 'mutation { createProject(input: { title: "Exports research" }) { id } }', {}, as);
  const settings = encodeURIComponent(JSON.stringify({ analyzeColumnLabel: 'Comment', timestampColumnLabel: 'Date' }));
  const res = await fetch(
    `${env.url}/api/channels/${createChannel.id}/imports?name=March%20survey&settings=${settings}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': ws.id, 'content-type': 'text/csv' },
      body: CSV,
    },
  );
  const { importId } = (await res.json()) as { importId: string };
  await expect
    .poll(
      async () =>
        (
          await gql<{ channelImport: { status: string } }>(
            env,
            'query($id: ID!) { channelImport(id: $id) { status } }',
            { id: importId },
            as,
          )
        ).channelImport.status,
      { timeout: 20_000 },
    )
    .toBe('COMPLETED');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/channels/${createChannel.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Support tickets' })).toBeVisible();

  // Datasets with their size and last import; the import history with its failed record.
  const datasets = page.getByRole('table', { name: 'Datasets' });
  await expect(datasets.getByRole('row').nth(1)).toContainText('March survey');
  await expect(datasets.getByRole('row').nth(1)).toContainText('CSV');
  await expect(datasets.getByRole('row').nth(1)).toContainText('Completed');
  await expect(datasets.getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText('3');
  const history = page.getByRole('table', { name: 'Import history' });
  await expect(history.getByRole('row').nth(1)).toContainText('March survey');
  await history.getByText('1 failed record with their reasons').click();
  await expect(history.getByRole('table', { name: 'Failed records' })).toContainText('Line 5');
  await expectAccessible(page, 'the channel page with datasets');
  await shot(page, 'channels-datasets-imports');

  // Share the channel: a public link anyone can open, read-only.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Support tickets”' });
  await expect(dialog.getByText('No public links yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create public link' }).click();
  const linkBox = dialog.getByRole('textbox', { name: 'Public link' });
  await expect(linkBox).toHaveValue(/\/p\/data\/[A-Za-z0-9]{12}$/);
  const publicUrl = await linkBox.inputValue();
  await expectAccessible(page, 'the share dialog');
  await shot(page, 'channels-share-dialog');
  await page.keyboard.press('Escape');
  await expect(datasets.getByRole('button', { name: 'Share the dataset March survey' })).toBeVisible();

  // A visitor signed in nowhere, in a browser context of their own.
  const visitorContext = await page.context().browser()!.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(publicUrl);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Support tickets' })).toBeVisible();
  await expect(visitor.getByRole('list', { name: 'Data points' }).getByRole('listitem')).toHaveCount(3);
  await expectAccessible(visitor, 'the public channel');
  await shot(visitor, 'channels-public-view');
  await visitorContext.close();

  // Similar points on a data point's page.
  await page.getByRole('link', { name: 'Exports time out on large projects' }).click();
  const similar = page.getByRole('list', { name: 'Similar data points' });
  await expect(similar.getByRole('listitem')).toHaveCount(1);
  await expect(similar).toContainText('Exports time out on big projects again');
  await expectAccessible(page, 'the data point page');
  await shot(page, 'channels-similar');
  await page.getByRole('link', { name: 'Back to the channel' }).click();

  // Select two points, then make an insight citing them.
  await page.getByRole('checkbox', { name: 'Select: The onboarding checklist is lovely' }).check();
  await page.getByRole('checkbox', { name: 'Select: Exports time out on large projects' }).check();
  await page.getByRole('button', { name: 'Create insight' }).click();
  await expect(page).toHaveURL(/\/insights\/create\/[0-9a-f-]{36}#points=/);
  await expect(page.getByRole('list', { name: 'Cited data points' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('textbox', { name: 'Project' }).click();
  await page.getByRole('option', { name: 'Exports research' }).click();
  await expectAccessible(page, 'the create insight page');
  await shot(page, 'channels-create-insight');
  await page.getByRole('button', { name: 'Create insight citing 2 data points' }).click();
  await expect(page).toHaveURL(/\/insights\/[0-9a-f-]{36}$/);
  await expect(page.getByText('The onboarding checklist is lovely')).toBeVisible();
  await shot(page, 'channels-insight-from-points');
});
