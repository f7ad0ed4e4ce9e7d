import type { Knex } from 'knex';
import { withTenant, type Job, type JobDefinition, type ModuleContext } from '@fieldbook/core';
import type { DatasetRow } from '../datasets/datasets.ts';
import { writeRecords, type WriteTarget } from '../datapoints/write.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { schedulePlacement } from '../themes/place.ts';
import { sourceOf, type ImportSource, type ImportedRecord, type Json, type SourcePage } from '../sources/index.ts';
import { commitSpan, lastLine, notYetIn, progressCursor, readProgress, type LineSpan } from './progress.ts';
import { CHANNEL_IMPORT_QUEUE, type ChannelImportJob, type ChannelImportRow, type ImportFailure } from './records.ts';

/** Retries after the first failure; a run resumes from its last saved cursor each time. */
export const IMPORT_RETRY_LIMIT = 3;

const finished = (run: ChannelImportRow): boolean => run.status === 'COMPLETED' || run.status === 'FAILED';

/** Pages of a line-ordered source written side by side, each on a connection of its own, while the next is read. */
export const PAGES_AT_ONCE = 3;

/**
 * Writes one page and moves the run's cursor past it in the same transaction: after a crash the
 * run resumes after the pages that committed, and no page is counted twice. Pages of a source
 * whose items carry their lines may commit in any order: the cursor then records the lines in.
 */
async function keepPage(
  trx: Knex.Transaction,
  run: ChannelImportRow,
  target: WriteTarget,
  page: SourcePage,
  span: LineSpan | null,
): Promise<void> {
  const records: ImportedRecord[] = [];
  const failures: ImportFailure[] = [];
  let skipped = 0;
  const lines: Array<number | undefined> = [];
  for (const item of page.items) {
    if ('record' in item) {
      records.push(item.record);
      lines.push(item.line);
    } else if ('rejected' in item) failures.push(item.rejected);
    else skipped++;
  }
  const outcomes = await writeRecords(trx, target, records);
  let created = 0;
  let updated = 0;
  outcomes.forEach((o, i) => {
    if (o.status === 'created') created++;
    else if (o.status === 'updated') updated++;
    if (o.status === 'failed') {
      const line = lines[i];
      failures.push({ ...(line === undefined ? {} : { line }), externalId: records[i]!.externalId, reason: o.reason });
    }
  });
  let cursor: Json = page.cursor;
  if (span) {
    // The run's row is locked first: pages committing side by side each see the other's lines.
    const row = (await trx('channel_imports').where({ id: run.id }).forUpdate().first('cursor')) as { cursor: Json };
    cursor = progressCursor(commitSpan(readProgress(row.cursor), span));
  }
  // The first failures are kept, counted in the statement so that pages written side by side keep no more.
  const keptFailures = failures.length
    ? trx.raw(
        "(select coalesce(jsonb_agg(e order by n), '[]'::jsonb) from jsonb_array_elements(failures || ?::jsonb) with ordinality as f(e, n) where n <= ?)",
        [JSON.stringify(failures.slice(0, CHANNEL_LIMITS.keptFailures)), CHANNEL_LIMITS.keptFailures],
      )
    : trx.raw('failures');
  await trx.raw(
    `update channel_imports set
       records_read = records_read + ?, records_created = records_created + ?, records_updated = records_updated + ?,
       records_skipped = records_skipped + ?, records_failed = records_failed + ?,
       failures = ?, cursor = ?::jsonb, updated_at = now()
     where id = ?`,
    [page.items.length, created, updated, skipped, failures.length, keptFailures, JSON.stringify(cursor), run.id],
  );
}

/** Ends a run as `patch` says; answers how many data points it created in all. */
async function finish(
  app: Knex,
  job: ChannelImportJob,
  patch: Record<string, unknown>,
  datasetCursor?: Json,
): Promise<number> {
  return withTenant(app, { workspaceId: job.workspaceId, userId: job.userId }, async (trx) => {
    const [run] = (await trx('channel_imports')
      .where({ id: job.importId })
      .update({ ...patch, file: null, updated_at: trx.fn.now(), completed_at: trx.fn.now() })
      .returning(['dataset_id', 'records_created'])) as Array<{ dataset_id: string; records_created: number }>;
    if (run && datasetCursor !== undefined) {
      // A connection's next refresh lists only what is new since the last page kept.
      const synced = patch.status === 'COMPLETED' ? { last_synced_at: trx.fn.now() } : {};
      await trx('channel_datasets')
        .where({ id: run.dataset_id })
        .update({ cursor: JSON.stringify(datasetCursor), ...synced, updated_at: trx.fn.now() });
    }
    return Number(run?.records_created ?? 0);
  });
}

/** An import that created at least this many points has the data points' statistics gathered again as it ends. */
const ANALYZE_AFTER_POINTS = 50_000;

/**
 * Gathers the planner's statistics of the data points again. Until autovacuum does (a minute or
 * more after a large import), the planner judges the channel's text by the table as it was: a
 * rare word's filter took about 1 s at 1,000,000 new points instead of tens of milliseconds.
 * ANALYZE reads a sample, whatever the table's size, and blocks neither reads nor writes.
 */
async function refreshStatistics(ctx: ModuleContext, created: number): Promise<void> {
  if (created < ANALYZE_AFTER_POINTS) return;
  // Only the tables' owner may analyse them.
  await ctx.db.owner
    .raw('analyze channel_datapoints')
    .catch((err: unknown) => ctx.logger.warn({ err }, "could not refresh the data points' statistics after an import"));
}

