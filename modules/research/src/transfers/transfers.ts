import { existsSync } from 'node:fs';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  AppError,
  badInput,
  notFound,
  validate,
  withTenant,
  type JobQueue,
  type ModuleContext,
  type RequestContext,
} from '@fieldbook/core';
import { membersReading } from '../projects/readers.ts';
import { projectFor, type Caller } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { idSchema, requiredTitle } from '../projects/inputs.ts';
import { ID_MAPPING_KINDS } from './format.ts';
import {
  EXPORT_QUEUE,
  IMPORT_QUEUE,
  isTransferArchive,
  transferById,
  type TransferJob,
  type TransferKind,
  type TransferRow,
} from './records.ts';

export interface TransferView extends TransferRow {
  caller: Caller;
}

const view =
  (caller: Caller) =>
  (row: TransferRow): TransferView => ({ ...row, caller });

/** Creates a transfer record and its job together: the job exists only if the record does. */
async function startTransfer(
  trx: Knex.Transaction,
  jobs: JobQueue,
  caller: Caller,
  kind: TransferKind,
  fields: Partial<TransferRow>,
): Promise<TransferRow> {
  const [row] = (await trx('project_transfers')
    .insert({
      workspace_id: caller.workspaceId,
      kind,
      status: 'QUEUED',
      progress: 0,
      created_by: caller.userId,
      ...fields,
    })
    .returning('*')) as TransferRow[];
  const job: TransferJob = { transferId: row!.id, workspaceId: caller.workspaceId, userId: caller.userId };
  await jobs.send(kind === 'EXPORT' ? EXPORT_QUEUE : IMPORT_QUEUE, job, { trx });
  return row!;
}

/** Exports a project the caller can read (Contributor and above: "create exports", 002 §6). */
export async function exportProject(ctx: RequestContext, jobs: JobQueue, args: unknown): Promise<TransferView> {
  const caller = callerOf(ctx, 'exports:create');
  const { projectId } = validate(z.object({ projectId: idSchema('projectId') }), args);
  return ctx.tx(async (trx) => {
    const project = await projectFor(trx, caller, projectId, 'read');
    return view(caller)(
      await startTransfer(trx, jobs, caller, 'EXPORT', { project_id: project.id, title: project.title }),
    );
  });
}

/** Starts the import of an archive already stored for this transfer (an upload). */
export async function importUpload(
  ctx: RequestContext,
  jobs: JobQueue,
  transferId: string,
  filePath: string,
  size: number,
  title: string | null = null,
): Promise<TransferRow> {
  const caller = callerOf(ctx, 'projects:create');
  return ctx.tx((trx) =>
    startTransfer(trx, jobs, caller, 'IMPORT', {
      id: transferId,
      file_path: filePath,
      file_size: size,
      ...(title ? { title } : {}),
    }),
  );
}

/** The workspaces the person belongs to, this one first. */
async function workspacesOf(app: Knex, userId: string, current: string): Promise<string[]> {
  const rows = (await withTenant(app, { userId }, (trx) =>
    trx('workspace_members').where({ user_id: userId }).select('workspace_id'),
  )) as Array<{ workspace_id: string }>;
  return [current, ...rows.map((r) => r.workspace_id).filter((id) => id !== current)];
}

/**
 * The finished export `exportId` if the caller can read it: it belongs to one of their
 * workspaces and they may read the exported project there. Anything else is NOT_FOUND.
 */
async function readableExport(app: Knex, caller: Caller, exportId: string): Promise<TransferRow> {
  for (const workspaceId of await workspacesOf(app, caller.userId, caller.workspaceId)) {
    const found = await withTenant(app, { workspaceId, userId: caller.userId }, async (trx) => {
      const row = await transferById(trx, workspaceId, exportId);
      if (!row || row.kind !== 'EXPORT' || !row.project_id) return null;
      const project = (await trx('projects')
        .where({ id: row.project_id, workspace_id: workspaceId })
        .whereNull('deleted_at')
        .first('permissions')) as { permissions: unknown } | undefined;
      if (!project) return null;
      const reader = (await membersReading(trx, workspaceId, project.permissions, [caller.userId])).get(caller.userId);
      return reader?.canRead ? row : null;
    });
    if (found) return found;
  }
  throw notFound('That export');
}

/** The new project's title an import may be given; left out, the archive's own title is kept. */
export const importTitleSchema = requiredTitle('project').nullish();

