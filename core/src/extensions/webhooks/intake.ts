import type Router from '@koa/router';
import type Koa from 'koa';
import type {
  InboundWebhook,
  InstallationContext,
  WebhookAnswer,
  WebhookRequest,
  WebhookVerdict,
} from '@fieldbook/extensions-sdk/server';
import { outcomesOf } from '../../jobs/events.ts';
import type { Job, JobDefinition } from '../../jobs/queue.ts';
import type { Logger } from '../../logger.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { installations, type InstallationRow } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import { SandboxLimitError } from '../sandbox/index.ts';
import { installationHookPath } from './keys.ts';
import { deliveriesOf, WEBHOOK_QUEUE, type DeliveryStore, type WebhookJob } from './store.ts';

/** Providers' webhook bodies are small; this bounds what an unauthenticated caller can make us read. */
const MAX_WEBHOOK_BYTES = 2 * 1024 * 1024;
export { WEBHOOK_QUEUE, type WebhookJob } from './store.ts';
export const WEBHOOK_PRUNE_QUEUE = 'extensions.webhook-prune';
/** How long handled deliveries are kept, so a late retry by the provider is still recognised. */
const KEEP_DAYS = 7;

export function readRaw(ctx: Koa.Context): Promise<Buffer | null> {
  if (Number(ctx.get('content-length') || 0) > MAX_WEBHOOK_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_WEBHOOK_BYTES) chunks.push(chunk);
    });
    ctx.req.once('end', () => resolve(size > MAX_WEBHOOK_BYTES ? null : Buffer.concat(chunks)));
    ctx.req.once('error', reject);
  });
}

export function headersOf(ctx: Koa.Context): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(ctx.headers)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The headers kept with a stored event: what handlers may need, never credentials. */
export function storedHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined && k !== 'authorization' && k !== 'cookie') keep[k] = v;
  }
  return keep;
}

/**
 * How long a provider is asked to wait (Retry-After) before sending again a delivery whose plugin
 * was stopped at a limit while checking it: long enough for a plugin restarted to settle.
 */
export const LIMIT_RETRY_AFTER_SECONDS = 30;

/**
 * The plugin's verdict; a verifier that throws or answers nonsense refuses the request. A verifier
 * stopped at a sandbox limit gave no verdict at all: that error is thrown on.
 */
async function verdictOf(verify: () => WebhookVerdict | Promise<WebhookVerdict>): Promise<WebhookVerdict> {
  try {
    const verdict = await verify();
    if (verdict && typeof verdict === 'object' && verdict.ok === true) return verdict;
    return {
      ok: false,
      reason: verdict && typeof verdict === 'object' && !verdict.ok ? verdict.reason : 'the verifier gave no verdict',
    };
  } catch (err) {
    if (err instanceof SandboxLimitError) throw err;
    return { ok: false, reason: err instanceof Error ? err.message : 'verifier threw' };
  }
}

/**
 * Verifies a delivery and gives the plugin its chance to answer at once (challenges). True when
 * the delivery is to be stored; otherwise the answer is set: 401 for an unverified request, whose
 * only trace is one log line naming `where` (never its body or headers), or the plugin's answer.
 * A plugin stopped at a sandbox limit while at it answers 503 with Retry-After: providers send a
 * delivery again after a 5xx, and drop it after a 401.
 */
export async function verifyDelivery<C>(
  ctx: Koa.Context,
  logger: Logger,
  where: Record<string, string>,
  hook: {
    verify(request: WebhookRequest, c: C): WebhookVerdict | Promise<WebhookVerdict>;
    respond?(
      request: WebhookRequest,
      c: C,
    ): WebhookAnswer | null | undefined | Promise<WebhookAnswer | null | undefined>;
  },
  request: WebhookRequest,
  context: C,
): Promise<boolean> {
  let answer: WebhookAnswer | null | undefined;
  try {
    const verdict = await verdictOf(() => hook.verify(request, context));
    if (!verdict.ok) {
      logger.warn({ ...where, reason: verdict.reason }, 'webhook refused: signature not verified');
      ctx.status = 401;
      ctx.body = { error: 'The request signature could not be verified.' };
      return false;
    }
    answer = await hook.respond?.(request, context);
  } catch (err) {
    if (!(err instanceof SandboxLimitError)) throw err;
    logger.warn(
      { ...where, limit: err.limit, err: err.message },
      'webhook deferred: its plugin was stopped at a limit',
    );
    ctx.status = 503;
    ctx.set('Retry-After', String(LIMIT_RETRY_AFTER_SECONDS));
    ctx.body = {
      error: `The plugin ${err.pluginId} could not check this delivery within its limits; try again later.`,
    };
    return false;
  }
  if (!answer) return true;
  ctx.status = answer.status ?? 200;
  ctx.body = answer.body ?? '';
  return false;
}