/** Finds the source of a dataset: a built-in one, or a plugin's for a source connection. */
export type SourceResolver = (dataset: DatasetRow, actingUserId: string) => ImportSource | null;

const builtInSource: SourceResolver = (dataset) => sourceOf(dataset.source);

/** Runs an import: the source lists records from the run's cursor, page by page. */
export async function runChannelImport(
  ctx: ModuleContext,
  job: Job<ChannelImportJob>,
  resolve: SourceResolver = builtInSource,
): Promise<void> {
  const scope = { workspaceId: job.data.workspaceId, userId: job.data.userId };
  const loaded = await withTenant(ctx.db.app, scope, async (trx) => {
    const run = (await trx('channel_imports').where({ id: job.data.importId }).first()) as ChannelImportRow | undefined;
    if (!run || finished(run)) return null;
    const dataset = (await trx('channel_datasets').where({ id: run.dataset_id }).first()) as DatasetRow;
    await trx('channel_imports').where({ id: run.id }).update({ status: 'RUNNING', updated_at: trx.fn.now() });
    return { run, dataset };
  });
  if (!loaded) return;
  const { run, dataset } = loaded;
  const source = resolve(dataset, job.data.userId);
  if (!source) {
    await finish(ctx.db.app, job.data, {
      status: 'FAILED',
      error: `Imports from ${dataset.source} are not available on this installation.`,
    });
    return;
  }
  const target: WriteTarget = {
    workspaceId: run.workspace_id,
    channelId: run.channel_id,
    datasetId: run.dataset_id,
    source: dataset.source,
    userId: job.data.userId,
    fieldTypes: {},
    maximumDataPoints: ctx.config.channels.maximumChannelsDataPoints,
  };
  // A line-ordered source resumes from the lines all in, and drops the rows of pages that
  // committed ahead of an earlier one; any other resumes from its last page's cursor.
  const ordered = source.linesInOrder === true;
  const progress = ordered ? readProgress(run.cursor ?? dataset.cursor ?? null) : null;
  let cursor: Json = progress ? progress.source : (run.cursor ?? dataset.cursor ?? null);
  let pages: AsyncIterator<SourcePage>;
  try {
    target.fieldTypes = source.fieldTypes(dataset.settings);
    pages = source
      .list({ settings: dataset.settings, cursor, file: run.file, pageSize: CHANNEL_LIMITS.importBatch })
      [Symbol.asyncIterator]();
  } catch (error) {
    await finish(ctx.db.app, job.data, { status: 'FAILED', error: (error as Error).message });
    return;
  }
  const writing = new Set<Promise<void>>();
  let writeError: { error: unknown } | null = null;
  const settle = async () => {
    await Promise.all(writing);
    if (writeError) throw writeError.error;
  };
  let after = progress?.through ?? 0;
  try {
    for (;;) {
      let next: IteratorResult<SourcePage>;
      try {
        next = await pages.next();
      } catch (error) {
        await settle();
        // What a source throws is about its data or settings (a NUL character, a missing column, a
        // refused credential). A connection keeps the pages it committed: the next sync goes on from there.
        await finish(
          ctx.db.app,
          job.data,
          { status: 'FAILED', error: (error as Error).message },
          dataset.plugin_id && cursor !== null ? cursor : undefined,
        );
        return;
      }
      if (next.done) break;
      const listed = next.value;
      let page = listed;
      let span: LineSpan | null = null;
      if (progress) {
        const to = lastLine(listed.items, after);
        span = { after, to, end: listed.cursor };
        after = to;
        page = { items: notYetIn(listed.items, progress.ahead), cursor: listed.cursor };
      }
      const write: Promise<void> = withTenant(ctx.db.app, scope, (trx) => keepPage(trx, run, target, page, span))
        .catch((error: unknown) => {
          writeError ??= { error };
        })
        .finally(() => writing.delete(write));
      writing.add(write);
      cursor = listed.cursor;
      // One page at a time for other sources: each page's cursor is where the next listing starts.
      while (writing.size >= (ordered ? PAGES_AT_ONCE : 1)) await Promise.race(writing);
      if (writeError) break;
    }
    await settle();
  } catch (error) {
    ctx.logger.error({ err: error, importId: run.id }, 'channel import failed');
    if (job.retryCount >= IMPORT_RETRY_LIMIT) {
      await finish(ctx.db.app, job.data, {
        status: 'FAILED',
        error: 'The import failed because of an error on our side. Please try again.',
      });
      return;
    }
    throw error;
  }
  const created = await finish(ctx.db.app, job.data, { status: 'COMPLETED', error: null }, cursor);
  await refreshStatistics(ctx, created);
  await schedulePlacement(ctx.jobs, {
    workspaceId: run.workspace_id,
    userId: job.data.userId,
    channelId: run.channel_id,
  });
}

export function channelImportJob(
  ctx: ModuleContext,
  resolve: SourceResolver = builtInSource,
): JobDefinition<ChannelImportJob> {
  return {
    queue: CHANNEL_IMPORT_QUEUE,
    settings: { retryLimit: IMPORT_RETRY_LIMIT, retryDelaySeconds: 2, expireInSeconds: 60 * 60 },
    handler: (job) => runChannelImport(ctx, job, resolve),
  };
}
