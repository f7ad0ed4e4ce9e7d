import type { RequestContext } from '@fieldbook/core';
import { getChannel } from './channels/channels.ts';

/** What other modules may ask of channels (dashboards showing a channel's data points). */
export interface ChannelsServices {
  /** The channel if the member may read it; null when it is gone, in the trash or elsewhere. */
  channel(ctx: RequestContext, channelId: string): Promise<{ id: string; name: string } | null>;
}

export const channelsServices = (): ChannelsServices => ({
  async channel(ctx, channelId) {
    try {
      const row = await getChannel(ctx, { id: channelId });
      return { id: row.id, name: row.name };
    } catch (err) {
      if (err instanceof Error && 'errorCode' in err && err.errorCode === 'NOT_FOUND') return null;
      throw err;
    }
  },
});
