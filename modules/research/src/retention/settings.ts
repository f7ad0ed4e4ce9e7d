import type { Knex } from 'knex';
import { z } from 'zod';
import { recordAudit, validate, type RequestContext } from '@fieldbook/core';
import { RETENTION_DAYS, TRASH_DAYS, WARNING_DAYS, isRetentionDays } from './policy.ts';

/** The workspace's data retention setting, as the settings screen shows it (workspace admins only). */
export interface DataRetentionView {
  retentionDays: number | null;
  options: readonly number[];
  warningDays: number;
  trashDays: number;
  latestWarning: { id: string; deleteAfter: Date; noteCount: number; insightCount: number; createdAt: Date } | null;
  updatedAt: Date | null;
  updatedById: string | null;
}

interface PolicyRow {
  retention_days: number;
  updated_by: string | null;
  updated_at: Date;
}

async function read(trx: Knex.Transaction, workspaceId: string): Promise<DataRetentionView> {
  const policy = (await trx('data_retention_policies').where({ workspace_id: workspaceId }).first()) as
    | PolicyRow
    | undefined;
  const warning = (await trx('data_retention_warnings')
    .where({ workspace_id: workspaceId })
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .first()) as
    | { id: string; delete_after: Date; note_count: number; insight_count: number; created_at: Date }
    | undefined;
  return {
    retentionDays: policy?.retention_days ?? null,
    options: RETENTION_DAYS,
    warningDays: WARNING_DAYS,
    trashDays: TRASH_DAYS,
    latestWarning: warning
      ? {
          id: warning.id,
          deleteAfter: warning.delete_after,
          noteCount: warning.note_count,
          insightCount: warning.insight_count,
          createdAt: warning.created_at,
        }
      : null,
    updatedAt: policy?.updated_at ?? null,
    updatedById: policy?.updated_by ?? null,
  };
}

export async function getDataRetention(ctx: RequestContext): Promise<DataRetentionView> {
  const { workspace } = ctx.authorize('workspace:admin');
  return ctx.tx((trx) => read(trx, workspace.id));
}

const daysSchema = z
  .number()
  .int()
  .refine(
    isRetentionDays,
    `retentionDays must be one of ${RETENTION_DAYS.join(', ')} days, or null to turn data retention off.`,
  )
  .nullable();

/**
 * Sets the period, or turns retention off with null. Any change withdraws the warnings sent under
 * the old setting, so nothing is deleted on the strength of an announcement that no longer holds.
 */
export async function updateDataRetention(ctx: RequestContext, args: unknown): Promise<DataRetentionView> {
  const { viewer, workspace } = ctx.authorize('workspace:admin');
  const { retentionDays } = validate(z.object({ retentionDays: daysSchema }), {
    retentionDays: (args as { retentionDays?: unknown }).retentionDays ?? null,
  });
  return ctx.tx(async (trx) => {
    const current = (await trx('data_retention_policies').where({ workspace_id: workspace.id }).first()) as
      | PolicyRow
      | undefined;
    const old = current?.retention_days ?? null;
    if (old === retentionDays) return read(trx, workspace.id);
    await trx('data_retention_warnings').where({ workspace_id: workspace.id }).delete();
    if (retentionDays === null) {
      await trx('data_retention_policies').where({ workspace_id: workspace.id }).delete();
    } else {
      await trx('data_retention_policies')
        .insert({ workspace_id: workspace.id, retention_days: retentionDays, updated_by: viewer.userId })
        .onConflict('workspace_id')
        .merge({ retention_days: retentionDays, updated_by: viewer.userId, updated_at: trx.fn.now() });
    }
    await recordAudit(trx, {
      workspaceId: workspace.id,
      actorUserId: viewer.userId,
      kind: 'WORKSPACE',
      subjectType: 'dataRetention',
      metadata: { old, new: retentionDays },
    });
    return read(trx, workspace.id);
  });
}
