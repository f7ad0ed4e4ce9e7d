import type { Knex } from 'knex';
import { z } from 'zod';
import { badInput, notFound, validate, type RequestContext } from '@fieldbook/core';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema } from '../projects/inputs.ts';
import { tagFor } from '../tags/access.ts';
import { FOLLOW_OBJECT_TYPES, type FollowObjectType } from './object-types.ts';
import { defaultOptions } from './options.ts';

/** How often a follower hears of changes (000 §3 "follow options"). */
export const FOLLOW_FREQUENCIES = ['MONTHLY', 'WEEKLY', 'DAILY'] as const;
export type FollowFrequency = (typeof FOLLOW_FREQUENCIES)[number];

export interface FollowView {
  objectType: FollowObjectType;
  objectId: string;
  objectTitle: string;
  frequency: FollowFrequency;
  allChangesEnabled: boolean;
  insightsPublishedEnabled: boolean;
  allCommentsEnabled: boolean;
  createdAt: Date;
}

interface FollowRow {
  object_type: FollowObjectType;
  object_id: string;
  frequency: FollowFrequency;
  all_changes_enabled: boolean;
  insights_published_enabled: boolean;
  all_comments_enabled: boolean;
  created_at: Date;
}

/** A person follows at most this many objects in a workspace. */
export const MAX_FOLLOWS = 1000;

/** The object's title if the caller may read it; NOT_FOUND otherwise, as every read answers. */
async function readableTitle(
  trx: Knex.Transaction,
  caller: Caller,
  type: FollowObjectType,
  id: string,
): Promise<string> {
  if (type === 'PROJECT') return (await projectFor(trx, caller, id, 'read')).title;
  if (type === 'TAG') return (await tagFor(trx, caller, id, 'read')).tag.title;
  const insight = (await trx('insights')
    .where({ id, workspace_id: caller.workspaceId })
    .whereNull('deleted_at')
    .first('project_id', 'title')) as { project_id: string; title: string | null } | undefined;
  if (!insight) throw notFound('That insight');
  await projectFor(trx, caller, insight.project_id, 'read').catch(() => {
    throw notFound('That insight');
  });
  return insight.title || 'Untitled insight';
}

const view = (row: FollowRow, title: string): FollowView => ({
  objectType: row.object_type,
  objectId: row.object_id,
  objectTitle: title,
  frequency: row.frequency,
  allChangesEnabled: row.all_changes_enabled,
  insightsPublishedEnabled: row.insights_published_enabled,
  allCommentsEnabled: row.all_comments_enabled,
  createdAt: row.created_at,
});

const objectType = z.enum(FOLLOW_OBJECT_TYPES, {
  error: `objectType must be one of ${FOLLOW_OBJECT_TYPES.join(', ')}.`,
});
const objectArgs = z.object({ objectType, objectId: idSchema('objectId') });

const followSchema = z.object({
  input: z.object({
    objectType,
    objectId: idSchema('input.objectId'),
    frequency: z
      .enum(FOLLOW_FREQUENCIES, { error: `input.frequency must be one of ${FOLLOW_FREQUENCIES.join(', ')}.` })
      .nullish(),
    allChangesEnabled: z.boolean().nullish(),
    insightsPublishedEnabled: z.boolean().nullish(),
    allCommentsEnabled: z.boolean().nullish(),
  }),
});

/** The caller's follow of one object, or null. */
export async function getFollow(ctx: RequestContext, args: unknown): Promise<FollowView | null> {
  const caller = callerOf(ctx, 'notifications:read');
  const { objectType: type, objectId } = validate(objectArgs, args);
  return ctx.tx(async (trx) => {
    const title = await readableTitle(trx, caller, type, objectId);
    const row = (await trx('follows')
      .where({ workspace_id: caller.workspaceId, user_id: caller.userId, object_type: type, object_id: objectId })
      .first()) as FollowRow | undefined;
    return row ? view(row, title) : null;
  });
}

/** Follows an object the caller can read, or changes the options of an existing follow. */
export async function follow(ctx: RequestContext, args: unknown): Promise<FollowView> {
  const caller = callerOf(ctx, 'notifications:update');
  const { input } = validate(followSchema, args);
  return ctx.tx(async (trx) => {
    const title = await readableTitle(trx, caller, input.objectType, input.objectId);
    const key = {
      workspace_id: caller.workspaceId,
      user_id: caller.userId,
      object_type: input.objectType,
      object_id: input.objectId,
    };
    const current = (await trx('follows').where(key).first()) as FollowRow | undefined;
    if (!current) {
      const [{ n } = { n: '0' }] = (await trx('follows')
        .where({ workspace_id: caller.workspaceId, user_id: caller.userId })
        .count({ n: '*' })) as Array<{ n: string }>;
      if (Number(n) >= MAX_FOLLOWS) throw badFollowCount();
    }
    const defaults = defaultOptions(input.objectType);
    const options = {
      frequency: input.frequency ?? current?.frequency ?? 'WEEKLY',
      all_changes_enabled: input.allChangesEnabled ?? current?.all_changes_enabled ?? defaults.allChangesEnabled,
      insights_published_enabled:
        input.insightsPublishedEnabled ?? current?.insights_published_enabled ?? defaults.insightsPublishedEnabled,
      all_comments_enabled: input.allCommentsEnabled ?? current?.all_comments_enabled ?? defaults.allCommentsEnabled,
    };
    const [row] = (await trx('follows')
      .insert({ ...key, ...options })
      .onConflict(['workspace_id', 'object_type', 'object_id', 'user_id'])
      .merge({ ...options, updated_at: trx.fn.now() })
      .returning('*')) as FollowRow[];
    return view(row!, title);
  });
}

const badFollowCount = () =>
  badInput(
    'input.objectId',
    `You can follow at most ${MAX_FOLLOWS} projects, insights and tags in a workspace. Unfollow some first.`,
  );

export async function unfollow(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, 'notifications:update');
  const { objectType: type, objectId } = validate(objectArgs, args);
  return ctx.tx(async (trx) => {
    const deleted = await trx('follows')
      .where({ workspace_id: caller.workspaceId, user_id: caller.userId, object_type: type, object_id: objectId })
      .delete();
    return deleted > 0;
  });
}

/** Everything the caller follows in the workspace that they can still read, newest first. */
export async function listFollows(ctx: RequestContext): Promise<FollowView[]> {
  const caller = callerOf(ctx, 'notifications:read');
  return ctx.tx(async (trx) => {
    const rows = (await trx('follows')
      .where({ workspace_id: caller.workspaceId, user_id: caller.userId })
      .orderBy('created_at', 'desc')) as FollowRow[];
    const out: FollowView[] = [];
    for (const row of rows) {
      const title = await readableTitle(trx, caller, row.object_type, row.object_id).catch(() => null);
      if (title !== null) out.push(view(row, title));
    }
    return out;
  });
}
