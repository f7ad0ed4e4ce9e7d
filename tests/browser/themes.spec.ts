import type { Page } from '@playwright/test';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

const SUBJECTS = [
  [
    'CSV export times out on large projects',
    'The export to CSV never finishes',
    'Exporting large CSV files fails with a timeout',
    'Export of the report times out',
    'CSV export stuck at 99 percent',
  ],
  [
    'Cannot log in with Google single sign-on',
    'Single sign-on login loops back to the start',
    'SSO login error after the password reset',
    'Google login for SSO keeps failing',
    'Login with SSO fails every morning',
  ],
  [
    'The mobile app crashes when I open a note',
    'iPhone mobile app crashes at launch',
    'The Android mobile app crashes constantly',
    'Mobile app keeps crashing while syncing',
    'Mobile app crash on Android when opening notes',
  ],
  [
    'The team plan price is too high',
    'Team plan price doubled this year',
    'Seats on the team plan cost too much',
    'Too expensive: the team plan price per seat',
    'Team plan pricing per seat is unclear',
  ],
];

test('a person finds a channel’s themes, reads and renames one, and moves a data point to the outliers', async ({
  page,
  env,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('themes');
  const token = await signUpByApi(env, email, 'Theo Themes');
  const ws = await createWorkspaceByApi(env, token, 'Theme Team');
  const { createChannel } = await gql<{ createChannel: { id: string } }>(
    env,
    'mutation { createChannel(input: { name: "Support tickets" }) { id } }',
    {},
    { token, workspace: ws.id },
  );
  const dataPoints = SUBJECTS.flatMap((texts, s) =>
    texts.flatMap((text, i) =>
      [0, 1].map((c) => ({
        externalId: `p-${s}-${i}-${c}`,
        content: c ? `${text}, again` : text,
        createdAt: `2026-03-0${1 + i}T10:00:00Z`,
      })),
    ),
  );
  const pushed = await fetch(`${env.url}/api/channels/${createChannel.id}/datapoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-fieldbook-workspace': ws.id, 'content-type': 'application/json' },
    body: JSON.stringify({ dataPoints }),
  });
  expect(pushed.status).toBe(200);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/channels/${createChannel.id}`);
  const panel = page.getByRole('region', { name: 'Themes' });
  // The first screen loads the channel's code: more than the default wait on a busy machine.
  await expect(panel.getByText('Group this channel’s data points into themes')).toBeVisible({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Find themes' }).click();
  await expect(panel.getByText(/40 data points in 4 themes/)).toBeVisible({ timeout: 30_000 });
  const themes = panel.getByRole('list', { name: 'Themes' });
  await expect(themes.getByRole('listitem')).toHaveCount(4);
  await expectAccessible(page, 'the channel’s themes');
  await shot(page, 'themes-channel');

  // A theme: its chart over time, a local summary quoting its points, a new name.
  const mobile = themes.getByRole('link', { name: /mobile app/i });
  await mobile.click();
  await expect(page.getByRole('heading', { level: 1, name: /mobile app/i })).toBeVisible();
  await expect(page.getByRole('img', { name: /Data points over time: 10 in/ })).toBeVisible();
  await page.getByRole('button', { name: 'Summarize' }).click();
  await expect(page.getByTestId('theme-summary-provenance')).toHaveText(
    'Local summary (no AI model configured) from 10 data points',
  );
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('textbox', { name: 'Theme title' }).fill('App crashes');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'App crashes' })).toBeVisible();
  const points = page.getByRole('list', { name: 'Data points of this theme' });
  await expect(points.getByRole('listitem')).toHaveCount(10);
  await expectAccessible(page, 'a theme');
  await shot(page, 'themes-theme');

  // One of its data points moves to the outliers, and is listed there.
  const first = points.getByRole('listitem').first();
  const text = (await first.getByRole('paragraph').first().textContent()) ?? '';
  await first.getByRole('link').click();
  await expect(page).toHaveURL(/\/themes\/[0-9a-f-]{36}\/data\/[0-9a-f-]{36}$/);
  const section = page.getByRole('region', { name: 'Theme' });
  await expect(section.getByRole('link', { name: 'App crashes' })).toBeVisible();
  await section.getByRole('textbox', { name: 'Move to' }).click();
  await page.getByRole('option', { name: 'Outliers' }).click();
  await section.getByRole('button', { name: 'Move' }).click();
  await expect(section.getByText('An outlier: it fits no theme.')).toBeVisible();
  await expectAccessible(page, 'a data point with its theme');
  await page.goto(`/channels/${createChannel.id}/outliers`);
  await expect(page.getByRole('heading', { level: 1, name: 'Outliers' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Outliers' })).toContainText(text);
  await expectAccessible(page, 'the outliers');
  await shot(page, 'themes-outliers');

  // Topics group the themes.
  await page.goto(`/channels/${createChannel.id}`);
  await page
    .getByRole('region', { name: 'Themes' })
    .getByRole('link', { name: /^Topic: / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/t\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('list', { name: 'Themes of this topic' }).getByRole('listitem').first()).toBeVisible();
  await expectAccessible(page, 'a topic');
  await shot(page, 'themes-topic');
});
