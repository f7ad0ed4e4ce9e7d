import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolbox } from './gateway.ts';

export const SERVER_NAME = 'fieldbook';

const INSTRUCTIONS =
  'Fieldbook is a customer-research repository: notes, highlights, insights, tags, people and customer feedback. ' +
  'Every tool acts as the person whose API token you use and sees only what they may read.';

/**
 * One MCP server for one request (stateless streamable HTTP): it lists and runs exactly the tools
 * of the caller's toolbox. Nothing lives between requests, so any web process can answer any call.
 */
export function mcpServerFor(toolbox: McpToolbox, version: string): Server {
  const server = new Server(
    { name: SERVER_NAME, version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolbox.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { readOnlyHint: t.access === 'read' },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    toolbox.call(request.params.name, request.params.arguments ?? {}),
  );
  return server;
}