const importArgs = z.object({ input: z.object({ exportId: idSchema('input.exportId'), title: importTitleSchema }) });

/**
 * Imports a finished export, of this or another workspace the caller belongs to, as a new
 * project of this workspace (Contributor and above: it creates a project).
 */
export async function importProject(
  ctx: RequestContext,
  moduleCtx: ModuleContext,
  args: unknown,
): Promise<TransferView> {
  const caller = callerOf(ctx, 'projects:create');
  const { input } = validate(importArgs, args);
  const source = await readableExport(moduleCtx.db.app, caller, input.exportId);
  if (source.status !== 'COMPLETED')
    throw new AppError('INVALID_OPERATION', 'That export has not finished yet. Import it once it is ready.', {
      field: 'input.exportId',
    });
  const archive =
    source.file_path && isTransferArchive(moduleCtx.config.dataDir, source.file_path, 'exports')
      ? source.file_path
      : null;
  if (!archive || !existsSync(archive))
    throw new AppError('INVALID_OPERATION', 'That export’s archive is no longer available. Export the project again.', {
      field: 'input.exportId',
    });
  return ctx.tx(async (trx) =>
    view(caller)(
      await startTransfer(trx, moduleCtx.jobs, caller, 'IMPORT', {
        title: input.title ?? source.title,
        file_path: source.file_path,
        file_size: source.file_size,
        source_transfer_id: source.id,
      }),
    ),
  );
}

/**
 * A transfer the caller may see: their own, or one of a project they can read. Anyone else's
 * reads as missing.
 */
export async function transferFor(trx: Knex.Transaction, caller: Caller, id: string): Promise<TransferRow> {
  const row = await transferById(trx, caller.workspaceId, id);
  if (!row) throw notFound('That transfer');
  if (row.created_by === caller.userId) return row;
  if (!row.project_id) throw notFound('That transfer');
  await projectFor(trx, caller, row.project_id, 'read').catch(() => {
    throw notFound('That transfer');
  });
  return row;
}

export async function getTransfer(ctx: RequestContext, args: unknown): Promise<TransferView> {
  const caller = callerOf(ctx, 'projects:read');
  const { id } = validate(z.object({ id: idSchema() }), args);
  return ctx.tx(async (trx) => view(caller)(await transferFor(trx, caller, id)));
}

const listArgs = z.object({
  projectId: idSchema('projectId'),
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(100, 'A page can have at most 100 transfers.')
    .nullish(),
});

/** A project's exports and the import that created it, newest first. */
export async function listTransfers(ctx: RequestContext, args: unknown): Promise<TransferView[]> {
  const caller = callerOf(ctx, 'projects:read');
  const { projectId, first } = validate(listArgs, args);
  return ctx.tx(async (trx) => {
    await projectFor(trx, caller, projectId, 'read');
    const rows = (await trx('project_transfers')
      .where({ workspace_id: caller.workspaceId, project_id: projectId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(first ?? 20)) as TransferRow[];
    return rows.map(view(caller));
  });
}

const mappingArgs = z.object({
  kind: z.enum(ID_MAPPING_KINDS),
  first: z
    .number()
    .int()
    .min(1, 'first must be at least 1.')
    .max(1000, 'A page can have at most 1000 id mappings.')
    .nullish(),
  after: z.string().max(100).nullish(),
});

/** Which new id each exported id became, one kind at a time, in order of the exported id. */
export async function idMappings(
  ctx: RequestContext,
  transfer: TransferView,
  args: unknown,
): Promise<Array<{ sourceId: string; targetId: string }>> {
  const { kind, first, after } = validate(mappingArgs, args);
  if (transfer.kind !== 'IMPORT') return [];
  return ctx.tx(async (trx) => {
    const q = trx('project_transfer_ids')
      .where({ transfer_id: transfer.id, kind })
      .orderBy('source_id')
      .limit(first ?? 100);
    if (after) q.where('source_id', '>', after);
    const rows = (await q.select('source_id', 'target_id')) as Array<{ source_id: string; target_id: string }>;
    return rows.map((r) => ({ sourceId: r.source_id, targetId: r.target_id }));
  });
}

export const assertUploadSize = (declared: number, limit: number): void => {
  if (declared > limit)
    throw badInput('body', `An archive to import can be at most ${Math.round(limit / (1024 * 1024))} MB.`);
};
