import type { AgentToolSource, ModuleContext, RequestContext } from '@fieldbook/core';
import { channelAgentTools } from './agent-tools/tools.ts';
import { getChannel } from './channels/channels.ts';

/**
 * What the channels module offers other modules through `ctx.deps.channels`: its agent tools (agents,
 * MCP) and reads they check like any request of the member's (dashboards).
 */
export interface ChannelsServices extends AgentToolSource {
  /** The channel if the member may read it; null when it is gone, in the trash or elsewhere. */
  channel(ctx: RequestContext, channelId: string): Promise<{ id: string; name: string } | null>;
}

export function channelsServices(_ctx: ModuleContext): ChannelsServices {
  return {
    agentTools: () => channelAgentTools(),
    async channel(ctx, channelId) {
      try {
        const row = await getChannel(ctx, { id: channelId });
        return { id: row.id, name: row.name };
      } catch (err) {
        if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return null;
        throw err;
      }
    },
  };
}
