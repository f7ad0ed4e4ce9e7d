import { defineModule, extensionsModule, workspacesModule, type AgentTool, type AgentToolSource, type ModuleContext, type RequestContext, type ToolResult } from '@fieldbook/core';
import channelsModule from '@fieldbook/channels';
import researchModule from '@fieldbook/research';
import searchModule from '@fieldbook/search';
import { toolsPart } from './tools/graphql.ts';
import { createToolbox, type AgentToolbox } from './tools/toolbox.ts';

export { CHANNELS_UNAVAILABLE, CHANNEL_TOOL_NAMES } from './tools/channels.ts';
export { SLACK_NOT_INSTALLED, ASK_FOR_CONFIRMATION } from './tools/messaging.ts';
export type { AgentToolbox } from './tools/toolbox.ts';

export interface AgentsServices extends AgentToolSource {
  /** Agents' own tools + the channels module's (or plain stand-ins) + plugins' tools. */
  tools(): AgentTool[];
  /** Runs one tool as the member, checked like any request of theirs. */
  runTool(member: RequestContext, name: string, input: unknown): Promise<ToolResult>;
}

type AgentsContext = ModuleContext<readonly [typeof workspacesModule, typeof extensionsModule, typeof researchModule, typeof searchModule], readonly [typeof channelsModule]>;

const toolboxes = new WeakMap<object, AgentToolbox>();
function toolboxOf(ctx: AgentsContext): AgentToolbox {
  let box = toolboxes.get(ctx.deps);
  if (!box) {
    box = createToolbox({
      research: ctx.deps.research,
      search: ctx.deps.search,
      ai: ctx.ai,
      mailer: ctx.mailer,
      host: ctx.deps.extensions.host,
      // The channels module offers agentTools() once it has them; typed loosely so either shape fits.
      channels: () => (ctx.deps as { channels?: Partial<AgentToolSource> }).channels,
    });
    toolboxes.set(ctx.deps, box);
  }
  return box;
}

/**
 * AI agents (/agents): agents with instructions, a model and a tool set, conversations with them,
 * and the tools themselves, which the MCP server and automation run too. Every tool runs as the
 * person who invoked the agent and is checked like any request of theirs.
 */
const agentsModule = defineModule({
  name: 'agents',
  dependsOn: [workspacesModule, extensionsModule, researchModule, searchModule],
  optionalDependsOn: [channelsModule],
  services: (ctx): AgentsServices => {
    const box = toolboxOf(ctx);
    return { tools: box.tools, agentTools: box.tools, runTool: box.runTool };
  },
  graphql: (ctx) => [toolsPart(toolboxOf(ctx))],
});

export default agentsModule;