async function receive(
  ctx: Koa.Context,
  host: PluginHost,
  deliveries: DeliveryStore,
  plugin: LoadedPlugin,
  hook: InboundWebhook<InstallationContext<string>>,
): Promise<void> {
  const { logger } = host.deps;
  if (host.catalog.ready(plugin.id) === undefined) {
    ctx.status = 404;
    return;
  }
  const rawBody = await readRaw(ctx);
  if (!rawBody) {
    ctx.status = 413;
    return;
  }
  const request: WebhookRequest = { headers: headersOf(ctx), rawBody };
  const pctx = host.pluginContext(plugin);
  if (!(await verifyDelivery(ctx, logger, { plugin: plugin.id, path: hook.path }, hook, request, pctx))) return;
  const eventId = hook.eventId(request);
  const externalId = hook.externalId(request);
  // Stored and queued together: either both happen or neither, and a repeat of the same event id
  // stops at the unique key. The installation the account is connected to is found in the same
  // commit, for all the deliveries that share it.
  const queued = await deliveries.store(
    {
      plugin_id: plugin.id,
      scope: '',
      event_id: eventId.slice(0, 500),
      path: hook.path,
      headers: storedHeaders(request.headers),
      body: rawBody.toString('utf8'),
      installation_id: null,
    },
    externalId ? { externalId } : null,
  );
  logger.debug({ plugin: plugin.id, eventId, queued }, 'webhook received');
  ctx.status = 200;
  ctx.body = '';
}

/** Mounts every plugin's webhook paths; a plugin that is not ready answers 404 there. */
export function webhookRoutes(router: Router, host: PluginHost, deliveries: DeliveryStore): void {
  for (const plugin of host.catalog.plugins) {
    for (const hook of plugin.definition.server.webhooks ?? []) {
      router.post(hook.path, (ctx) => receive(ctx, host, deliveries, plugin, hook));
    }
  }
}

/**
 * Deliveries handled at once within one batch: their round trips overlap instead of adding up.
 * Measured: 4 per worker drained a backlog 2.3 times as fast as one at a time; 16 drained faster
 * still, but two workers' handlers then hold most of the application pool's 10 connections, and
 * the intake beside them measured as low as 19 deliveries/s (96/s before, minutes earlier).
 */
const PARALLEL_DELIVERIES = 4;

interface StoredDelivery {
  id: number;
  plugin_id: string;
  event_id: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  installation_id: string | null;
  handled_at: Date | null;
}

/**
 * One installation's deliveries whose plugin works out their notes: one call for the lot, their
 * notes made in one transaction, then the plugin told what was made. Answers the deliveries done
 * (marked handled in that transaction); any other is left to `handle`. Never throws: a batch that
 * fails is logged, and its deliveries are each handled alone.
 */
async function notesInBatch(
  host: PluginHost,
  chunk: readonly Work[],
  contextFor: (
    plugin: LoadedPlugin,
    data: WebhookJob,
  ) => Promise<{ ctx: InstallationContext<string>; row: InstallationRow } | null>,
): Promise<number[]> {
  const { logger } = host.deps;
  const { plugin, hook, job } = chunk[0]!;
  const where = { plugin: plugin.id, installation: job.data.installationId, deliveries: chunk.length };
  try {
    const found = await contextFor(plugin, job.data);
    if (!found) return [];
    const answers = await hook.notesFor!(
      found.ctx,
      chunk.map((w) => ({ eventId: w.event.event_id, headers: w.event.headers, body: w.event.body })),
    );
    if (!Array.isArray(answers) || answers.length !== chunk.length)
      throw new Error('notesFor answered a list of another length than its events');
    const items = chunk.flatMap((w, i) => {
      const answer = answers[i];
      return answer && Array.isArray(answer.notes)
        ? [{ deliveryId: w.event.id, notes: answer.notes, state: answer.state, eventId: w.event.event_id }]
        : [];
    });
    if (!items.length) return [];
    const { made } = await host.webhookNotes(plugin, found.row, items, found.ctx);
    const told = items
      .filter((item) => made.has(item.deliveryId))
      .map((item) => ({
        eventId: item.eventId,
        notes: made.get(item.deliveryId)!,
        ...(item.state === undefined ? {} : { state: item.state }),
      }));
    if (told.length && hook.notesMade) {
      // The notes are committed and the deliveries handled: what the plugin says next is not retried.
      await hook
        .notesMade(found.ctx, told)
        .catch((err: unknown) =>
          logger.warn({ ...where, err }, 'webhook notes made, but the plugin failed to follow up'),
        );
    }
    return [...made.keys()];
  } catch (err) {
    logger.warn({ ...where, err }, 'webhook notes batch failed; its deliveries are handled one by one');
    return [];
  }
}

