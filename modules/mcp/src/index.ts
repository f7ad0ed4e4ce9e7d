import agentsModule from '@fieldbook/agents';
import { defineModule, workspacesModule, type ModuleContext } from '@fieldbook/core';
import { MCP_PATH, mcpRoutes } from './route.ts';
import { settingsPart } from './settings.ts';

export {
  BATCH_TOO_LARGE,
  MCP_MAX_BATCH,
  MCP_PATH,
  MCP_REQUESTS_PER_MINUTE,
  TOKEN_REQUIRED,
  mcpRoutes,
} from './route.ts';
export { WRITES_NOT_ALLOWED, unknownTool, toolboxFor, type McpToolSource } from './gateway.ts';
export { readMcpSettings, settingsPart, type McpSettings } from './settings.ts';

/** Where MCP clients connect: the root-domain app's /mcp (the API token names the workspace). */
export const mcpEndpoint = (ctx: Pick<ModuleContext, 'config'>): string => new URL(MCP_PATH, ctx.config.publicUrl).href;

/**
 * The MCP server: the tools agents use, served over the Model Context Protocol at /mcp so people
 * query their repository from Claude, ChatGPT or an IDE with a personal API token. Read tools
 * always; write tools only when the workspace allows MCP clients to make changes.
 */
const mcpModule = defineModule({
  name: 'mcp',
  dependsOn: [workspacesModule],
  // The tools are the agents module's; without it the server answers with no tools.
  optionalDependsOn: [agentsModule],
  graphql: (ctx) => settingsPart(() => mcpEndpoint(ctx)),
  routes: (router, ctx) => mcpRoutes(router, ctx, () => ctx.deps.agents, ctx.config.release),
});

export default mcpModule;
