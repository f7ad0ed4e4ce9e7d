import type { Knex } from 'knex';
import type { Job, ModuleContext } from '@fieldbook/core';
import {
  failTransfer,
  isFinished,
  patchTransfer,
  transferById,
  type TransferJob,
  type TransferKind,
  type TransferRow,
} from './records.ts';

/** A failure retrying cannot fix (a damaged archive, a deleted project): its message is for people. */
export class TransferError extends Error {}

/** Retries after the first failure, for both transfer queues. */
export const TRANSFER_RETRY_LIMIT = 2;

/**
 * A transaction scoped to the job's workspace and requester. A snapshot reads the database as it
 * was when the transaction began (repeatable read), for files that must agree with each other.
 */
export async function inTenant<T>(
  app: Knex,
  job: TransferJob,
  opts: { snapshot?: boolean },
  fn: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  const trx = await app.transaction(opts.snapshot ? { isolationLevel: 'repeatable read' } : undefined);
  try {
    await trx.raw(
      "select set_config('app.workspace_id', ?, true), set_config('app.user_id', ?, true), set_config('app.email', '', true)",
      [job.workspaceId, job.userId],
    );
    const result = await fn(trx);
    await trx.commit();
    return result;
  } catch (error) {
    await trx.rollback().catch(() => undefined);
    throw error;
  }
}

/**
 * Runs one transfer job. A finished transfer is left alone (a job delivered twice does nothing);
 * a TransferError fails the transfer at once with its message; any other error is retried, and
 * fails the transfer once the retries are spent. Failing notifies the requester.
 */
export async function runTransferJob(
  ctx: ModuleContext,
  job: Job<TransferJob>,
  kind: TransferKind,
  work: (transfer: TransferRow) => Promise<void>,
): Promise<void> {
  const transfer = await inTenant(ctx.db.app, job.data, {}, (trx) =>
    transferById(trx, job.data.workspaceId, job.data.transferId),
  );
  if (!transfer || transfer.kind !== kind || isFinished(transfer)) return;
  await patchTransfer(ctx.db.app, job.data, { status: 'RUNNING', progress: 0 });
  try {
    await work(transfer);
  } catch (error) {
    if (error instanceof TransferError) {
      await failTransfer(ctx.db.app, job.data, error.message);
      return;
    }
    ctx.logger.error({ err: error, transferId: transfer.id }, `project ${kind.toLowerCase()} failed`);
    if (job.retryCount >= TRANSFER_RETRY_LIMIT) {
      await failTransfer(
        ctx.db.app,
        job.data,
        `The ${kind === 'EXPORT' ? 'export' : 'import'} failed because of an error on our side. Please try again.`,
      );
      return;
    }
    await patchTransfer(ctx.db.app, job.data, { status: 'QUEUED' });
    throw error;
  }
}
