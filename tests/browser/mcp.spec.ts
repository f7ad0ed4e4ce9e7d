import { createWorkspaceByApi, gql, signUpByApi } from './support/api.ts';
import { seriousViolations } from './support/axe.ts';
import { expect, signInWithPassword, test, uniqueEmail } from './support/fixtures.ts';
import { shot } from './support/shots.ts';

test('Settings → AI shows the MCP URL to copy, how to connect each client, and the admin switch for changes', async ({ page, env }) => {
  const email = uniqueEmail('mcp');
  const token = await signUpByApi(env, email, 'Ada Admin');
  const workspace = await createWorkspaceByApi(env, token, 'MCP settings');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/settings/ai');

  const section = page.getByRole('region', { name: 'Use Fieldbook from an AI assistant (MCP)' });
  const url = section.getByRole('textbox', { name: 'MCP server URL' });
  await expect(url).toHaveValue(/^http:\/\/[^/]+\/mcp$/);
  const endpoint = await url.inputValue();
  await expect(section.getByRole('link', { name: 'Settings → Security → API tokens' })).toHaveAttribute('href', '/settings/security');

  await section.getByRole('tab', { name: 'VS Code' }).click();
  await expect(section.getByRole('tabpanel')).toContainText(`"url": "${endpoint}"`);
  await expect(section.getByRole('tabpanel')).toContainText('Bearer ${input:fieldbook-token}');

  const allow = section.getByRole('switch', { name: 'Allow MCP clients to make changes' });
  await expect(allow).not.toBeChecked();
  await allow.click();
  await expect(section.getByText('MCP clients may now make changes, as the person whose token they use.')).toBeVisible();
  await shot(page, 'mcp-settings');
  expect(await seriousViolations(page), 'axe on /settings/ai with the MCP section').toEqual([]);

  // Saved on the server, and still on after a reload.
  const { mcpSettings } = await gql<{ mcpSettings: { allowWrites: boolean } }>(env, '{ mcpSettings { allowWrites } }', {}, { token, workspace: workspace.id });
  expect(mcpSettings.allowWrites).toBe(true);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Allow MCP clients to make changes' })).toBeChecked();
});
