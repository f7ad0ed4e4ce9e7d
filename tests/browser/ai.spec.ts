import type { Page } from '@playwright/test';
import { promptSources, summarySources, type ChatBody } from '../support/openai-fake.ts';
import { addMemberByApi, createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const INTERVIEW = [
  'Priya leads research at a travel startup with forty people.',
  'She said the onboarding flow took far too long and her team nearly gave up.',
  'Exports to spreadsheets were the feature her managers asked about most.',
];

async function expectAccessible(page: Page, where: string) {
  expect(await seriousViolations(page), `axe on ${where}`).toEqual([]);
}

async function setUp(env: Parameters<Parameters<typeof test>[2]>[0]['env'], label: string) {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, 'Ada Analyst');
  const workspace = await createWorkspaceByApi(env, token, `AI ${label}`);
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Travel interviews' } },
    as,
  );
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    {
      input: { projectId: createProject.id, title: 'Interview with Priya', content: doc(...INTERVIEW) },
    },
    as,
  );
  return { email, noteId: createNote.id, token, workspaceId: workspace.id };
}

test('the Summary tab streams a summary in, showing only quotes found in the note, and says which model wrote it', async ({
  page,
  env,
}) => {
  const { email, noteId } = await setUp(env, 'summary');
  env.ai.onChat = (body: ChatBody) => {
    const [note] = summarySources(body);
    return {
      content: [
        JSON.stringify({
          type: 'text',
          text: 'Priya’s team found onboarding slow; exports matter most to her managers.',
        }),
        JSON.stringify({ type: 'quote', itemId: note!.id, text: 'the onboarding flow took far too long' }),
        JSON.stringify({ type: 'quote', itemId: note!.id, text: 'We would pay twice as much for exports' }),
      ].join('\n'),
      chunkChars: 6,
      delayMs: 60,
    };
  };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('tab', { name: 'Summary' }).click();
  const panel = page.getByTestId('ai-summary');
  await expect(panel.getByRole('textbox', { name: 'Framework' })).toHaveValue('Summary');
  await panel.getByRole('textbox', { name: 'Framework' }).click();
  // The default list comes first: chronological, summary, by topics, customer call, usability test, sales SPICED.
  await expect(page.getByRole('option').first()).toHaveText('Chronological');
  await expect(page.getByRole('option').nth(5)).toHaveText('Sales SPICED');
  await page.getByRole('option', { name: 'Customer call' }).click();
  await panel.getByRole('button', { name: 'Summarize' }).click();

  // The first paragraph shows while the model is still writing.
  await expect(panel.getByText('Priya’s team found onboarding slow')).toBeVisible();
  await expect(panel.getByLabel('Writing the summary')).toBeVisible();
  await shot(page, 'ai-summary-streaming');
  await expect(panel.getByTestId('ai-provenance')).toHaveText(
    'Written by AI (fake-chat) from 1 note · 1 quote not found in the source removed',
  );
  await expect(panel.getByText('“the onboarding flow took far too long”')).toBeVisible();
  await expect(panel.getByText(/pay twice as much/)).toHaveCount(0);
  await shot(page, 'ai-summary-done');
  await expectAccessible(page, 'the Summary tab');

  // Stored: it is there when the note is opened again.
  await page.reload();
  await page.getByRole('tab', { name: 'Summary' }).click();
  await expect(page.getByTestId('ai-provenance')).toContainText('Written by AI (fake-chat) from 1 note');
});

