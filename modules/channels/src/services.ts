import type { AgentToolSource, ModuleContext } from '@fieldbook/core';
import { channelAgentTools } from './agent-tools/tools.ts';

/** What the channels module offers other modules (agents, MCP, automation) through `ctx.deps.channels`. */
export type ChannelsServices = AgentToolSource;

export function channelsServices(_ctx: ModuleContext): ChannelsServices {
  return { agentTools: () => channelAgentTools() };
}
