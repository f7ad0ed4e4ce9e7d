import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const day = 86_400_000;
const ticket = (id: number, subject: string, tags: string[]) => ({
  id,
  subject,
  description: `${subject}. Reported by a customer.`,
  status: 'open',
  priority: 'normal',
  type: 'question',
  tags,
  group_id: null,
  requester_id: null,
  created_at: new Date(Date.now() - 2 * day).toISOString(),
});

const SURVEY = [
  'Response ID,Email,What nearly stopped you from signing up?,Plan',
  'r1,ana@example.com,The price page was confusing,Team',
  'r2,bo@example.com,Nothing,Team',
  'r3,,' + 'x'.repeat(20001) + ',Enterprise',
  'r4,,Setup took long,Team',
].join('\n');

test('a person connects Zendesk to a channel, watches the first import, syncs again and reads the sync history, then imports a survey', async ({
  page,
  env,
}) => {
  // Four screens, three syncs and a survey: more than two minutes on a busy machine.
  test.setTimeout(240_000);
  const email = uniqueEmail('sources');
  const token = await signUpByApi(env, email, 'Robin Sources');
  const workspace = await createWorkspaceByApi(env, token, 'Support Insights');
  const as = { token, workspace: workspace.id };
  // Ids of their own, so the worker's other tests never see these tickets.
  const base = 700_000 + Math.floor(Math.random() * 100_000) * 10;
  env.zendesk.upsert(ticket(base + 1, 'Exports time out on big projects', ['feedback']));
  env.zendesk.upsert(ticket(base + 2, 'Please add dark mode', ['feedback']));
  env.zendesk.upsert(ticket(base + 3, 'Invoice address is wrong', ['billing']));
  const { createChannel } = await gql<{ createChannel: { id: string } }>(
    env,
    'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
    {},
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);

  // The admin installs Zendesk with its credentials on the plugin settings screen.
  await page.goto('/settings/extensions');
  const card = page.getByRole('article', { name: 'Zendesk' });
  await card.getByRole('button', { name: 'Install Zendesk' }).click();
  const form = page.getByRole('dialog', { name: 'Install Zendesk' });
  await form.getByLabel('Zendesk subdomain').fill('acme');
  await form.getByLabel('Agent email address').fill('agent@acme.example');
  await form.getByLabel('API token').fill('zendesk-token');
  await shot(page, 'zendesk-install');
  await form.getByRole('button', { name: 'Install', exact: true }).click();
  await expect(card.getByText('Installed', { exact: true })).toBeVisible();
  await page.goto(`/channels/${createChannel.id}`);
  // The channel screen's code loads on first visit: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: 'Support tickets' })).toBeVisible({ timeout: 30_000 });

  // The source picker offers the installed plugin's source beside the CSV file.
  await page.getByRole('button', { name: 'Import data' }).click();
  await page.getByRole('dialog', { name: 'Import a CSV file' }).getByRole('textbox', { name: 'Source' }).click();
  await page.getByRole('option', { name: 'Zendesk tickets (Zendesk)' }).click();
  const wizard = page.getByRole('dialog', { name: 'Connect Zendesk tickets' });
  await wizard.getByRole('textbox', { name: 'Tags' }).fill('feedback');
  await shot(page, 'channel-source-connect');
  expect(await seriousViolations(page), 'axe on the connection form').toEqual([]);
  await wizard.getByRole('button', { name: 'Connect and import' }).click();
  await expect(wizard.getByText('2 read: 2 created, 0 updated, 0 failed')).toBeVisible({ timeout: 30_000 });
  await expect(wizard.getByText('Import complete')).toBeVisible();
  await shot(page, 'channel-source-progress');
  await wizard.getByRole('button', { name: 'Done' }).click();

  // The channel lists the connection: its last sync, "Sync now" and its history.
  const sources = page.getByRole('region', { name: 'Sources' });
  await expect(sources.getByText('Last sync: 2 read, 2 created, 0 updated, 0 failed')).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Data points' }).getByText('Exports time out on big projects'),
  ).toBeVisible();
  env.zendesk.upsert(ticket(base + 4, 'Search misses attachments', ['feedback']));
  await sources.getByRole('button', { name: 'Sync now' }).click();
  await expect(sources.getByText('Last sync: 1 read, 1 created, 0 updated, 0 failed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('list', { name: 'Data points' }).getByText('Search misses attachments')).toBeVisible();
  // The datasets' counts and the import history follow the sync, without reloading the page.
  await expect(
    page
      .getByRole('table', { name: 'Datasets' })
      .getByRole('row', { name: /Zendesk tickets/ })
      .getByRole('cell', { name: '3', exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Import history' }).getByRole('row')).toHaveCount(3);
  await sources.getByRole('button', { name: 'Sync history' }).click();
  const runs = sources.getByRole('table', { name: 'Sync history' });
  await expect(runs.getByRole('row')).toHaveCount(3);
  await expect(runs.getByRole('row').nth(1)).toContainText('Sync now');
  await expect(runs.getByRole('row').nth(2)).toContainText('First import');
  await shot(page, 'channel-source-history');
  expect(await seriousViolations(page), 'axe on the channel with its sources').toEqual([]);

  // The connection's settings: shown in a line, changed in a dialog (typed as a person types, comma
  // and all); the next sync reads the source again with them, updating what is in.
  await expect(sources.getByText('Groups: all · Tags: feedback')).toBeVisible();
  await sources.getByRole('button', { name: 'Edit settings' }).click();
  const edit = page.getByRole('dialog', { name: 'Settings of Zendesk tickets' });
  const tags = edit.getByRole('textbox', { name: 'Tags' });
  await expect(tags).toHaveValue('feedback');
  await tags.fill('');
  await tags.pressSequentially('feedback, billing');
  await expect(tags).toHaveValue('feedback, billing');
  await shot(page, 'channel-source-settings');
  expect(await seriousViolations(page), 'axe on the source settings').toEqual([]);
  await edit.getByRole('button', { name: 'Save settings' }).click();
  await expect(sources.getByText('Groups: all · Tags: feedback, billing')).toBeVisible();
  await sources.getByRole('button', { name: 'Sync now' }).click();
  await expect(sources.getByText('Last sync: 4 read, 1 created, 3 updated, 0 failed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('list', { name: 'Data points' }).getByText('Invoice address is wrong')).toBeVisible();

  // A survey export: each column says what it holds, and a response that cannot go in is listed with why.
  await page.getByRole('button', { name: 'Import data' }).click();
  await page.getByRole('dialog', { name: 'Import a CSV file' }).getByRole('textbox', { name: 'Source' }).click();
  await page.getByRole('option', { name: 'Survey responses (CSV)' }).click();
  const survey = page.getByRole('dialog', { name: 'Import survey responses' });
  await survey
    .locator('input[type="file"]')
    .setInputFiles({ name: 'onboarding.csv', mimeType: 'text/csv', buffer: Buffer.from(SURVEY) });
  await expect(survey.getByRole('textbox', { name: 'Column Response ID' })).toHaveValue('Response id');
  await survey.getByRole('textbox', { name: 'Column Plan' }).click();
  await page.getByRole('option', { name: 'Question: one choice' }).click();
  // A column whose answers cannot be choices is named before anything is sent.
  const question = survey.getByRole('textbox', { name: 'Column What nearly stopped you from signing up?' });
  await question.click();
  await page.getByRole('option', { name: 'Question: one choice' }).click();
  await survey.getByRole('button', { name: 'Import 4 responses' }).click();
  await expect(survey.getByRole('alert')).toContainText(
    'The column "What nearly stopped you from signing up?" has an answer longer than 50 characters',
  );
  await question.click();
  await page.getByRole('option', { name: 'Question: free text' }).click();
  await survey.getByRole('button', { name: 'Import 4 responses' }).click();
  await expect(survey.getByText('3 data points created and 0 updated, as a survey; 1 failed.')).toBeVisible({
    timeout: 20_000,
  });
  await expect(survey.getByRole('table', { name: 'Failed responses' })).toContainText(
    'A response can be at most 20000 characters long.',
  );
  await shot(page, 'channel-survey-import');
  expect(await seriousViolations(page), 'axe on the survey import').toEqual([]);
});