test('Suggest highlights offers passages found in the note; Accept paints one as a highlight, Reject drops the other', async ({
  page,
  env,
}) => {
  const { email, noteId } = await setUp(env, 'suggest');
  env.ai.onChat = () => ({
    content: [
      JSON.stringify({
        type: 'highlight',
        text: 'She said the onboarding flow took far too long and her team nearly gave up.',
        reason: 'Onboarding is a pain point',
      }),
      JSON.stringify({
        type: 'highlight',
        text: 'Exports to spreadsheets were the feature her managers asked about most.',
        reason: 'Managers want exports',
      }),
      JSON.stringify({ type: 'highlight', text: 'Priya loves the new pricing.', reason: 'invented' }),
    ].join('\n'),
  });
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('tab', { name: /Highlights/ }).click();
  const panel = page.getByTestId('suggested-highlights');
  await panel.getByRole('button', { name: 'Suggest highlights' }).click();
  await expect(
    panel.getByText(
      '2 passages suggested. 1 passage the model gave was not in the note word for word and was removed.',
    ),
  ).toBeVisible();
  await expect(panel.getByText('Managers want exports')).toBeVisible();
  await expect(panel.getByText('Suggested by AI (fake-chat)').first()).toBeVisible();
  await shot(page, 'ai-suggested-highlights');
  await expectAccessible(page, 'suggested highlights');
  await panel.getByRole('button', { name: /^Accept: She said the onboarding/ }).click();
  await expect(page.getByRole('tab', { name: 'Highlights (1)' })).toBeVisible();
  await expect(
    page
      .getByRole('list', { name: 'Highlights' })
      .getByText('“She said the onboarding flow took far too long and her team nearly gave up.”'),
  ).toBeVisible();
  await panel.getByRole('button', { name: /^Reject: Exports/ }).click();
  await expect(panel.getByRole('list', { name: 'Suggested highlights' })).toHaveCount(0);
  await shot(page, 'ai-suggested-highlights-decided');
});

test('the Ask box on search answers with verified citations that open their sources', async ({ page, env }) => {
  const { email, noteId } = await setUp(env, 'ask');
  env.ai.onChat = (body: ChatBody) => {
    const [s] = promptSources(body);
    return {
      content: [
        JSON.stringify({ type: 'heading', level: 2, content: 'Onboarding takes too long' }),
        JSON.stringify({
          type: 'text',
          content:
            'Teams nearly give up during onboarding: “her team nearly gave up”, not “we will renew for five years”.',
          citations: [
            { ref: s!.ref, quote: 'the onboarding flow took far too long' },
            { ref: s!.ref, quote: 'onboarding was a delight' },
          ],
        }),
        JSON.stringify({
          type: 'text',
          content: 'Everyone loves the new dashboard.',
          citations: [{ ref: s!.ref, quote: 'the dashboard is lovely' }],
        }),
      ].join('\n'),
      delayMs: 10,
    };
  };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await expect(page.getByRole('heading', { name: 'Ask your research' })).toBeVisible();
  await page.goto('/search');
  const ask = page.getByRole('region', { name: 'Ask your research' });
  await expect(ask.getByRole('group', { name: 'Suggested questions' }).getByRole('button')).toHaveCount(4);
  await ask.getByRole('textbox', { name: 'Question' }).fill('Why do teams struggle with onboarding?');
  await ask.getByRole('button', { name: 'Ask' }).click();
  await expect(ask.getByRole('heading', { name: 'Onboarding takes too long' })).toBeVisible();
  await expect(ask.getByText('“the onboarding flow took far too long”')).toBeVisible();
  await expect(ask.getByText(/a delight/)).toHaveCount(0);
  // A quotation in the text is checked too: the one in the note stays, the invented one is removed.
  await expect(
    ask.getByText(
      'Teams nearly give up during onboarding: “her team nearly gave up”, not [quote removed: not found in the sources].',
    ),
  ).toBeVisible();
  // A statement whose only citation was dropped is left out.
  await expect(ask.getByText(/dashboard/)).toHaveCount(0);
  await expect(ask.getByTestId('ask-label')).toHaveText(
    /^Written by AI \(fake-chat\) from \d+ sources? · 3 quotes not found in their source removed · 1 statement with no source found left out$/,
  );
  await shot(page, 'ai-ask-answer');
  await expectAccessible(page, 'Ask on /search');
  // The cited quote and the quotation verified in the text each link to their passage in the note.
  const sources = ask.getByRole('link', { name: 'Interview with Priya' });
  await expect(sources).toHaveCount(2);
  await sources.first().click();
  await expect(page).toHaveURL(new RegExp(`/data/${noteId}#text=the\\+onboarding\\+flow\\+took\\+far\\+too\\+long`));
});

