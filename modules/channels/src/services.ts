import type { ModuleContext, RequestContext } from '@fieldbook/core';
import { emergingThemes } from './themes/series.ts';

/** A theme's growth: its data points in the latest period beside the period before. */
export interface EmergingTheme {
  id: string;
  title: string;
  previousCount: number;
  currentCount: number;
}

/** What the channels module offers other modules (agents, MCP, automation, Ask) through `ctx.deps.channels`. */
export interface ChannelsServices {
  /** A channel's themes, most grown first, as the member may read them (NOT_FOUND otherwise). */
  emergingThemes(member: RequestContext, channelId: string): Promise<EmergingTheme[]>;
}

export function channelsServices(_ctx: ModuleContext): ChannelsServices {
  return {
    emergingThemes: async (member, channelId) =>
      (await emergingThemes(member, { channelId })).map((e) => ({ id: e.theme.id, title: e.theme.title, previousCount: e.previousCount, currentCount: e.currentCount })),
  };
}
