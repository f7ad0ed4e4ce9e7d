import type Router from '@koa/router';
import type Koa from 'koa';
import { z } from 'zod';
import {
  AppError,
  badInput,
  findUnstorableText,
  MAX_INPUT_DEPTH,
  readBodyText,
  type ModuleContext,
  type RequestContext,
} from '@fieldbook/core';
import { CHANNEL_PERMISSIONS, callerOf } from '../caller.ts';
import { channelFor } from '../channels/channels.ts';
import { apiDatasetFor, createDataset } from '../datasets/datasets.ts';
import { writeRecords } from '../datapoints/write.ts';
import { schedulePlacement } from '../themes/place.ts';
import { FIELD_TYPES } from '../fields/types.ts';
import { CHANNEL_LIMITS } from '../limits.ts';
import { columnsProblem } from '../sources/csv/columns.ts';
import { cleanCsv, headersOf, InvalidCsvCharacter, readSettings } from '../sources/csv/source.ts';
import type { ImportedRecord, Json } from '../sources/contract.ts';
import { runInThread } from '../threads/threads.ts';
import type { CsvPreview } from './preview.ts';
import { CHANNEL_IMPORT_QUEUE, type ChannelImportJob } from './records.ts';

/** Every point that fails does so for its own input (a bad value, a limit): said as GraphQL says it. */
const BAD_INPUT = 'BAD_USER_INPUT';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function channelIdOf(koa: Koa.Context): string {
  const id = koa.params.channelId ?? '';
  if (!UUID.test(id)) throw badInput('channelId', 'channelId must be a valid id.');
  return id;
}

/**
 * The first `limit` bytes of the request body, and whether that was all of it. The rest is not
 * kept: `drained` settles once it has been read and dropped, so that the client, still sending,
 * gets its answer on a connection in good order, and a large file's preview costs its head only.
 */
function bodyHead(
  koa: Koa.Context,
  limit: number,
): Promise<{ bytes: Buffer; complete: boolean; drained: Promise<void> }> {
  const req = koa.req;
  let read = 0;
  const drained = new Promise<void>((resolve, reject) => {
    // A body sent without its length is still held to the upload's limit.
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read <= CHANNEL_LIMITS.csvBytes) return;
      req.off('data', count);
      reject(badInput('body', `A CSV file can be at most ${CHANNEL_LIMITS.csvBytes / (1024 * 1024)} MB.`));
    };
    req.on('data', count).once('end', resolve).once('error', reject);
  });
  // Awaited later or not at all (an error first answers the request); never an unhandled rejection.
  drained.catch(() => {});
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (complete: boolean) => {
      req.off('data', onData).off('end', onEnd).off('error', reject);
      if (!complete) req.resume();
      resolve({ bytes: Buffer.concat(chunks).subarray(0, limit), complete, drained });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) done(false);
    };
    const onEnd = () => done(true);
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

const PREVIEW_THREAD = new URL('./preview-thread.ts', import.meta.url);

const pushSchema = z.object({
  dataPoints: z
    .array(z.unknown(), { error: 'dataPoints must be a list of data points.' })
    .min(1, 'dataPoints must hold at least one data point.')
    .max(
      CHANNEL_LIMITS.pushBatch,
      `One request can push at most ${CHANNEL_LIMITS.pushBatch} data points (dataPoints).`,
    ),
});

const pushedPoint = z.object({
  externalId: z.string(),
  content: z.string(),
  createdAt: z.string().nullish(),
  externalUrl: z.string().nullish(),
  importUrl: z.string().nullish(),
  sentiment: z.enum(['positive', 'negative', 'mixed']).nullish(),
  person: z.object({ email: z.string(), name: z.string().nullish() }).nullish(),
  raw: z.unknown().nullish(),
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
  fieldTypes: z.record(z.string(), z.enum(FIELD_TYPES)).nullish(),
});

/** A raw ticket or conversation as 001 §3.4 shapes it; anything else is refused. */
const rawSchema = z.union([
  z.object({
    kind: z.literal('ticket'),
    createdAt: z.string(),
    name: z.string().nullable().default(null),
    description: z.string().nullable().default(null),
    tags: z.array(z.string()).default([]),
    creator: z.string().nullable().default(null),
    remoteFields: z.record(z.string(), z.unknown()).default({}),
  }),
  z.object({
    kind: z.literal('conversation'),
    messages: z
      .array(
        z.object({
          text: z.string(),
          timestamp: z.string(),
          participant: z.string().nullable().default(null),
          externalId: z.string().nullable().default(null),
        }),
      )
      .max(1000),
  }),
]);