test('workspace admins set AI features, automation modes and the monthly cap', async ({ page, env }) => {
  const { email } = await setUp(env, 'settings');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.getByRole('link', { name: 'AI', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/ai$/);
  await expect(page.getByText('Chat model fake-chat')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Highlights' })).toHaveValue('Suggest');
  await page.getByRole('textbox', { name: 'Tokens per month' }).fill('250000');
  await page.getByRole('switch', { name: 'Translation' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('AI settings saved.')).toBeVisible();
  await shot(page, 'ai-settings');
  await expectAccessible(page, '/settings/ai');
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Tokens per month' })).toHaveValue('250,000');
  await expect(page.getByRole('switch', { name: 'Translation' })).not.toBeChecked();
});

test('a viewer sees why the summary button is disabled', async ({ page, env }) => {
  const { noteId, token, workspaceId } = await setUp(env, 'viewer');
  const viewerEmail = uniqueEmail('viewer');
  await addMemberByApi(env, { token, workspaceId }, viewerEmail, 'VIEWER');
  await signInWithPassword(page, viewerEmail);
  await page.waitForURL(/\/(home|auth\/workspaces)/);
  // Signed in, a person who joined by invitation may land on the workspace chooser: open the
  // workspace itself before its note, as the chooser's link does.
  await page.goto(`/team-redirect/${workspaceId}/home`);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('tab', { name: 'Summary' }).click();
  const panel = page.getByTestId('ai-summary');
  await expect(panel.getByRole('button', { name: 'Summarize' })).toBeDisabled();
  await panel.getByLabel('Viewers cannot generate summaries').hover();
  await expect(page.getByRole('tooltip')).toHaveText('Viewers cannot generate summaries');
  await shot(page, 'ai-summary-viewer');
  await expectAccessible(page, 'the Summary tab for a viewer');
});

test('Translate… in the note menu writes a translated note beside it, or says why it could not', async ({
  page,
  env,
}) => {
  const { email, noteId } = await setUp(env, 'translate');
  env.ai.onChat = (body: ChatBody) => {
    const asked = body.messages.find((m) => m.role === 'system')?.content ?? '';
    return {
      content: asked.includes('into de')
        ? 'Interview mit Priya\nPriya leitet die Forschung bei einem Reise-Startup.'
        : '',
    };
  };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('button', { name: 'More actions for this note' }).click();
  await page.getByRole('menuitem', { name: 'Translate…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Translate note' });
  await dialog.getByRole('textbox', { name: 'Translate into' }).click();
  await page.getByRole('option', { name: 'German', exact: true }).click();

  // The same language on both sides is not a pair translation supports: said in words, no note written.
  await dialog.getByRole('textbox', { name: 'From (optional)' }).click();
  await page.getByRole('option', { name: 'German', exact: true }).click();
  await dialog.getByRole('button', { name: 'Translate' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Translating from German into German is not supported.');

  await dialog.getByRole('textbox', { name: 'From (optional)' }).click();
  await page.getByRole('option', { name: 'English', exact: true }).click();
  await dialog.getByRole('button', { name: 'Translate' }).click();
  await expect(dialog.getByRole('status')).toContainText('Translated into German.');
  await expectAccessible(page, 'the translate dialog');
  await shot(page, 'ai-translate');
  await dialog.getByRole('link', { name: 'Open the translated note' }).click();
  await expect(page).not.toHaveURL(new RegExp(noteId));
  await expect(page.getByRole('textbox', { name: 'Note title' })).toHaveValue('Interview mit Priya (de)');
  await expect(page.getByText('Priya leitet die Forschung bei einem Reise-Startup.')).toBeVisible();
});
