import { AppError, type AgentToolSource, type ModuleContext, type RequestContext } from '@fieldbook/core';
import { channelAgentTools } from './agent-tools/tools.ts';
import { CHANNEL_PERMISSIONS } from './caller.ts';
import { getChannel } from './channels/channels.ts';
import { emergingThemes } from './themes/series.ts';
import { channelThemeChart, type ThemeChartData, type ThemeChartInterval } from './themes/chart.ts';

export type { ThemeChartData, ThemeChartInterval } from './themes/chart.ts';

export type ChannelLevel = 'read' | 'write' | 'full';

/** A theme's growth: its data points in the latest period beside the period before. */
export interface EmergingTheme {
  id: string;
  title: string;
  previousCount: number;
  currentCount: number;
}

/**
 * What the channels module offers other modules through `ctx.deps.channels` without their
 * depending on it: its agent tools (agents, MCP), a member's level on a channel (automation), and
 * reads checked like any request of the member's (dashboards, Ask).
 */
export interface ChannelsServices extends AgentToolSource {
  /** The channel if the member may read it; null when it is gone, in the trash or elsewhere. */
  channel(ctx: RequestContext, channelId: string): Promise<{ id: string; name: string } | null>;
  /**
   * The member's level on a channel of their workspace: full for those who may delete it
   * (managers), write for those who may edit it, read for every member; null when the channel is
   * not readable, in the trash, in another workspace, or the id is not an id at all.
   */
  channelLevel(member: RequestContext, channelId: string): Promise<ChannelLevel | null>;
  /** A channel's themes, most grown first, as the member may read them (NOT_FOUND otherwise): Ask's graph. */
  emergingThemes(member: RequestContext, channelId: string): Promise<EmergingTheme[]>;
  /** The channel's data points by theme, over time and in all (dashboards); null when not readable. */
  themeChart(member: RequestContext, channelId: string, interval: ThemeChartInterval): Promise<ThemeChartData | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the member's role grants the permission; the one check stays `authorize`. */
function allowed(
  member: RequestContext,
  permission: (typeof CHANNEL_PERMISSIONS)[keyof typeof CHANNEL_PERMISSIONS],
): boolean {
  try {
    member.authorize(permission);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
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
    async channelLevel(member, channelId) {
      if (!UUID.test(channelId) || !allowed(member, CHANNEL_PERMISSIONS.read)) return null;
      const workspaceId = member.workspace!.id;
      const live = await member.tx((trx) =>
        trx('channels').where({ id: channelId, workspace_id: workspaceId }).whereNull('deleted_at').first('id'),
      );
      if (!live) return null;
      if (allowed(member, CHANNEL_PERMISSIONS.delete)) return 'full';
      if (allowed(member, CHANNEL_PERMISSIONS.update)) return 'write';
      return 'read';
    },
    async themeChart(member, channelId, interval) {
      if (!UUID.test(channelId)) return null;
      try {
        return await channelThemeChart(member, channelId, interval);
      } catch (err) {
        if (err instanceof AppError && err.errorCode === 'NOT_FOUND') return null;
        throw err;
      }
    },
    emergingThemes: async (member, channelId) =>
      (await emergingThemes(member, { channelId })).map((e) => ({
        id: e.theme.id,
        title: e.theme.title,
        previousCount: e.previousCount,
        currentCount: e.currentCount,
      })),
  };
}
