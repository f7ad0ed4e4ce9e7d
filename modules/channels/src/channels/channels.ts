import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, notFound, validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf, type Caller } from '../caller.ts';
import { CHANNEL_LIMITS } from '../limits.ts';

export interface ChannelRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export const idSchema = (what = 'id') => z.uuid({ error: `${what} must be a valid id.` });

const name = z
  .string({ error: 'Give the channel a name.' })
  .trim()
  .min(1, 'Give the channel a name.')
  .max(CHANNEL_LIMITS.name, `A channel name can be at most ${CHANNEL_LIMITS.name} characters long.`);
const description = z
  .string()
  .trim()
  .max(
    CHANNEL_LIMITS.description,
    `A channel description can be at most ${CHANNEL_LIMITS.description} characters long.`,
  );

/** A live channel of the caller's workspace; NOT_FOUND for the trash and for other workspaces. */
export async function channelFor(
  trx: Knex.Transaction,
  caller: Pick<Caller, 'workspaceId'>,
  id: string,
  opts: { trashed?: boolean } = {},
): Promise<ChannelRow> {
  const q = trx('channels').where({ id, workspace_id: caller.workspaceId });
  if (opts.trashed) q.whereNotNull('deleted_at');
  else q.whereNull('deleted_at');
  const row = (await q.first()) as ChannelRow | undefined;
  if (!row) throw notFound('That channel');
  return row;
}

/** maximumChannels (001 §3.9): live channels count; a channel in the trash does not. */
async function assertBelowChannelLimit(
  trx: Knex.Transaction,
  workspaceId: string,
  maximum: number | null,
): Promise<void> {
  if (maximum === null) return;
  const [{ count }] = (await trx('channels')
    .where({ workspace_id: workspaceId })
    .whereNull('deleted_at')
    .count<Array<{ count: string }>>('* as count')) as [{ count: string }];
  if (Number(count) >= maximum) {
    throw new AppError(
      'INVALID_OPERATION',
      `This workspace can have at most ${maximum} channels (maximumChannels). Delete one, or change plan for more.`,
      { field: 'maximumChannels' },
    );
  }
}

export async function createChannel(ctx: RequestContext, maximum: number | null, args: unknown): Promise<ChannelRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.create);
  const { input } = validate(z.object({ input: z.object({ name, description: description.nullish() }) }), args);
  return ctx.tx(async (trx) => {
    // One creation at a time per workspace, so two requests cannot both take the last place.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channels:${caller.workspaceId}`]);
    await assertBelowChannelLimit(trx, caller.workspaceId, maximum);
    const [row] = (await trx('channels')
      .insert({
        workspace_id: caller.workspaceId,
        name: input.name,
        description: input.description || null,
        created_by: caller.userId,
        updated_by: caller.userId,
      })
      .returning('*')) as ChannelRow[];
    return row!;
  });
}

export async function updateChannel(ctx: RequestContext, args: unknown): Promise<ChannelRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.update);
  const { id, input } = validate(
    z.object({ id: idSchema(), input: z.object({ name: name.optional(), description: description.nullish() }) }),
    args,
  );
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, id);
    const patch: Record<string, unknown> = { updated_at: trx.fn.now(), updated_by: caller.userId };
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description || null;
    const [row] = (await trx('channels')
      .where({ id, workspace_id: caller.workspaceId })
      .update(patch)
      .returning('*')) as ChannelRow[];
    return row!;
  });
}

/** Moves a channel to the trash with its data points (manager and above). */
export async function deleteChannel(ctx: RequestContext, args: unknown): Promise<boolean> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.delete);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, id);
    await trx('channels')
      .where({ id, workspace_id: caller.workspaceId })
      .update({ deleted_at: trx.fn.now(), deleted_by: caller.userId });
    return true;
  });
}

/** Brings a channel back from the trash, if the workspace has room for it. */
export async function restoreChannel(ctx: RequestContext, maximum: number | null, args: unknown): Promise<ChannelRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.delete);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`channels:${caller.workspaceId}`]);
    await channelFor(trx, caller, id, { trashed: true });
    await assertBelowChannelLimit(trx, caller.workspaceId, maximum);
    const [row] = (await trx('channels')
      .where({ id, workspace_id: caller.workspaceId })
      .update({ deleted_at: null, deleted_by: null })
      .returning('*')) as ChannelRow[];
    return row!;
  });
}

export async function getChannel(ctx: RequestContext, args: unknown): Promise<ChannelRow> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx((trx) => channelFor(trx, caller, id));
}

/** The workspace's channels by name; with `trashed`, those in the trash (managers). */
export async function listChannels(ctx: RequestContext, args: unknown): Promise<ChannelRow[]> {
  const { trashed } = validate(z.object({ trashed: z.boolean().nullish() }), args);
  const caller = callerOf(ctx, trashed ? CHANNEL_PERMISSIONS.delete : CHANNEL_PERMISSIONS.read);
  return ctx.tx(async (trx) => {
    const q = trx('channels').where({ workspace_id: caller.workspaceId });
    if (trashed) q.whereNotNull('deleted_at').orderBy('deleted_at', 'desc');
    else q.whereNull('deleted_at').orderBy([{ column: 'name' }, { column: 'id' }]);
    return (await q.limit(1000)) as ChannelRow[];
  });
}
