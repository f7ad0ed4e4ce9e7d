import {
  defineModule,
  extensionsModule,
  workspacesModule,
  type AgentTool,
  type AgentToolSource,
  type ModuleContext,
  type RequestContext,
  type ToolResult,
} from '@fieldbook/core';
import channelsModule from '@fieldbook/channels';
import researchModule from '@fieldbook/research';
import searchModule from '@fieldbook/search';
import { agentsPart } from './api/resolvers.ts';
import { agentRoutes } from './api/routes.ts';
import { automationPort, type AgentsAutomationPort } from './automation.ts';
import type { RunDeps } from './conversations/run.ts';
import { toolsPart } from './tools/graphql.ts';
import { createToolbox } from './tools/toolbox.ts';

export { CHANNELS_UNAVAILABLE, CHANNEL_TOOL_NAMES } from './tools/channels.ts';
export { SLACK_NOT_INSTALLED, ASK_FOR_CONFIRMATION } from './tools/messaging.ts';
export { CANCELLED, MAX_STEPS } from './conversations/run.ts';
export type { AgentToolbox } from './tools/toolbox.ts';
export type { AgentsAutomationPort } from './automation.ts';

export interface AgentsServices extends AgentToolSource {
  /** Agents' own tools + the channels module's (or plain stand-ins) + plugins' tools. */
  tools(): AgentTool[];
  /** Runs one tool as the member, checked like any request of theirs. */
  runTool(member: RequestContext, name: string, input: unknown): Promise<ToolResult>;
  /** Whether the member's role lets them run a tool: MCP lists only those. */
  mayRun(member: RequestContext, tool: Pick<AgentTool, 'access'>): boolean;
  /** Automation's invokeAgent. */
  automationPort: AgentsAutomationPort;
}

type AgentsContext = ModuleContext<
  readonly [typeof workspacesModule, typeof extensionsModule, typeof researchModule, typeof searchModule],
  readonly [typeof channelsModule]
>;

const runDeps = new WeakMap<object, RunDeps>();
function depsOf(ctx: AgentsContext): RunDeps {
  let deps = runDeps.get(ctx.deps);
  if (!deps) {
    const toolbox = createToolbox({
      research: ctx.deps.research,
      search: ctx.deps.search,
      ai: ctx.ai,
      mailer: ctx.mailer,
      host: ctx.deps.extensions.host,
      // The channels module offers agentTools() once it has them; typed loosely so either shape fits.
      channels: () => (ctx.deps as { channels?: Partial<AgentToolSource> }).channels,
    });
    deps = { ai: ctx.ai, toolbox };
    runDeps.set(ctx.deps, deps);
  }
  return deps;
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
    const deps = depsOf(ctx);
    return {
      tools: deps.toolbox.tools,
      agentTools: deps.toolbox.tools,
      runTool: deps.toolbox.runTool,
      mayRun: deps.toolbox.mayRun,
      automationPort: automationPort(deps),
    };
  },
  graphql: (ctx) => [toolsPart(depsOf(ctx).toolbox), agentsPart(depsOf(ctx))],
  routes: (router, ctx) => agentRoutes(router, ctx as unknown as ModuleContext, depsOf(ctx)),
});

export default agentsModule;
