import type { Page } from '@playwright/test';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

type Env = Parameters<typeof signUpByApi>[0];
type As = { token: string; workspace: string };

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

/** An admin with a project, and a contributor of the same workspace. */
async function team(
  env: Env,
  label: string,
): Promise<{ admin: As; member: As; memberEmail: string; projectId: string }> {
  const adminToken = await signUpByApi(env, uniqueEmail(`${label}-admin`), 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, adminToken, `${label} Research`);
  const memberEmail = uniqueEmail(`${label}-member`);
  const memberToken = await addMemberByApi(
    env,
    { token: adminToken, workspaceId: workspace.id },
    memberEmail,
    'CONTRIBUTOR',
  );
  const admin = { token: adminToken, workspace: workspace.id };
  const projectId = (
    await gql<{ createProject: { id: string } }>(
      env,
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Churn study' } },
      admin,
    )
  ).createProject.id;
  return { admin, member: { token: memberToken, workspace: workspace.id }, memberEmail, projectId };
}

const comment = (env: Env, as: As, objectType: string, objectId: string, body: string) =>
  gql(
    env,
    'mutation($input: CreateCommentInput!) { createComment(input: $input) { id } }',
    { input: { objectType, objectId, body } },
    as,
  );

test('following an insight from its page brings its comments to the bell and the notification centre, and opening one goes to the insight', async ({
  page,
  env,
}) => {
  const { admin, member, memberEmail, projectId } = await team(env, 'follow');
  const insightId = (
    await gql<{ createInsight: { id: string } }>(
      env,
      'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
      { input: { projectId, title: 'Pricing confuses trials' } },
      admin,
    )
  ).createInsight.id;

  await signInWithPassword(page, memberEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/insights/${insightId}`);
  const follow = page.getByRole('button', { name: 'Follow', exact: true });
  await follow.click();
  await expect(page.getByRole('button', { name: 'Following', exact: true })).toHaveAttribute('aria-pressed', 'true');
  // The follow menu says what following an insight brings; edits are off until chosen.
  await page.getByRole('button', { name: 'What following this insight brings' }).click();
  const menu = page.getByRole('dialog', { name: 'Following this insight' });
  await expect(menu.getByRole('checkbox', { name: 'Comments on it' })).toBeChecked();
  const edits = menu.getByRole('checkbox', { name: 'Edits to it (at most once a day)' });
  await expect(edits).not.toBeChecked();
  await edits.check();
  await expect
    .poll(
      async () =>
        (
          await gql<{ follow: { allChangesEnabled: boolean } }>(
            env,
            'query($id: ID!) { follow(objectType: INSIGHT, objectId: $id) { allChangesEnabled } }',
            { id: insightId },
            member,
          )
        ).follow.allChangesEnabled,
    )
    .toBe(true);
  await expectAccessible(page, 'the follow menu');
  await shot(page, 'notifications-following-insight');
  await page.keyboard.press('Escape');

  // Notifications are written by a job as the comment commits: wait for it before looking.
  const unread = async () =>
    (await gql<{ unreadNotificationCount: number }>(env, '{ unreadNotificationCount }', {}, member))
      .unreadNotificationCount;
  await comment(env, admin, 'INSIGHT', insightId, 'Trial users never find the annual plan');
  await expect.poll(unread).toBe(1);
  await page.goto('/home');
  const bell = page.getByRole('button', { name: 'Notifications, 1 unread' });
  await bell.click();
  const item = page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('button', { name: /commented on “Pricing confuses trials”, which you follow/ });
  await expect(item).toBeVisible();
  await expectAccessible(page, 'the notification popover');
  await shot(page, 'notifications-bell');
  await item.click();
  await expect(page).toHaveURL(new RegExp(`/insights/${insightId}$`));
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // The centre: unread is empty now, All shows the one just read.
  await comment(env, admin, 'INSIGHT', insightId, 'Second thought on annual plans');
  await expect.poll(unread).toBe(1);
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await page.getByText('All', { exact: true }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expectAccessible(page, 'the notification centre');
  await shot(page, 'notifications-centre');
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect.poll(unread).toBe(0);
});

test('notification settings turn kinds off in-app and by email, and an emailed unsubscribe link works without signing in', async ({
  page,
  env,
}) => {
  const { admin, member, memberEmail, projectId } = await team(env, 'prefs');
  const noteId = (
    await gql<{ createNote: { id: string } }>(
      env,
      'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      { input: { projectId, title: 'Call with Ana' } },
      member,
    )
  ).createNote.id;
  await comment(env, admin, 'NOTE', noteId, 'Great notes, thanks');
  const mail = await env.mail.waitForMail(memberEmail, (m) => m.subject.includes('commented on'), 15_000);
  expect(mail.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
  const link = env.mail.linkIn(mail, `${env.url}/unsubscribe`).toString();

  // Signed out: one button.
  await page.goto(link);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'You are unsubscribed' })).toContainText(
    'No more email for: Comments on notes and insights you wrote, edited or commented on',
  );
  await expectAccessible(page, 'the unsubscribe page');
  await shot(page, 'notifications-unsubscribed');

  await signInWithPassword(page, memberEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/user/notifications');
  await expect(
    page.getByRole('switch', { name: 'Comments on notes and insights you wrote, edited or commented on: by email' }),
  ).not.toBeChecked();
  const inApp = page.getByRole('switch', { name: 'Insights published in projects you follow: in the app' });
  await expect(inApp).toBeChecked();
  await inApp.click({ force: true }); // Mantine draws the switch's track over its visually hidden input
  await expect(inApp).not.toBeChecked();
  await expect(
    page.getByRole('switch', { name: 'Your account is locked after failed sign-ins: in the app' }),
  ).toBeDisabled();
  const prefs = await gql<{ notificationPreferences: Array<{ kind: string; inApp: boolean; email: boolean }> }>(
    env,
    '{ notificationPreferences { kind inApp email } }',
    {},
    member,
  );
  expect(prefs.notificationPreferences.find((p) => p.kind === 'insight_published')?.inApp).toBe(false);
  expect(prefs.notificationPreferences.find((p) => p.kind === 'comment')?.email).toBe(false);

  // What the member follows, with its frequency, changed here.
  await gql(
    env,
    'mutation($input: FollowInput!) { followObject(input: $input) { frequency } }',
    { input: { objectType: 'PROJECT', objectId: projectId } },
    member,
  );
  await page.reload();
  await page.getByRole('textbox', { name: 'Churn study: digest frequency' }).click();
  await page.getByRole('option', { name: 'Daily' }).click();
  await expect
    .poll(
      async () =>
        (await gql<{ follows: Array<{ frequency: string }> }>(env, '{ follows { frequency } }', {}, member)).follows[0]
          ?.frequency,
    )
    .toBe('DAILY');
  await expectAccessible(page, 'the notification settings');
  await shot(page, 'notifications-settings');
});

test('a member asks for access to a restricted project; the admin is notified, approves from the access settings, and the member can open it', async ({
  page,
  browser,
  env,
}) => {
  // Two people sign in and a second browser opens: more than the default minute on a busy machine.
  test.setTimeout(90_000);
  const adminEmail = uniqueEmail('access-admin');
  const adminToken = await signUpByApi(env, adminEmail, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, adminToken, `Access ${Date.now().toString(36)}`);
  const admin = { token: adminToken, workspace: workspace.id };
  const memberEmail = uniqueEmail('access-member');
  const member = {
    token: await addMemberByApi(env, { token: adminToken, workspaceId: workspace.id }, memberEmail, 'CONTRIBUTOR'),
    workspace: workspace.id,
  };
  const projectId = (
    await gql<{ createProject: { id: string } }>(
      env,
      'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
      { input: { title: 'Board interviews' } },
      admin,
    )
  ).createProject.id;
  const noteId = (
    await gql<{ createNote: { id: string } }>(
      env,
      'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      { input: { projectId, title: 'Call with the chair' } },
      admin,
    )
  ).createNote.id;
  await gql(
    env,
    'mutation($p: ID!, $m: JSON!) { updateProjectAccess(projectId: $p, permissions: $m) { id } }',
    { p: projectId, m: { groups: { markup: 'none' }, users: {} } },
    admin,
  );

  await signInWithPassword(page, memberEmail);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // A link to a note in the project offers the same request, naming neither the note nor the project.
  await page.goto(`/data/${noteId}`);
  await expect(page.getByRole('heading', { name: 'You don’t have access' })).toBeVisible();
  await expect(page.getByText('This item is in a project you don’t have access to.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Call with the chair|Board interviews/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Request access' })).toBeVisible();
  await expectAccessible(page, 'the request access panel of a note');
  await shot(page, 'access-request-panel-item');
  await page.goto(`/projects/${projectId}`);
  await expect(page.getByRole('heading', { name: 'You don’t have access' })).toBeVisible();
  await page.getByText('Contributor', { exact: true }).click();
  await page.getByRole('textbox', { name: 'Message (optional)' }).fill('I run the board study');
  await expectAccessible(page, 'the request access panel');
  await shot(page, 'access-request-panel');
  await page.getByRole('button', { name: 'Request access' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Access requested as Contributor' })).toBeVisible();

  const adminContext = await browser.newContext({ baseURL: env.url });
  const adminPage = await adminContext.newPage();
  await signInWithPassword(adminPage, adminEmail);
  await expect(adminPage).toHaveURL(WORKSPACE_HOME);
  await adminPage.getByRole('button', { name: 'Notifications, 1 unread' }).click();
  await adminPage
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('button', { name: /asked for access as contributor to Board interviews/ })
    .click();
  await expect(adminPage).toHaveURL(new RegExp(`/projects/${projectId}/settings/access$`));
  const requests = adminPage.getByRole('table', { name: 'Access requests' });
  await expect(requests.getByRole('cell', { name: 'I run the board study' })).toBeVisible();
  await expectAccessible(adminPage, 'the access requests list');
  await shot(adminPage, 'access-requests-list');
  await requests.getByRole('button', { name: /^Approve/ }).click();
  await expect(requests.getByText('Approved')).toBeVisible();
  await adminContext.close();

  const level = async () =>
    (
      await gql<{ project: { myAccess: { level: string } } }>(
        env,
        'query($id: ID!) { project(id: $id) { myAccess { level } } }',
        { id: projectId },
        member,
      )
    ).project.myAccess.level;
  expect(await level()).toBe('write');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Board interviews' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications, 1 unread' })).toBeVisible();
});
