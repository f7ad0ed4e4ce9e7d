/** How to connect an MCP client to Fieldbook, per client, with the endpoint filled in. */
export interface ClientSnippet {
  id: string;
  label: string;
  /** Where the snippet goes and what to fill in, as a sentence. */
  where: string;
  code: string;
}

const TOKEN = 'api.YOUR-TOKEN';

export function clientSnippets(url: string): ClientSnippet[] {
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      where:
        'Add to claude_desktop_config.json (Settings → Developer → Edit Config), with your token in place of api.YOUR-TOKEN. Claude Desktop reaches the server through mcp-remote, which needs Node.js.',
      code: JSON.stringify(
        {
          mcpServers: {
            fieldbook: {
              command: 'npx',
              args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${FIELDBOOK_TOKEN}'],
              env: { FIELDBOOK_TOKEN: `Bearer ${TOKEN}` },
            },
          },
        },
        null,
        2,
      ),
    },
    {
      id: 'claude-code',
      label: 'Claude Code',
      where: 'Run in a terminal, with your token in place of api.YOUR-TOKEN.',
      code: `claude mcp add --transport http fieldbook ${url} --header "Authorization: Bearer ${TOKEN}"`,
    },
    {
      id: 'vscode',
      label: 'VS Code',
      where: 'Add to .vscode/mcp.json; VS Code asks for your token once and keeps it.',
      code: JSON.stringify(
        {
          inputs: [{ type: 'promptString', id: 'fieldbook-token', description: 'Fieldbook API token', password: true }],
          servers: { fieldbook: { type: 'http', url, headers: { Authorization: 'Bearer ${input:fieldbook-token}' } } },
        },
        null,
        2,
      ),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      where: 'Add to ~/.cursor/mcp.json, with your token in place of api.YOUR-TOKEN.',
      code: JSON.stringify(
        { mcpServers: { fieldbook: { url, headers: { Authorization: `Bearer ${TOKEN}` } } } },
        null,
        2,
      ),
    },
    {
      id: 'curl',
      label: 'curl',
      where: 'Run in a terminal to check your token works: the answer lists the tools you may use.',
      code: `curl -s ${url} \\\n  -H "Authorization: Bearer ${TOKEN}" \\\n  -H "Content-Type: application/json" \\\n  -H "Accept: application/json, text/event-stream" \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'`,
    },
  ];
}
