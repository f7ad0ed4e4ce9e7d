import type { Locator, Page } from '@playwright/test';
import { promptSources, summarySources, type ChatBody } from '../support/openai-fake.ts';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';

const QUOTE = 'the export button hides behind three menus';
const TARGET = `Near the end Omar said ${QUOTE} and he stopped looking for it.`;
// Enough text before the passage that it sits thousands of pixels below the top of the note.
const FILLER = Array.from(
  { length: 140 },
  (_, i) => `Paragraph ${i + 1}: the team talked about their week, the weather and lunch plans in some detail.`,
);
const PARAGRAPHS = [...FILLER, TARGET, 'A closing remark about the next interview.'];
const doc = (paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

async function setUp(env: Parameters<Parameters<typeof test>[2]>[0]['env'], label: string) {
  const email = uniqueEmail(label);
  const token = await signUpByApi(env, email, 'Nia Notes');
  const workspace = await createWorkspaceByApi(env, token, `Citations ${label}`);
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Export interviews' } },
    as,
  );
  const { createNote } = await gql<{ createNote: { id: string; contentText: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id contentText } }',
    { input: { projectId: createProject.id, title: 'Interview with Omar', content: doc(PARAGRAPHS) } },
    as,
  );
  return { email, as, projectId: createProject.id, noteId: createNote.id, text: createNote.contentText };
}

/** The screen as the reader sees it (not the whole long page), when FIELDBOOK_SHOTS is set. */
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.FIELDBOOK_SHOTS) await page.screenshot({ path: `tests/.artifacts/shots/${name}.png` });
}

/** The passage is on screen, marked, and holds the cited words. */
async function expectPassageShown(page: Page, words: string): Promise<Locator> {
  // A link from another page loads the app again: the note is open first, however busy the machine.
  await expect(page.getByRole('textbox', { name: 'Note title' })).toHaveValue('Interview with Omar', {
    timeout: 30_000,
  });
  const passage = page.locator('[data-cited-passage]');
  await expect(passage.first()).toBeInViewport();
  // The mark may be cut in pieces where other highlights start or end: together they are the words.
  await expect.poll(async () => (await passage.allTextContents()).join('')).toBe(words);
  const box = await passage.first().boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
  // It sits far down the note: the page scrolled to it, it was not simply at the top.
  expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBeGreaterThan(2000);
  return passage;
}

test('a highlight cited by an insight opens its note scrolled to the passage, which is marked', async ({
  page,
  env,
}) => {
  const { email, as, projectId, noteId, text } = await setUp(env, 'highlight');
  const start = text.indexOf(QUOTE);
  const { createHighlight } = await gql<{ createHighlight: { id: string } }>(
    env,
    'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id } }',
    { input: { noteId, startOffset: start, endOffset: start + QUOTE.length } },
    as,
  );
  const { createInsight } = await gql<{ createInsight: { id: string } }>(
    env,
    'mutation($input: CreateInsightInput!) { createInsight(input: $input) { id } }',
    { input: { projectId, title: 'Exports are hard to find' } },
    as,
  );
  await gql(
    env,
    'mutation($i: ID!, $h: ID!) { citeHighlight(insightId: $i, highlightId: $h) { id } }',
    { i: createInsight.id, h: createHighlight.id },
    as,
  );
  await gql(
    env,
    'mutation($id: ID!, $input: UpdateInsightInput!) { updateInsight(id: $id, input: $input) { id } }',
    {
      id: createInsight.id,
      input: {
        content: {
          type: 'doc',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'People cannot find the export.' }] },
            {
              type: 'citation',
              attrs: { highlightId: createHighlight.id, text: QUOTE, noteTitle: 'Interview with Omar', noteId },
            },
          ],
        },
      },
    },
    as,
  );

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/insights/${createInsight.id}`);
  await page.locator('.fb-citation').getByRole('link', { name: 'Interview with Omar' }).click();
  await expect(page).toHaveURL(new RegExp(`/data/${noteId}#highlight=${createHighlight.id}$`));
  await expectPassageShown(page, QUOTE);
  await expect(page.getByRole('status').filter({ hasText: 'Showing the cited passage' })).toHaveCount(1);
  await expect(page.getByText('Showing the cited passage')).toBeVisible();
  await shot(page, 'citation-highlight-passage');
  expect(await seriousViolations(page), 'axe on a note opened at its passage').toEqual([]);
});

test('a note cited by an Ask answer opens at the quoted words, marked', async ({ page, env }) => {
  const { email, noteId } = await setUp(env, 'ask');
  env.ai.onChat = (body: ChatBody) => {
    const source = promptSources(body).find((s) => s.title === 'Interview with Omar');
    return {
      content: JSON.stringify({
        type: 'text',
        content: 'Omar could not find the export.',
        citations: source ? [{ ref: source.ref, quote: QUOTE }] : [],
      }),
    };
  };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/search');
  const ask = page.getByRole('region', { name: 'Ask your research' });
  await ask.getByRole('textbox', { name: 'Question' }).fill('Where does Omar look for the export button?');
  await ask.getByRole('button', { name: 'Ask' }).click();
  await expect(ask.getByText(`“${QUOTE}”`)).toBeVisible();
  await ask.getByRole('link', { name: 'Interview with Omar' }).click();
  await expect(page).toHaveURL(new RegExp(`/data/${noteId}#`));
  await expectPassageShown(page, QUOTE);
  await shot(page, 'citation-ask-passage');
});

test('a quote in the AI summary is a link to its passage in the note', async ({ page, env }) => {
  const { email, noteId } = await setUp(env, 'summary');
  env.ai.onChat = (body: ChatBody) => {
    const note = summarySources(body).find((s) => s.kind === 'note');
    return {
      content: [
        JSON.stringify({ type: 'text', text: 'Omar struggled to find the export.' }),
        JSON.stringify({ type: 'quote', itemId: note!.id, text: QUOTE }),
      ].join('\n'),
    };
  };
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${noteId}`);
  await page.getByRole('tab', { name: 'Summary' }).click();
  const panel = page.getByTestId('ai-summary');
  await panel.getByRole('button', { name: 'Summarize' }).click();
  await panel.getByRole('link', { name: `“${QUOTE}”` }).click();
  await expect(page).toHaveURL(new RegExp(`/data/${noteId}#`));
  await expectPassageShown(page, QUOTE);
  await shot(page, 'citation-summary-passage');
});
