import { z } from 'zod';
import { notFound, validate, type RequestContext } from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor, idSchema } from '../channels/channels.ts';
import { IMPORT_COLUMNS, type ChannelImportRow } from './records.ts';

export type ChannelImportView = Omit<ChannelImportRow, 'file'>;

/** An import of a live channel of the caller's workspace. */
export async function getImport(ctx: RequestContext, args: unknown): Promise<ChannelImportView> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => {
    const row = (await trx('channel_imports').where({ id, workspace_id: caller.workspaceId }).first(IMPORT_COLUMNS)) as
      | ChannelImportView
      | undefined;
    if (!row) throw notFound('That import');
    await channelFor(trx, caller, row.channel_id).catch(() => {
      throw notFound('That import');
    });
    return row;
  });
}

export async function listImports(ctx: RequestContext, args: unknown): Promise<ChannelImportView[]> {
  const caller = callerOf(ctx, CHANNEL_PERMISSIONS.read);
  const { channelId } = validate(z.object({ channelId: idSchema('channelId') }), args);
  return ctx.tx(async (trx) => {
    await channelFor(trx, caller, channelId);
    return (await trx('channel_imports')
      .where({ workspace_id: caller.workspaceId, channel_id: channelId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(100)
      .select(IMPORT_COLUMNS)) as ChannelImportView[];
  });
}