/**
 * POST /api/channels/:channelId/csv/preview: the columns and first rows of a CSV file (nothing is
 * written). POST /api/channels/:channelId/imports?settings=...: imports a CSV file as a new
 * dataset in a job. POST /api/channels/:channelId/datapoints: pushes data points (API source).
 */
export function mountChannelRoutes(router: Router, ctx: ModuleContext): void {
  const context = (koa: Koa.Context): Promise<RequestContext> => ctx.requestContext(koa);

  router.post('/api/channels/:channelId/csv/preview', async (koa) => {
    const rc = await context(koa);
    const caller = callerOf(rc, CHANNEL_PERMISSIONS.import);
    const channelId = channelIdOf(koa);
    await rc.tx((trx) => channelFor(trx, caller, channelId));
    if (Number(koa.get('content-length') || 0) > CHANNEL_LIMITS.csvBytes)
      throw badInput('body', `A CSV file can be at most ${CHANNEL_LIMITS.csvBytes / (1024 * 1024)} MB.`);
    const head = await bodyHead(koa, CHANNEL_LIMITS.previewBytes);
    if (head.complete && !head.bytes.toString('utf8').trim())
      throw badInput('body', 'Send the CSV file as the request body.');
    // Decoded and read in a worker thread: the server's thread goes on answering requests.
    const [preview] = await Promise.all([
      runInThread<{ bytes: Uint8Array; complete: boolean }, CsvPreview | { problem: string }>(PREVIEW_THREAD, {
        bytes: head.bytes,
        complete: head.complete,
      }),
      head.drained,
    ]);
    if ('problem' in preview) throw badInput('body', preview.problem);
    koa.body = preview;
  });

  router.post('/api/channels/:channelId/imports', async (koa) => {
    const rc = await context(koa);
    const caller = callerOf(rc, CHANNEL_PERMISSIONS.import);
    const channelId = channelIdOf(koa);
    let settings: { [key: string]: Json };
    try {
      settings = JSON.parse(String(koa.query.settings ?? '{}')) as { [key: string]: Json };
    } catch {
      throw badInput('settings', 'settings must be JSON.');
    }
    const name = String(koa.query.name ?? '').trim() || 'CSV import';
    if ([...name].length > 300) throw badInput('name', 'A dataset name can be at most 300 characters long.');
    let parsed;
    try {
      parsed = readSettings(settings);
    } catch (error) {
      throw badInput('settings', (error as Error).message);
    }
    await rc.tx((trx) => channelFor(trx, caller, channelId));
    const text = await readBodyText(koa, CHANNEL_LIMITS.csvBytes, 'A CSV file');
    if (!text.trim()) throw badInput('body', 'Send the CSV file as the request body.');
    let clean: string;
    try {
      // PostgreSQL text cannot hold NUL: a file whose NULs are to be ignored is kept without them.
      clean = cleanCsv(text, parsed.ignoreNul);
    } catch (error) {
      if (error instanceof InvalidCsvCharacter) throw new AppError('BAD_USER_INPUT', error.message, { field: 'body' });
      throw error;
    }
    const headers = headersOf(clean);
    const problem = columnsProblem(headers);
    if (problem) throw badInput('body', problem);
    for (const [key, label] of [
      ['analyzeColumnLabel', parsed.analyzeColumnLabel],
      ['timestampColumnLabel', parsed.timestampColumnLabel],
      ['emailFieldPath', parsed.emailFieldPath],
      ['externalIdColumnLabel', parsed.externalIdColumnLabel],
    ] as const) {
      if (label && !headers.includes(label))
        throw badInput(`settings.${key}`, `The file has no column "${label}" (${key}).`);
    }
    // Kept with the dataset so a resumed run dates undated rows as the first attempt did.
    const stored = { ...settings, importedAt: new Date().toISOString() };
    const result = await rc.tx(async (trx) => {
      await channelFor(trx, caller, channelId);
      const dataset = await createDataset(trx, ctx.events, {
        workspaceId: caller.workspaceId,
        channelId,
        userId: caller.userId,
        source: 'CSV',
        name,
        settings: stored,
      });
      const [run] = (await trx('channel_imports')
        .insert({
          workspace_id: caller.workspaceId,
          channel_id: channelId,
          dataset_id: dataset.id,
          file: clean,
          created_by: caller.userId,
        })
        .returning('id')) as Array<{ id: string }>;
      const job: ChannelImportJob = { importId: run!.id, workspaceId: caller.workspaceId, userId: caller.userId };
      await ctx.jobs.send(CHANNEL_IMPORT_QUEUE, job, { trx });
      return { importId: run!.id, datasetId: dataset.id };
    });
    koa.status = 202;
    koa.body = { ...result, status: 'QUEUED' };
  });

  router.post('/api/channels/:channelId/datapoints', async (koa) => {
    const rc = await context(koa);
    const caller = callerOf(rc, CHANNEL_PERMISSIONS.import);
    const channelId = channelIdOf(koa);
    let body: unknown;
    try {
      body = JSON.parse(await readBodyText(koa, CHANNEL_LIMITS.pushBytes));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badInput('body', 'The body must be JSON: { "dataPoints": [ ... ] }.');
    }
    const parsedBody = pushSchema.safeParse(body);
    if (!parsedBody.success) throw badInput('dataPoints', parsedBody.error.issues[0]!.message);
    const records: Array<ImportedRecord | null> = [];
    const problems: Array<string | null> = [];
    const fieldTypes: Record<string, string> = {};
    const now = new Date().toISOString();
    for (const [i, item] of parsedBody.data.dataPoints.entries()) {
      // Text PostgreSQL would refuse fails its point alone, as GraphQL refuses it, not the batch.
      const unstorable = findUnstorableText(item, `dataPoints[${i}]`, MAX_INPUT_DEPTH);
      if (unstorable) {
        records.push(null);
        problems.push(`${unstorable.path} ${unstorable.problem}.`);
        continue;
      }
      const point = pushedPoint.safeParse(item);
      const raw = point.success && point.data.raw != null ? rawSchema.safeParse(point.data.raw) : null;
      if (!point.success || (raw && !raw.success)) {
        const issue = (point.success ? raw!.error! : point.error).issues[0]!;
        records.push(null);
        problems.push(
          `dataPoints[${i}].${[...(point.success ? ['raw'] : []), ...issue.path].join('.')}: ${issue.message}`,
        );
        continue;
      }
      const p = point.data;
      Object.assign(fieldTypes, p.fieldTypes ?? {});
      records.push({
        externalId: p.externalId,
        content: p.content,
        createdAt: p.createdAt ?? now,
        externalUrl: p.externalUrl ?? null,
        importUrl: p.importUrl ?? null,
        sentiment: p.sentiment ?? null,
        person: p.person ?? null,
        raw: raw?.success ? (raw.data as ImportedRecord['raw']) : null,
        fields: p.fields ?? {},
      });
      problems.push(null);
    }
    const answer = await rc.tx(async (trx) => {
      await channelFor(trx, caller, channelId);
      const dataset = await apiDatasetFor(trx, ctx.events, {
        workspaceId: caller.workspaceId,
        channelId,
        userId: caller.userId,
      });
      const valid = records.filter((r): r is ImportedRecord => r !== null);
      const outcomes = await writeRecords(
        trx,
        {
          workspaceId: caller.workspaceId,
          channelId,
          datasetId: dataset.id,
          source: 'API',
          userId: caller.userId,
          fieldTypes,
          maximumDataPoints: ctx.config.channels.maximumChannelsDataPoints,
        },
        valid,
      );
      let k = 0;
      return records.map((r, i) => {
        if (!r) return { index: i, externalId: null, status: 'failed', errorCode: BAD_INPUT, reason: problems[i] };
        const o = outcomes[k++]!;
        return o.status === 'failed'
          ? {
              index: i,
              externalId: r.externalId,
              status: 'failed',
              errorCode: BAD_INPUT,
              reason: `dataPoints[${i}]: ${o.reason}`,
            }
          : { index: i, externalId: r.externalId, status: o.status, id: o.id };
      });
    });
    // New points join the channel's themes shortly after (when it has been clustered).
    if (answer.some((a) => a.status === 'created'))
      await schedulePlacement(ctx.jobs, { workspaceId: caller.workspaceId, userId: caller.userId, channelId });
    koa.body = {
      created: answer.filter((a) => a.status === 'created').length,
      updated: answer.filter((a) => a.status === 'updated').length,
      failed: answer.filter((a) => a.status === 'failed').length,
      dataPoints: answer,
    };
  });
}
