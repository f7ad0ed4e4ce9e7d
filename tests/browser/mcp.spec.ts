import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail, WORKSPACE_HOME } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('Settings → AI shows the MCP URL to copy, how to connect each client and the admin switch for changes; a token from API tokens opens /mcp', async ({
  page,
  env,
}) => {
  const email = uniqueEmail('mcp');
  const token = await signUpByApi(env, email, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, token, 'MCP settings');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(WORKSPACE_HOME);
  await page.goto('/settings/ai');

  const section = page.getByRole('region', { name: 'Use Fieldbook from an AI assistant (MCP)' });
  const url = section.getByRole('textbox', { name: 'MCP server URL' });
  await expect(url).toHaveValue(/^http:\/\/[^/]+\/mcp$/);
  const endpoint = await url.inputValue();
  await expect(section.getByRole('link', { name: 'API tokens' })).toHaveAttribute('href', '/settings/user/api-tokens');

  await section.getByRole('tab', { name: 'VS Code' }).click();
  await expect(section.getByRole('tabpanel')).toContainText(`"url": "${endpoint}"`);
  await expect(section.getByRole('tabpanel')).toContainText('Bearer ${input:fieldbook-token}');

  const allow = section.getByRole('switch', { name: 'Allow MCP clients to make changes' });
  await expect(allow).not.toBeChecked();
  await allow.click();
  await expect(
    section.getByText('MCP clients may now make changes, as the person whose token they use.'),
  ).toBeVisible();
  await shot(page, 'mcp-settings');
  expect(await seriousViolations(page), 'axe on /settings/ai with the MCP section').toEqual([]);

  // Saved on the server, and still on after a reload.
  const { mcpSettings } = await gql<{ mcpSettings: { allowWrites: boolean } }>(
    env,
    '{ mcpSettings { allowWrites } }',
    {},
    { token, workspace: workspace.id },
  );
  expect(mcpSettings.allowWrites).toBe(true);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Allow MCP clients to make changes' })).toBeChecked();

  // Every member has their own tokens page under You; the token it shows opens /mcp, whose tools
  // now include the write tools the switch allowed.
  await page
    .getByRole('region', { name: 'Use Fieldbook from an AI assistant (MCP)' })
    .getByRole('link', { name: 'API tokens' })
    .click();
  await expect(page).toHaveURL(/\/settings\/user\/api-tokens$/);
  await page.getByRole('textbox', { name: 'Token name' }).fill('Claude Desktop');
  await page.getByRole('button', { name: 'Create token' }).click();
  const created = (await page.getByLabel('New API token').textContent())!.trim();
  expect(created).toMatch(/^api\./);
  await shot(page, 'mcp-api-tokens');
  expect(await seriousViolations(page), 'axe on /settings/user/api-tokens').toEqual([]);
  const res = await fetch(endpoint.replace(/^http:\/\/[^/]+/, env.url), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${created}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const names = ((await res.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['get_note', 'keyword_search', 'create_document']));
});
