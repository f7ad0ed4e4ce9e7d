import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import { AppError, badInput, notFound, validate, type JobQueue, type RequestContext } from '@fieldbook/core';
import { projectFor } from '../projects/access.ts';
import { callerOf } from '../projects/caller.ts';
import { exportDir, importDir, isTransferArchive, UPLOAD_NAME, type TransferRow } from './records.ts';
import { assertUploadSize, importTitleSchema, importUpload, transferFor } from './transfers.ts';

/** The largest archive POST /api/imports accepts. */
export const MAX_IMPORT_BYTES = 500 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TransferRouteDeps {
  dataDir: string;
  jobs: JobQueue;
  /** The same request context GraphQL resolvers get (bearer token, workspace header). */
  context(koa: Koa.Context): Promise<RequestContext>;
  maxImportBytes?: number;
}

const fileName = (title: string | null): string =>
  `${
    (title ?? 'project')
      .replace(/[^\w\- ]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'project'
  }.tar`;

/**
 * GET /api/exports/:transferId streams a finished export's archive to a member of its workspace
 * who can read the project; POST /api/imports takes an archive as the raw request body and
 * starts importing it as a new project.
 */
export function mountTransferRoutes(router: Router, deps: TransferRouteDeps): void {
  router.get('/api/exports/:transferId', async (koa) => {
    const ctx = await deps.context(koa);
    const caller = callerOf(ctx, 'projects:read');
    const id = koa.params.transferId ?? '';
    if (!UUID.test(id)) throw badInput('transferId', 'transferId must be a valid id.');
    const row = await ctx.tx(async (trx) => {
      const transfer = await transferFor(trx, caller, id);
      if (transfer.kind !== 'EXPORT' || !transfer.project_id) throw notFound('That export');
      // Whoever downloads must still be able to read the project, the requester included.
      await projectFor(trx, caller, transfer.project_id, 'read').catch(() => {
        throw notFound('That export');
      });
      return transfer as TransferRow;
    });
    if (row.status !== 'COMPLETED' || !row.file_path)
      throw new AppError('INVALID_OPERATION', 'This export is not ready yet. Download it once it has completed.');
    // Only this export's own archive is ever served, whatever path its row names.
    const own =
      isTransferArchive(deps.dataDir, row.file_path, 'exports') &&
      resolve(row.file_path).startsWith(resolve(exportDir(deps.dataDir, caller.workspaceId, row.id)) + sep);
    if (!own || !existsSync(row.file_path))
      throw new AppError(
        'INVALID_OPERATION',
        'This export’s archive is no longer available. Export the project again.',
      );
    koa.set('content-type', 'application/x-tar');
    koa.set('content-disposition', `attachment; filename="${fileName(row.title)}"`);
    if (row.file_size != null) koa.set('content-length', String(row.file_size));
    koa.set('cache-control', 'private, no-store');
    koa.body = createReadStream(row.file_path);
  });

  router.post('/api/imports', async (koa) => {
    const ctx = await deps.context(koa);
    callerOf(ctx, 'projects:create');
    // ?title= names the new project; without it the archive's own title is kept.
    const { title } = validate(z.object({ title: importTitleSchema }), {
      title: typeof koa.query.title === 'string' ? koa.query.title : null,
    });
    const limit = deps.maxImportBytes ?? MAX_IMPORT_BYTES;
    const declared = Number(koa.get('content-length') || 0);
    assertUploadSize(declared, limit);
    const workspaceId = ctx.workspace!.id;
    const transferId = randomUUID();
    const dir = importDir(deps.dataDir, workspaceId, transferId);
    await mkdir(dir, { recursive: true });
    const path = join(dir, UPLOAD_NAME);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit)
          done(badInput('body', `An archive to import can be at most ${Math.round(limit / (1024 * 1024))} MB.`));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(koa.req, counter, createWriteStream(path));
      if (!size) throw badInput('body', 'Send the export archive (a .tar file) as the request body.');
      const row = await importUpload(ctx, deps.jobs, transferId, path, size, title ?? null);
      koa.status = 202;
      koa.body = { id: row.id, status: row.status };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      if (koa.req.readable) koa.req.resume();
      throw error;
    }
  });
}
