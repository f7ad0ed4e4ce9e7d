import type { Knex } from 'knex';
import { z } from 'zod';
import {
  forbidden,
  insertShareLink,
  listShareLinks,
  notFound,
  PUBLIC_LINKS_DISABLED_MESSAGE,
  publicLinksDisabled,
  revokeShareLinkIn,
  validate,
  type Permission,
  type RequestContext,
  type ShareLinkRow,
} from '@fieldbook/core';
import { callerOf, CHANNEL_PERMISSIONS, type Caller } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';

/** The share object types of 000 §3 this module owns. */
export const CHANNEL_SHARE_TYPES = ['channel', 'dataset'] as const;
export type ChannelShareType = (typeof CHANNEL_SHARE_TYPES)[number];

export type ChannelShareRow = ShareLinkRow<ChannelShareType>;

/**
 * As for research objects, sharing publicly widens who may read, so it takes the permission to
 * change access (Contributor and above) on top of reading the channel.
 */
const SHARE_PERMISSION: Permission = 'acl:write';

const objectSchema = z.object({
  objectType: z.enum(CHANNEL_SHARE_TYPES, { error: `objectType is one of ${CHANNEL_SHARE_TYPES.join(', ')}.` }),
  objectId: idSchema('objectId'),
});

/** The live channel a shared object belongs to: the channel itself, or the dataset's. */
export async function sharedChannelId(
  trx: Knex.Transaction,
  workspaceId: string,
  type: ChannelShareType,
  id: string,
): Promise<string | null> {
  if (type === 'channel') return id;
  const dataset = (await trx('channel_datasets').where({ id, workspace_id: workspaceId }).first('channel_id')) as
    | { channel_id: string }
    | undefined;
  return dataset?.channel_id ?? null;
}

/** NOT_FOUND, named after what was asked for, unless the caller can read the object. */
async function assertReadable(
  trx: Knex.Transaction,
  caller: Caller,
  type: ChannelShareType,
  id: string,
): Promise<void> {
  const label = type === 'channel' ? 'That channel' : 'That dataset';
  const channelId = await sharedChannelId(trx, caller.workspaceId, type, id);
  if (!channelId) throw notFound(label);
  await channelFor(trx, caller, channelId).catch(() => {
    throw notFound(label);
  });
}

/** Makes a public link to a channel or a dataset. */
export async function createChannelShareLink(ctx: RequestContext, args: unknown): Promise<ChannelShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { objectType, objectId } = validate(objectSchema, args);
  return ctx.tx(async (trx) => {
    if (await publicLinksDisabled(trx, caller.workspaceId)) throw forbidden(PUBLIC_LINKS_DISABLED_MESSAGE);
    await assertReadable(trx, caller, objectType, objectId);
    return insertShareLink(trx, caller, { objectType, objectId, payload: {} });
  });
}

/** The live links of a channel or dataset, newest first. */
export async function channelShareLinks(ctx: RequestContext, args: unknown): Promise<ChannelShareRow[]> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { objectType, objectId } = validate(objectSchema, args);
  return ctx.tx(async (trx) => {
    await assertReadable(trx, caller, objectType, objectId);
    return listShareLinks<ChannelShareRow>(trx, caller.workspaceId, { objectType, objectId, limit: 100 });
  });
}

/** Ends a channel or dataset link at once. */
export async function revokeChannelShareLink(ctx: RequestContext, args: unknown): Promise<ChannelShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) =>
    revokeShareLinkIn<ChannelShareRow>(trx, caller, id, {
      objectTypes: CHANNEL_SHARE_TYPES,
      assertReadable: (share) => assertReadable(trx, caller, share.object_type, share.object_id),
    }),
  );
}
