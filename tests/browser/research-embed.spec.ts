import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

test('a shared highlight is embedded on another site; unshared ones and other pages are not', async ({
  page,
  browser,
  env,
}) => {
  const email = uniqueEmail('embedder');
  const token = await signUpByApi(env, email, 'Erin Embedder');
  const workspace = await createWorkspaceByApi(env, token, 'Embed Research');
  const as = { token, workspace: workspace.id };
  const { createProject } = await gql<{ createProject: { id: string } }>(
    env,
    'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }',
    { input: { title: 'Pricing study' } },
    as,
  );
  const { createNote } = await gql<{ createNote: { id: string } }>(
    env,
    'mutation($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    {
      input: {
        projectId: createProject.id,
        title: 'Call with Priya',
        content: doc('Priya leads finance.', 'The annual plan price was hidden behind a sales call.'),
      },
    },
    as,
  );
  const quote = 'The annual plan price was hidden';
  const highlight = async (startOffset: number, endOffset: number) =>
    (
      await gql<{ createHighlight: { id: string; text: string } }>(
        env,
        'mutation($input: CreateHighlightInput!) { createHighlight(input: $input) { id text } }',
        { input: { noteId: createNote.id, startOffset, endOffset } },
        as,
      )
    ).createHighlight;
  const shared = await highlight(21, 21 + quote.length);
  expect(shared.text).toBe(quote);
  const unshared = await highlight(0, 5);
  const { createShareLink } = await gql<{ createShareLink: { id: string; token: string } }>(
    env,
    'mutation($id: ID!) { createShareLink(objectType: noteHighlight, objectId: $id) { id token } }',
    { id: shared.id },
    as,
  );
  const embedPath = `/embed/highlights/${shared.id}?token=${createShareLink.token}`;

  // Signed out, the embed page shows the highlight and where it comes from, without the app around it.
  const anonymous = await browser.newContext();
  const visitor = await anonymous.newPage();
  const res = await visitor.goto(embedPath);
  expect(res?.headers()['content-security-policy']).toBe('frame-ancestors *');
  expect(res?.headers()['x-frame-options']).toBeUndefined();
  await expect(visitor.locator('blockquote')).toHaveText(quote);
  await expect(visitor.getByText('From Call with Priya')).toBeVisible();
  await expect(visitor.getByText('Shared from Fieldbook')).toBeVisible();
  await expect(visitor.getByText('Priya leads finance.')).toHaveCount(0);
  await expect(visitor.getByRole('navigation')).toHaveCount(0);
  await shot(visitor, 'embed-highlight');
  expect(await seriousViolations(visitor), 'axe on the embed page').toEqual([]);

  // A token for another highlight, a made-up token and no token all say the same thing.
  for (const path of [
    `/embed/highlights/${unshared.id}?token=${createShareLink.token}`,
    `/embed/highlights/${shared.id}?token=AAAAAAAAAAAA`,
    `/embed/highlights/${shared.id}`,
  ]) {
    await visitor.goto(path);
    await expect(visitor.getByText('This highlight is not shared'), path).toBeVisible();
    await expect(visitor.getByText(quote)).toHaveCount(0);
  }
  await shot(visitor, 'embed-not-shared');

  // Another site (a server of its own, so another origin) frames the embed page; the rest of
  // Fieldbook refuses to be framed.
  const blog = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Blog</title><h1>Our research</h1>
      <iframe id="embed" title="Highlight" src="${env.url}${embedPath}" width="600" height="220"></iframe>
      <iframe id="app" title="App" src="${env.url}/p/${createShareLink.token}" width="600" height="220"></iframe>`);
  });
  await new Promise<void>((resolve) => blog.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(blog.address() as AddressInfo).port}/`;
  expect(new URL(site).origin).not.toBe(new URL(env.url).origin);
  const appResponse = visitor.waitForResponse(`${env.url}/p/${createShareLink.token}`);
  await visitor.goto(site);
  await expect(visitor.frameLocator('#embed').locator('blockquote')).toHaveText(quote);
  // The same app in the other frame would have drawn the public page by now; the browser refused it.
  expect((await appResponse).headers()['x-frame-options']).toBe('SAMEORIGIN');
  const appFrame = await (await visitor.locator('#app').elementHandle())!.contentFrame();
  await expect.poll(() => appFrame!.url()).toMatch(/^chrome-error:/);
  await expect(visitor.frameLocator('#app').locator('#root')).toHaveCount(0);
  await shot(visitor, 'embed-on-another-site');
  blog.closeAllConnections();
  await new Promise<void>((resolve) => blog.close(() => resolve()));

  // Ending the link ends the embed.
  await gql(env, 'mutation($id: ID!) { revokeShareLink(id: $id) { id } }', { id: createShareLink.id }, as);
  await visitor.goto(embedPath);
  await expect(visitor.getByText('This highlight is not shared')).toBeVisible();
  await anonymous.close();

  // In the note, a highlight is shared on its own and its embed code copied.
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto(`/data/${createNote.id}`);
  const list = page.getByRole('list', { name: 'Highlights' });
  await expect(list).toContainText(quote);
  await list.getByRole('button', { name: `Share highlight “${quote}”` }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this highlight' });
  await expect(dialog.getByText('There is no public link to this highlight yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create public link' }).click();
  const code = dialog.getByRole('textbox', { name: 'Embed code' });
  await expect(code).toHaveValue(
    new RegExp(`^<iframe src="${env.url}/embed/highlights/${shared.id}\\?token=[A-Za-z0-9]{12}" `),
  );
  await expect(dialog.getByRole('button', { name: 'Copy embed code' })).toBeVisible();
  await shot(page, 'share-highlight-dialog');
  expect(await seriousViolations(page), 'axe on the highlight share dialog').toEqual([]);
  const src = /src="([^"]+)"/.exec(await code.inputValue())![1]!;
  const reader = await browser.newContext();
  const readerPage = await reader.newPage();
  await readerPage.goto(src);
  await expect(readerPage.locator('blockquote')).toHaveText(quote);
  await reader.close();
});
