import type { Page } from '@playwright/test';
import { createWorkspaceByApi, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const CSV = [
  'Feedback;Date;Email;NPS',
  'Exports time out on big projects;2026-01-12;dana@example.com;3',
  '"Search is fast; love it";2026-01-20;lee@example.com;9',
  'Bad row;yesterday;;5',
  'Tagging is confusing;2026-02-03;;6',
].join('\n');

test('a person creates a channel, imports a CSV file through the wizard, and reads its data points', async ({
  page,
  env,
}) => {
  // One long story across six screens: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  const email = uniqueEmail('channels');
  const token = await signUpByApi(env, email, 'Casey Channels');
  await createWorkspaceByApi(env, token, 'Feedback Team');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Channels' })).toBeVisible();
  await expect(page.getByText('No channels yet')).toBeVisible();
  await page.getByRole('button', { name: 'New channel' }).click();
  await page
    .getByRole('dialog', { name: 'New channel' })
    .getByRole('textbox', { name: 'Name' })
    .fill('Support tickets');
  await page.getByRole('button', { name: 'Create channel' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/${UUID}$`));
  const channelUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: 'Support tickets' })).toBeVisible();
  await expect(page.getByText('No data points yet')).toBeVisible();

  // Upload -> preview with column mapping -> import with progress -> result with failed rows.
  await page.getByRole('button', { name: 'Import data' }).click();
  const wizard = page.getByRole('dialog', { name: 'Import a CSV file' });
  await wizard
    .locator('input[type="file"]')
    .setInputFiles({ name: 'tickets.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await expect(wizard.getByText('4 rows, separated by semicolons')).toBeVisible();
  await expect(wizard.getByRole('textbox', { name: 'Column Feedback' })).toHaveValue('Feedback text');
  await expect(wizard.getByRole('textbox', { name: 'Column Date' })).toHaveValue('Date');
  await expect(wizard.getByRole('textbox', { name: 'Column Email' })).toHaveValue('Customer email');
  await wizard.getByRole('textbox', { name: 'Column NPS' }).click();
  await page.getByRole('option', { name: 'Field (nps)' }).click();
  await expect(wizard.getByRole('textbox', { name: 'Column NPS' })).toHaveValue('Field (nps)');
  // Nothing is written before the person confirms.
  await expect(page.getByText('No data points yet')).toBeVisible();
  await expectAccessible(page, 'the import preview');
  await shot(page, 'channels-import-preview');
  await wizard.getByRole('button', { name: 'Import 4 rows' }).click();
  await expect(wizard.getByText('Import complete')).toBeVisible({ timeout: 20_000 });
  await expect(wizard.getByText('4 of 4 read: 3 created, 0 updated, 0 outside the dates, 1 failed')).toBeVisible();
  const failed = wizard.getByRole('table', { name: 'Failed rows' });
  await expect(failed.getByRole('row').nth(1)).toContainText('4');
  await expect(failed).toContainText('"yesterday" in the column "Date" is not an ISO 8601 date.');
  await shot(page, 'channels-import-result');
  await wizard.getByRole('button', { name: 'Done' }).click();

  // The channel: newest first, with the chart.
  const list = page.getByRole('list', { name: 'Data points' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(list.getByRole('listitem').first()).toContainText('Tagging is confusing');
  await expect(page.getByRole('img', { name: /Data points over time: 3 in/ })).toBeVisible();
  await expectAccessible(page, 'the channel page');
  await shot(page, 'channels-channel');

  // Rename the channel and describe it; an empty name is refused in words.
  await page.getByRole('button', { name: 'Edit channel' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit channel' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('');
  await editor.getByRole('button', { name: 'Save channel' }).click();
  await expect(editor).toContainText('Give the channel a name.');
  await editor.getByRole('textbox', { name: 'Name' }).fill('Support tickets EU');
  await editor.getByRole('textbox', { name: 'Description' }).fill('Tickets from the EU help desk.');
  await expectAccessible(page, 'the channel editor');
  await shot(page, 'channels-edit');
  await editor.getByRole('button', { name: 'Save channel' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Support tickets EU' })).toBeVisible();
  await expect(page.getByText('Tickets from the EU help desk.')).toBeVisible();

  // A data point's page: content, person and fields with the NPS band.
  await list.getByRole('link', { name: /Exports time out/ }).click();
  await expect(page).toHaveURL(new RegExp(`/channels/${UUID}/data/${UUID}$`));
  await expect(page.getByText('Exports time out on big projects').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'dana@example.com' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Fields', exact: true })).toContainText('Detractor');
  await expect(page.getByRole('heading', { name: 'Ticket' })).toBeVisible();
  await expectAccessible(page, 'the data point page');
  await shot(page, 'channels-datapoint');

  // Hash state: a line chart stays; a range whose from is after its to is dropped.
  await page.goto(`${channelUrl}#preset=custom&from=2026-02-10&to=2026-01-01&chart=line`);
  await expect(page.getByRole('textbox', { name: 'From' })).toHaveValue('');
  await expect(page.getByRole('radio', { name: 'Line' })).toBeChecked();
  await page.goto(`${channelUrl}#preset=custom&from=2026-01-15&to=2026-02-10&chart=bar&filter=tagging`);
  await expect(page.getByRole('list', { name: 'Data points' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'From' })).toHaveValue('2026-01-15');
  // The filter's words are word starts: "tag" finds the same point, counted exactly.
  await page.goto(`${channelUrl}#preset=custom&from=2026-01-15&to=2026-02-10&chart=bar&filter=tag`);
  await expect(page.getByRole('list', { name: 'Data points' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('1 data point', { exact: true })).toBeVisible();
  await expectAccessible(page, 'the filtered channel page');
  await shot(page, 'channels-filtered');

  await page.goto('/channels');
  const row = page.getByRole('table', { name: 'Channels' }).getByRole('row', { name: /Support tickets/ });
  await expect(row).toContainText('3');
  await expectAccessible(page, 'the channels list');
  await shot(page, 'channels-list');

  // Search: the data point under the Data points tab opens on its channel.
  await page.goto('/search');
  await page.getByRole('searchbox', { name: 'Search text' }).fill('tagging');
  await page.getByRole('tab', { name: /^Data points/ }).click();
  await page
    .getByRole('link', { name: /Tagging is confusing/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/channels/${UUID}/data/${UUID}$`));

  // A manager moves the channel to the trash and brings it back from the channels page.
  await page.goto(channelUrl);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete channel' }).click();
  await expect(page).toHaveURL(/\/channels$/);
  await expect(page.getByText('No channels yet')).toBeVisible();
  await expectAccessible(page, 'the channels trash');
  await shot(page, 'channels-trash');
  await page.getByRole('button', { name: 'Restore Support tickets' }).click();
  await expect(
    page.getByRole('table', { name: 'Channels' }).getByRole('row', { name: /Support tickets/ }),
  ).toBeVisible();
});
