import { join, relative, resolve, sep } from 'node:path';
import type { Knex } from 'knex';
import { withTenant } from '@fieldbook/core';
import type { IdMappingKind } from './format.ts';

export const TRANSFER_KINDS = ['EXPORT', 'IMPORT'] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];
export const TRANSFER_STATUSES = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const EXPORT_QUEUE = 'research.project-export';
export const IMPORT_QUEUE = 'research.project-import';

/** What a transfer job carries; it reads everything else from the transfer record. */
export interface TransferJob {
  transferId: string;
  workspaceId: string;
  userId: string;
}

export interface TransferRow {
  id: string;
  workspace_id: string;
  project_id: string | null;
  kind: TransferKind;
  status: TransferStatus;
  progress: number;
  counts: Record<string, number>;
  error: string | null;
  title: string | null;
  file_path: string | null;
  file_size: string | number | null;
  source_transfer_id: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export const isFinished = (row: Pick<TransferRow, 'status'>): boolean =>
  row.status === 'COMPLETED' || row.status === 'FAILED';

/** Where an export's files and archive live: FIELDBOOK_DATA_DIR/exports/<workspace>/<transfer>/. */
export const exportDir = (dataDir: string, workspaceId: string, transferId: string): string =>
  join(dataDir, 'exports', workspaceId, transferId);
export const importDir = (dataDir: string, workspaceId: string, transferId: string): string =>
  join(dataDir, 'imports', workspaceId, transferId);
export const ARCHIVE_NAME = 'export.tar';
export const UPLOAD_NAME = 'upload.tar';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a stored archive path is one Fieldbook itself writes: an export's archive or an upload,
 * in their folders of the data folder. Transfer rows are written with the request role, so the
 * path in one is checked before its file is read: nothing else (the secret key, say) is served or
 * imported, whoever wrote the row.
 */
export function isTransferArchive(dataDir: string, path: string, kind?: 'exports' | 'imports'): boolean {
  const parts = relative(resolve(dataDir), resolve(path)).split(sep);
  if (parts.length !== 4 || !ID.test(parts[1]!) || !ID.test(parts[2]!)) return false;
  const exported = parts[0] === 'exports' && parts[3] === ARCHIVE_NAME;
  const uploaded = parts[0] === 'imports' && parts[3] === UPLOAD_NAME;
  return kind === 'exports' ? exported : kind === 'imports' ? uploaded : exported || uploaded;
}

export async function transferById(
  trx: Knex.Transaction,
  workspaceId: string,
  id: string,
): Promise<TransferRow | undefined> {
  return (await trx('project_transfers').where({ id, workspace_id: workspaceId }).first()) as TransferRow | undefined;
}

/**
 * Progress and status written as the job goes, each in its own short transaction so the people
 * polling see them while the job's own work is still uncommitted.
 */
export async function patchTransfer(
  app: Knex,
  job: TransferJob,
  patch: Partial<Pick<TransferRow, 'status' | 'progress' | 'error' | 'counts'>>,
): Promise<void> {
  await withTenant(app, { workspaceId: job.workspaceId, userId: job.userId }, async (trx) => {
    const row: Record<string, unknown> = { ...patch, updated_at: trx.fn.now() };
    if (patch.counts) row.counts = JSON.stringify(patch.counts);
    await trx('project_transfers')
      .where({ id: job.transferId })
      .whereNotIn('status', ['COMPLETED', 'FAILED'])
      .update(row);
  });
}

/** Records which new id each exported id became (001 §3.7 id mappings). */
export async function recordIdMappings(
  trx: Knex.Transaction,
  workspaceId: string,
  transferId: string,
  kind: IdMappingKind,
  pairs: ReadonlyMap<string, string>,
): Promise<void> {
  const rows = [...pairs].map(([source, target]) => ({
    workspace_id: workspaceId,
    transfer_id: transferId,
    kind,
    source_id: source,
    target_id: target,
  }));
  for (let i = 0; i < rows.length; i += 500) await trx('project_transfer_ids').insert(rows.slice(i, i + 500));
}

/** A transfer's terminal notification (002 §3 notification types). */
export const TRANSFER_NOTIFICATION_TYPES = {
  exportCompleted: 'project_export_completed',
  exportFailed: 'project_export_failed',
  importCompleted: 'project_import_completed',
  importFailed: 'project_import_failed',
} as const;

export function notificationType(kind: TransferKind, ok: boolean): string {
  if (kind === 'EXPORT')
    return ok ? TRANSFER_NOTIFICATION_TYPES.exportCompleted : TRANSFER_NOTIFICATION_TYPES.exportFailed;
  return ok ? TRANSFER_NOTIFICATION_TYPES.importCompleted : TRANSFER_NOTIFICATION_TYPES.importFailed;
}

/** Notifies the person who asked for the transfer, in the transaction that finishes it. */
export async function notifyRequester(
  trx: Knex.Transaction,
  row: TransferRow,
  ok: boolean,
  extra: Record<string, unknown> = {},
): Promise<void> {
  if (!row.created_by) return;
  await trx('notifications').insert({
    user_id: row.created_by,
    workspace_id: row.workspace_id,
    type: notificationType(row.kind, ok),
    payload: JSON.stringify({ transferId: row.id, projectId: row.project_id, projectTitle: row.title, ...extra }),
  });
}

/**
 * Marks a transfer FAILED with a message for people and notifies the requester, once: a transfer
 * that already finished stays as it is.
 */
export async function failTransfer(app: Knex, job: TransferJob, message: string): Promise<void> {
  await withTenant(app, { workspaceId: job.workspaceId, userId: job.userId }, async (trx) => {
    const [row] = (await trx('project_transfers')
      .where({ id: job.transferId })
      .whereNotIn('status', ['COMPLETED', 'FAILED'])
      .update({ status: 'FAILED', error: message, updated_at: trx.fn.now(), completed_at: trx.fn.now() })
      .returning('*')) as TransferRow[];
    if (row) await notifyRequester(trx, row, false, { error: message });
  });
}
