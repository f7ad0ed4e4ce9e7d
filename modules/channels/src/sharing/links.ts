import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, forbidden, notFound, recordAudit, validate, type Permission, type RequestContext } from '@fieldbook/core';
import { callerOf, CHANNEL_PERMISSIONS, type Caller } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';

/** The share object types of 000 §3 this module owns. */
export const CHANNEL_SHARE_TYPES = ['channel', 'dataset'] as const;
export type ChannelShareType = (typeof CHANNEL_SHARE_TYPES)[number];

export interface ChannelShareRow {
  id: string;
  workspace_id: string;
  token: string;
  object_type: ChannelShareType;
  object_id: string;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/**
 * As for research objects, sharing publicly widens who may read, so it takes the permission to
 * change access (Contributor and above) on top of reading the channel.
 */
const SHARE_PERMISSION: Permission = 'acl:write';

export const PUBLIC_LINKS_DISABLED_MESSAGE =
  'Public links are turned off in this workspace. A workspace admin can turn them on in the workspace settings.';

const objectSchema = z.object({
  objectType: z.enum(CHANNEL_SHARE_TYPES, { error: `objectType is one of ${CHANNEL_SHARE_TYPES.join(', ')}.` }),
  objectId: idSchema('objectId'),
});

/** The workspace setting (002 §2): while it is on no link can be made and none opens. */
export async function publicLinksDisabled(trx: Knex.Transaction, workspaceId: string): Promise<boolean> {
  const row = (await trx('workspaces').where({ id: workspaceId }).first('public_links_disabled')) as { public_links_disabled: boolean } | undefined;
  return row?.public_links_disabled ?? true;
}

/** The live channel a shared object belongs to: the channel itself, or the dataset's. */
export async function sharedChannelId(trx: Knex.Transaction, workspaceId: string, type: ChannelShareType, id: string): Promise<string | null> {
  if (type === 'channel') return id;
  const dataset = (await trx('channel_datasets').where({ id, workspace_id: workspaceId }).first('channel_id')) as { channel_id: string } | undefined;
  return dataset?.channel_id ?? null;
}

/** NOT_FOUND, named after what was asked for, unless the caller can read the object. */
async function assertReadable(trx: Knex.Transaction, caller: Caller, type: ChannelShareType, id: string): Promise<void> {
  const label = type === 'channel' ? 'That channel' : 'That dataset';
  const channelId = await sharedChannelId(trx, caller.workspaceId, type, id);
  if (!channelId) throw notFound(label);
  await channelFor(trx, caller, channelId).catch(() => {
    throw notFound(label);
  });
}

// Public share tokens are exactly 12 letters or digits (002 §5), as research's links.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);
function shareToken(): string {
  let token = '';
  while (token.length < 12) {
    for (const byte of randomBytes(24)) {
      // Bytes past the last multiple of 62 are dropped, so every character is equally likely.
      if (byte >= UNBIASED_LIMIT) continue;
      token += ALPHABET[byte % ALPHABET.length];
      if (token.length === 12) break;
    }
  }
  return token;
}

/** Makes a public link to a channel or a dataset. */
export async function createChannelShareLink(ctx: RequestContext, args: unknown): Promise<ChannelShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { objectType, objectId } = validate(objectSchema, args);
  return ctx.tx(async (trx) => {
    if (await publicLinksDisabled(trx, caller.workspaceId)) throw forbidden(PUBLIC_LINKS_DISABLED_MESSAGE);
    await assertReadable(trx, caller, objectType, objectId);
    for (let attempt = 1; ; attempt += 1) {
      try {
        // A savepoint, so a token clash (astronomically unlikely) leaves the transaction usable.
        const share = await trx.transaction(async (sp) => {
          const [row] = (await sp('shares')
            .insert({ workspace_id: caller.workspaceId, object_type: objectType, object_id: objectId, payload: '{}', created_by: caller.userId, token: shareToken() })
            .returning(['id', 'workspace_id', 'token', 'object_type', 'object_id', 'created_by', 'created_at', 'revoked_at'])) as ChannelShareRow[];
          return row!;
        });
        await audit(trx, caller, share, 'publicLinkCreated');
        return share;
      } catch (error) {
        if ((error as { code?: string }).code !== '23505' || attempt >= 5) throw error;
      }
    }
  });
}

/** The live links of a channel or dataset, newest first. */
export async function channelShareLinks(ctx: RequestContext, args: unknown): Promise<ChannelShareRow[]> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { objectType, objectId } = validate(objectSchema, args);
  return ctx.tx(async (trx) => {
    await assertReadable(trx, caller, objectType, objectId);
    return (await trx('shares')
      .where({ workspace_id: caller.workspaceId, object_type: objectType, object_id: objectId })
      .whereNull('revoked_at')
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(100)) as ChannelShareRow[];
  });
}

/** Ends a channel or dataset link at once. */
export async function revokeChannelShareLink(ctx: RequestContext, args: unknown): Promise<ChannelShareRow> {
  const caller = callerOf(ctx, SHARE_PERMISSION);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const share = (await trx('shares').where({ id, workspace_id: caller.workspaceId }).whereIn('object_type', CHANNEL_SHARE_TYPES).forUpdate().first()) as ChannelShareRow | undefined;
    if (!share) throw notFound('That share link');
    if (share.created_by !== caller.userId) {
      await assertReadable(trx, caller, share.object_type, share.object_id).catch((error: unknown) => {
        throw error instanceof AppError && error.errorCode === 'NOT_FOUND' ? notFound('That share link') : error;
      });
    }
    if (share.revoked_at) return share;
    const [revoked] = (await trx('shares').where({ id }).update({ revoked_at: trx.fn.now() }).returning('*')) as ChannelShareRow[];
    await audit(trx, caller, revoked!, 'publicLinkRevoked');
    return revoked!;
  });
}

function audit(trx: Knex.Transaction, caller: Caller, share: ChannelShareRow, action: string): Promise<void> {
  // A token opens its object: it stays out of the audit log.
  return recordAudit(trx, {
    workspaceId: caller.workspaceId,
    actorUserId: caller.userId,
    kind: 'PERMISSION_CHANGE',
    subjectType: share.object_type,
    subjectId: share.object_id,
    metadata: { action, shareId: share.id },
  });
}