/** A webhook's work as the job runner sees it, at a fixed path or an installation's own URL. */
type Hook = Pick<InboundWebhook<InstallationContext<string>>, 'handle' | 'notesFor' | 'notesMade'>;

/** A delivery to hand over: its job, its stored row and its plugin's hook. */
interface Work {
  job: Job<WebhookJob>;
  /** The job's place in the batch, whose outcome this delivery's failure becomes. */
  index: number;
  event: StoredDelivery;
  plugin: LoadedPlugin;
  hook: Hook;
}

/** Deliveries whose notes are made in one transaction at most: bounds a transaction's locks and a batch that falls back. */
const NOTES_BATCH = 200;

/**
 * Hands stored events to their plugins, a batch at a time: the batch's deliveries are read in one
 * query and each installation's context is made once for them (its member and enabled projects
 * read once). A plugin that works out its events' notes (`notesFor`) gets each installation's
 * deliveries in one isolate call, and their notes are made in one transaction that also marks
 * them handled; the rest are handed to `handle` one by one, up to PARALLEL_DELIVERIES at once,
 * and those handled marked so in one statement. At least once: a delivery marked handled is
 * skipped, and one whose worker died before marking it is handled again by the job's retry,
 * where the plugin's idempotency key (a note per Slack message) keeps it from making a second note.
 */
