import { AppError, type ModuleContext, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS } from './caller.ts';

export type ChannelLevel = 'read' | 'write' | 'full';

/** What other modules (automation, agents) may ask of channels without depending on them. */
export interface ChannelsServices {
  /**
   * The member's level on a channel of their workspace: full for those who may delete it
   * (managers), write for those who may edit it, read for every member; null when the channel is
   * not readable, in the trash, in another workspace, or the id is not an id at all.
   */
  channelLevel(member: RequestContext, channelId: string): Promise<ChannelLevel | null>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the member's role grants the permission; the one check stays `authorize`. */
function allowed(member: RequestContext, permission: (typeof CHANNEL_PERMISSIONS)[keyof typeof CHANNEL_PERMISSIONS]): boolean {
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
    async channelLevel(member, channelId) {
      if (!UUID.test(channelId) || !allowed(member, CHANNEL_PERMISSIONS.read)) return null;
      const workspaceId = member.workspace!.id;
      const live = await member.tx((trx) => trx('channels').where({ id: channelId, workspace_id: workspaceId }).whereNull('deleted_at').first('id'));
      if (!live) return null;
      if (allowed(member, CHANNEL_PERMISSIONS.delete)) return 'full';
      if (allowed(member, CHANNEL_PERMISSIONS.update)) return 'write';
      return 'read';
    },
  };
}
