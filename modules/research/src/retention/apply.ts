import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { once, recordAudit, withTenant } from '@fieldbook/core';
import { deleteForGood, deletePeopleForGood, type DeletedCounts } from './purge.ts';
import {
  DATA_RETENTION_WARNING,
  TRASH_DAYS,
  WARNING_DAYS,
  daysBefore,
  deletionCutoff,
  retentionWindows,
  runDay,
} from './policy.ts';

export const DATA_RETENTION_QUEUE = 'research.data-retention';

export interface DataRetentionWarningPayload {
  warningId: string;
  retentionDays: number;
  /** When the announced notes and insights will be deleted (ISO 8601). */
  deleteAfter: string;
  noteCount: number;
  insightCount: number;
}

export interface RetentionOutcome {
  warning: DataRetentionWarningPayload | null;
  /** Deleted because they were past the retention period. */
  expired: DeletedCounts;
  /** Deleted because they had been in the trash longer than it keeps them. */
  trash: DeletedCounts & { folders: number; people: number };
}

interface PolicyRow {
  retention_days: number;
  updated_at: Date;
}

const NONE: DeletedCounts = { projects: 0, notes: 0, insights: 0, highlights: 0 };

async function idsWhere(q: Knex.QueryBuilder): Promise<string[]> {
  return ((await q.select('id')) as Array<{ id: string }>).map((r) => r.id);
}

/** Projects, folders, notes, insights, highlights and people in the trash for longer than 30 days. */
async function emptyOldTrash(
  trx: Knex.Transaction,
  workspaceId: string,
  now: Date,
): Promise<RetentionOutcome['trash']> {
  const before = daysBefore(now, TRASH_DAYS);
  const trashed = (table: string) =>
    trx(table).where({ workspace_id: workspaceId }).whereNotNull('deleted_at').where('deleted_at', '<', before);
  const counts = await deleteForGood(trx, workspaceId, {
    projects: await idsWhere(trashed('projects')),
    notes: await idsWhere(trashed('notes')),
    insights: await idsWhere(trashed('insights')),
    highlights: await idsWhere(trashed('highlights')),
  });
  // A folder's own folders were trashed with it (or before it), so they go with it.
  const folders = await trashed('project_categories').delete();
  const people = await deletePeopleForGood(trx, workspaceId, await idsWhere(trashed('people')));
  return { ...counts, folders, people };
}

/**
 * Announces to the workspace admins the notes and insights that reach the end of the period
 * within the warning days and no earlier warning announced. At most one warning per workspace,
 * policy and day, through `once()`: a second run on the same day changes nothing.
 */
async function warn(
  trx: Knex.Transaction,
  workspaceId: string,
  policy: PolicyRow,
  now: Date,
): Promise<DataRetentionWarningPayload | null> {
  const windows = retentionWindows(now, policy.retention_days);
  const last = (await trx('data_retention_warnings')
    .where({ workspace_id: workspaceId })
    .max('cutoff as cutoff')
    .first()) as { cutoff: Date | null } | undefined;
  const entering = (table: string) => {
    const q = trx(table).where({ workspace_id: workspaceId }).where('created_at', '<', windows.warnBefore);
    if (last?.cutoff) q.where('created_at', '>=', last.cutoff);
    return q.count<Array<{ count: number }>>('* as count').first();
  };
  const noteCount = Number((await entering('notes'))?.count ?? 0);
  const insightCount = Number((await entering('insights'))?.count ?? 0);
  if (!noteCount && !insightCount) return null;

  const payload: DataRetentionWarningPayload = {
    warningId: randomUUID(),
    retentionDays: policy.retention_days,
    deleteAfter: windows.deleteAfter.toISOString(),
    noteCount,
    insightCount,
  };
  const key = `data-retention-warning:${workspaceId}:${policy.retention_days}:${policy.updated_at.getTime()}:${runDay(now)}`;
  const { applied } = await once(trx, key, DATA_RETENTION_QUEUE, async () => {
    await trx('data_retention_warnings').insert({
      id: payload.warningId,
      workspace_id: workspaceId,
      retention_days: policy.retention_days,
      cutoff: windows.warnBefore,
      delete_after: windows.deleteAfter,
      note_count: noteCount,
      insight_count: insightCount,
      created_at: now,
    });
    const admins = (await trx('workspace_members')
      .where({ workspace_id: workspaceId, workspace_admin: true })
      .select('user_id')) as Array<{ user_id: string }>;
    if (!admins.length) return;
    // No RETURNING: the rows belong to the admins, whom this transaction may write for but not read.
    await trx('notifications').insert(
      admins.map((a) => ({
        user_id: a.user_id,
        workspace_id: workspaceId,
        type: DATA_RETENTION_WARNING,
        payload: JSON.stringify(payload),
        created_at: now,
      })),
    );
  });
  return applied ? payload : null;
}

/** Deletes the notes and insights past the period that a warning announced at least 7 days ago. */
async function deleteExpired(
  trx: Knex.Transaction,
  workspaceId: string,
  policy: PolicyRow,
  now: Date,
): Promise<DeletedCounts> {
  const windows = retentionWindows(now, policy.retention_days);
  const due = (await trx('data_retention_warnings')
    .where({ workspace_id: workspaceId })
    .where('delete_after', '<=', now)
    .max('cutoff as cutoff')
    .first()) as { cutoff: Date | null } | undefined;
  const cutoff = deletionCutoff(windows.expiredBefore, due?.cutoff ?? null);
  if (!cutoff) return NONE;
  const older = (table: string) => trx(table).where({ workspace_id: workspaceId }).where('created_at', '<', cutoff);
  return deleteForGood(trx, workspaceId, {
    notes: await idsWhere(older('notes')),
    insights: await idsWhere(older('insights')),
  });
}

/**
 * One workspace's daily run: empties the trash of what it has kept for 30 days, then, when the
 * workspace has a retention period, warns about what is coming up and deletes what is due (see
 * policy.ts). Running it again with the same clock changes nothing more.
 */
export async function applyDataRetention(app: Knex, workspaceId: string, now: Date): Promise<RetentionOutcome> {
  return withTenant(app, { workspaceId }, async (trx) => {
    // Two runs for one workspace (a retry beside a slow first attempt) take turns.
    await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`data-retention:${workspaceId}`]);
    const workspace = await trx('workspaces').where({ id: workspaceId }).first('id');
    if (!workspace) return { warning: null, expired: NONE, trash: { ...NONE, folders: 0, people: 0 } };

    const trash = await emptyOldTrash(trx, workspaceId, now);
    const policy = (await trx('data_retention_policies')
      .where({ workspace_id: workspaceId })
      .first('retention_days', 'updated_at')) as PolicyRow | undefined;
    const warning = policy ? await warn(trx, workspaceId, policy, now) : null;
    const expired = policy ? await deleteExpired(trx, workspaceId, policy, now) : NONE;

    if (
      expired.notes ||
      expired.insights ||
      trash.projects ||
      trash.notes ||
      trash.insights ||
      trash.highlights ||
      trash.folders ||
      trash.people
    ) {
      await recordAudit(trx, {
        workspaceId,
        actorUserId: null,
        kind: 'WORKSPACE',
        subjectType: 'dataRetention',
        metadata: {
          retentionDays: policy?.retention_days ?? null,
          expired,
          trash,
          warningDays: WARNING_DAYS,
          trashDays: TRASH_DAYS,
        },
      });
    }
    return { warning, expired, trash };
  });
}