export function webhookJobs(host: PluginHost): JobDefinition[] {
  const handleBatch = async (jobs: ReadonlyArray<Job<WebhookJob>>): Promise<unknown[]> => {
    // Raw deliveries are read with the owner connection: the application role may add them, never read them.
    const { owner, logger } = host.deps;
    // Each job names the deliveries of one commit for one installation; each is handled on its own.
    const items = jobs.flatMap((job, index) =>
      deliveriesOf(job.data).map((eventRowId) => ({ job, index, eventRowId })),
    );
    const ids = [...new Set(items.map((item) => item.eventRowId))];
    const rows = ids.length
      ? await owner('plugin_webhook_events')
          .whereIn('id', ids)
          .select<StoredDelivery[]>(
            'id',
            'plugin_id',
            'event_id',
            'path',
            'headers',
            'body',
            'installation_id',
            'handled_at',
          )
      : [];
    const events = new Map(rows.map((r) => [Number(r.id), r]));
    // One context per installation and batch, made on first use.
    const contexts = new Map<string, Promise<{ ctx: InstallationContext<string>; row: InstallationRow } | null>>();
    const contextFor = (plugin: LoadedPlugin, data: WebhookJob) => {
      const key = `${data.workspaceId}\u0000${data.installationId}`;
      let found = contexts.get(key);
      if (!found) {
        found = host
          .inWorkspace(data.workspaceId, (trx) => installations(trx).where({ id: data.installationId }).first())
          .then((row) => {
            // Uninstalled, or the account disconnected since the event arrived: nothing more is imported for it.
            const connected = row && (!data.byAccount || row.external_id !== null);
            return row && connected
              ? { ctx: host.installationContext(plugin, row, row.installed_by, { sharedReads: true }), row }
              : null;
          });
        contexts.set(key, found);
      }
      return found;
    };
    const outcomes: unknown[] = new Array(jobs.length).fill(null);
    const fail = (work: Work, err: unknown) => {
      if (outcomes[work.index] === null) outcomes[work.index] = err ?? new Error('failed');
    };

    const handled = new Set<number>();
    const work: Work[] = [];
    for (const { job, index, eventRowId } of items) {
      const event = events.get(eventRowId);
      if (!event || event.handled_at || handled.has(event.id)) continue;
      // Anyone who can queue a job can name any delivery: it is handled only for the installation
      // it was routed to, which row-level security below ties to the job's workspace.
      if (event.installation_id !== job.data.installationId) {
        logger.warn(
          { job: job.id, event: eventRowId, workspaceId: job.data.workspaceId },
          'webhook job refused: the delivery belongs to another installation',
        );
        continue;
      }
      handled.add(event.id); // a repeat of the delivery in the same batch waits for no second turn
      const plugin = host.catalog.ready(event.plugin_id);
      // An installation's own URL is recorded under /hooks/{pluginId}; fixed paths as they are.
      const hook: Hook | undefined =
        plugin && event.path === installationHookPath(plugin.id)
          ? plugin.definition.server.installationWebhook
          : plugin?.definition.server.webhooks?.find((h) => h.path === event.path);
      if (plugin && hook) work.push({ job, index, event, plugin, hook });
    }

    // Notes in batches: what is left (answered null, deferred, or a batch that failed) goes one by one below.
    const groups = new Map<string, Work[]>();
    for (const w of work) {
      if (!w.hook.notesFor) continue;
      const key = `${w.plugin.id}\u0000${w.event.path}\u0000${w.job.data.workspaceId}\u0000${w.job.data.installationId}\u0000${w.job.data.byAccount}`;
      const group = groups.get(key) ?? [];
      group.push(w);
      groups.set(key, group);
    }
    const chunks = [...groups.values()].flatMap((group) =>
      Array.from({ length: Math.ceil(group.length / NOTES_BATCH) }, (_, i) =>
        group.slice(i * NOTES_BATCH, (i + 1) * NOTES_BATCH),
      ),
    );
    const inBatch = new Set<number>();
    await outcomesOf(
      chunks,
      async (chunk) => {
        for (const id of await notesInBatch(host, chunk, contextFor)) inBatch.add(id);
      },
      2,
    );

    const failures = await outcomesOf(
      work.filter((w) => !inBatch.has(w.event.id)),
      async (w) => {
        const found = await contextFor(w.plugin, w.job.data);
        try {
          if (found)
            await w.hook.handle(found.ctx, { eventId: w.event.event_id, headers: w.event.headers, body: w.event.body });
        } catch (err) {
          handled.delete(w.event.id);
          throw err;
        }
      },
      PARALLEL_DELIVERIES,
    );
    const alone = [...handled].filter((id) => !inBatch.has(id));
    if (alone.length) await owner('plugin_webhook_events').whereIn('id', alone).update({ handled_at: owner.fn.now() });
    // A job fails when one of its deliveries did; its retry skips those already marked handled,
    // so only the failed ones are tried again.
    const rest = work.filter((w) => !inBatch.has(w.event.id));
    failures.forEach((err, i) => {
      if (err !== null) fail(rest[i]!, err);
    });
    return outcomes;
  };
  const handle: JobDefinition<WebhookJob> = {
    queue: WEBHOOK_QUEUE,
    // A person who saved a message waits for its note: workers are woken as each delivery commits.
    settings: { retryLimit: 5, retryDelaySeconds: 5, deadLetter: true, notify: true },
    // Four workers, each with a batch of up to 10 jobs whose notes are made two chunks at a time:
    // handling waits mostly on the database, the isolate and the provider's API (a drain left the
    // server's thread a third idle with two), so overlapping it is what drains a backlog. During a
    // burst of requests the workers wait for it to end (jobs/foreground.ts), so they no longer take
    // the intake's CPU; measured on an idle machine, a held backlog drained at 491–589 notes/s with
    // two workers and 515–625 with four, the intake beside them unchanged within the noise.
    concurrency: 4,
    batchSize: 10,
    handleBatch,
    async handler(job) {
      const [err] = await handleBatch([job]);
      if (err) throw err;
    },
  };
  const prune: JobDefinition = {
    queue: WEBHOOK_PRUNE_QUEUE,
    schedule: { cron: '17 4 * * *' },
    async handler() {
      const { owner } = host.deps;
      await owner('plugin_webhook_events')
        .where('received_at', '<', owner.raw(`now() - interval '${KEEP_DAYS} days'`))
        .delete();
    },
  };
  return [handle as JobDefinition, prune];
}
