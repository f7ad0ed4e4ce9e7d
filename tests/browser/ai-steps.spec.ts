import type { ChatBody } from '../support/openai-fake.ts';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

// This spec's Fieldbook runs the AI steps, at once after each change.
test.use({ fieldbookEnv: { AI_STEPS: 'on', AI_STEPS_DELAY_SECONDS: '0' } });

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const EXPORT = 'She said exports to slides break the layout every time and cost her team an afternoon a week.';
const INTERVIEW = [
  'Priya leads research operations at a travel company with forty researchers.',
  EXPORT,
  'Reach her at priya.shah@travel.example to follow up on the beta.',
  'She would switch tools tomorrow if tagging highlights in bulk were possible.',
];

test('a note shows what its AI steps did: redaction and summary done by themselves, highlights to review; Accept and Undo act on the note', async ({
  page,
  env,
}) => {
  test.setTimeout(90_000);
  env.ai.route('highlight customer research notes', {
    content: JSON.stringify({ type: 'highlight', text: EXPORT, reason: 'Export pain' }),
  });
  env.ai.route('You summarise customer research', (body: ChatBody) => {
    const noteId = /<source id="([^"]+)" kind="note">/.exec(body.messages[1]!.content)![1]!;
    return {
      content: [
        JSON.stringify({ type: 'text', text: 'Slide exports break and cost a weekly afternoon.' }),
        JSON.stringify({ type: 'quote', itemId: noteId, text: EXPORT }),
      ].join('\n'),
    };
  });
  const email = uniqueEmail('steps');
  const token = await signUpByApi(env, email, 'Ada Analyst');
  const workspace = await createWorkspaceByApi(env, token, 'AI steps');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Beta interviews' } },
    as,
  );
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { projectId: createProject.id, title: 'Interview with Priya', content: doc(...INTERVIEW) } },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  // The settings screen says what each mode of each step does.
  await page.goto('/settings/ai');
  await expect(
    page.getByText('On: blanks out email addresses, phone, card and social security numbers in the note’s text.'),
  ).toBeVisible();
  await shot(page, 'ai-steps-settings');
  expect(await seriousViolations(page), 'axe on /settings/ai').toEqual([]);

  await page.goto(`/data/${createNote.id}`);
  await page.getByRole('tab', { name: 'Summary' }).click();
  const steps = page.getByTestId('ai-steps');
  await expect(steps.getByTestId('ai-step-tags')).toContainText('Skipped', { timeout: 15_000 });
  await expect(steps.getByTestId('ai-step-redact')).toContainText('Redacted 1 email address');
  await expect(steps.getByTestId('ai-step-redact')).toContainText('Done locally, without an AI model');
  await expect(steps.getByTestId('ai-step-summarize')).toContainText('Written by AI (fake-chat)');
  await expect(steps.getByTestId('ai-step-highlights')).toContainText('To review');
  await expect(steps.getByTestId('ai-step-tags')).toContainText('The note has no highlights to tag yet.');
  await expect(page.getByTestId('ai-provenance')).toContainText('Written by AI (fake-chat) from 1 note');
  await shot(page, 'ai-steps-panel');
  expect(await seriousViolations(page), 'axe on the note with its AI steps').toEqual([]);

  // Accepting and undoing show in the editor at once: the page is never reloaded (the mark survives).
  await page.evaluate(() => Object.assign(window, { stepsPageMark: true }));
  const editor = page.getByRole('textbox', { name: 'Note content' });
  await expect(editor).not.toContainText('priya.shah@travel.example');
  await steps.getByRole('button', { name: 'Accept: Highlights' }).click();
  await expect(steps.getByTestId('ai-step-highlights')).toContainText('Accepted');
  await expect(editor.locator('.fb-highlight')).toHaveText([EXPORT]);
  await expect(page.getByRole('tab', { name: 'Highlights (1)' })).toBeVisible();
  await steps.getByRole('button', { name: 'Undo: Redaction' }).click();
  await expect(steps.getByTestId('ai-step-redact')).toContainText('Undone');
  await expect(editor).toContainText('Reach her at priya.shah@travel.example to follow up on the beta.');
  await expect(steps.getByText('reload the page')).toHaveCount(0);
  await steps.getByRole('button', { name: 'Undo: Summary' }).click();
  await expect(steps.getByTestId('ai-step-summarize')).toContainText('Undone');
  await expect(page.getByTestId('ai-provenance')).toHaveCount(0);
  expect(await page.evaluate(() => 'stepsPageMark' in window)).toBe(true);
  await shot(page, 'ai-steps-decided');
  // Nothing was saved over the change: the server has the restored text too.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Highlights (1)' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Note content' })).toContainText('priya.shah@travel.example');
});
