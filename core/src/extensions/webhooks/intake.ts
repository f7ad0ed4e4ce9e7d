import type Router from '@koa/router';
import type Koa from 'koa';
import type { InboundWebhook, InstallationContext, WebhookAnswer, WebhookEvent, WebhookRequest, WebhookVerdict } from '@fieldbook/extensions-sdk/server';
import type { Logger } from '../../logger.ts';
import type { JobDefinition } from '../../jobs/queue.ts';
import type { LoadedPlugin } from '../catalog/catalog.ts';
import { installations } from '../installations/store.ts';
import type { PluginHost } from '../runtime/host.ts';
import { installationHookPath } from './keys.ts';
import { WEBHOOK_QUEUE, type DeliveryStore, type WebhookJob } from './store.ts';

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

/** The plugin's verdict; a verifier that throws or answers nonsense refuses the request. */
async function verdictOf(verify: () => WebhookVerdict | Promise<WebhookVerdict>): Promise<WebhookVerdict> {
  try {
    const verdict = await verify();
    if (verdict && typeof verdict === 'object' && verdict.ok === true) return verdict;
    return { ok: false, reason: verdict && typeof verdict === 'object' && !verdict.ok ? verdict.reason : 'the verifier gave no verdict' };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : 'verifier threw' };
  }
}

/**
 * Verifies a delivery and gives the plugin its chance to answer at once (challenges). True when
 * the delivery is to be stored; otherwise the answer is set: 401 for an unverified request, whose
 * only trace is one log line naming `where` (never its body or headers), or the plugin's answer.
 */
export async function verifyDelivery<C>(
  ctx: Koa.Context,
  logger: Logger,
  where: Record<string, string>,
  hook: { verify(request: WebhookRequest, c: C): WebhookVerdict | Promise<WebhookVerdict>; respond?(request: WebhookRequest, c: C): WebhookAnswer | null | undefined | Promise<WebhookAnswer | null | undefined> },
  request: WebhookRequest,
  context: C,
): Promise<boolean> {
  const verdict = await verdictOf(() => hook.verify(request, context));
  if (!verdict.ok) {
    logger.warn({ ...where, reason: verdict.reason }, 'webhook refused: signature not verified');
    ctx.status = 401;
    ctx.body = { error: 'The request signature could not be verified.' };
    return false;
  }
  const answer = await hook.respond?.(request, context);
  if (!answer) return true;
  ctx.status = answer.status ?? 200;
  ctx.body = answer.body ?? '';
  return false;
}

async function receive(ctx: Koa.Context, host: PluginHost, deliveries: DeliveryStore, plugin: LoadedPlugin, hook: InboundWebhook<InstallationContext<string>>): Promise<void> {
  const { logger, app } = host.deps;
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
  const target = externalId
    ? ((await app.raw<{ rows: Array<{ id: string; workspace_id: string; by_account: boolean }> }>('select id, workspace_id, by_account from plugin_installation_for(?, ?)', [plugin.id, externalId])).rows[0] ?? null)
    : null;
  // Stored and queued together: either both happen or neither, and a repeat of the same event id
  // stops at the unique key.
  const queued = await deliveries.store(
    { plugin_id: plugin.id, scope: '', event_id: eventId.slice(0, 500), path: hook.path, headers: storedHeaders(request.headers), body: rawBody.toString('utf8'), installation_id: target?.id ?? null },
    target ? { workspaceId: target.workspace_id, installationId: target.id, byAccount: target.by_account } : null,
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

/** Hands stored events to their plugins; at least once, so a handled event is skipped. */
export function webhookJobs(host: PluginHost): JobDefinition[] {
  const handle: JobDefinition<WebhookJob> = {
    queue: WEBHOOK_QUEUE,
    // A person who saved a message waits for its note: workers are woken as each delivery commits.
    settings: { retryLimit: 5, retryDelaySeconds: 5, deadLetter: true, notify: true },
    // Two at a time: handling is mostly this process's own work, so more workers only slow the
    // intake beside them (measured: 8 drained no faster and took intake from 389 to 237/s).
    // Batches let a backlog drain without a polling pause between jobs.
    concurrency: 2,
    batchSize: 10,
    async handler(job) {
      // Raw deliveries are read with the owner connection: the application role may add them, never read them.
      const { owner, logger } = host.deps;
      const event = await owner('plugin_webhook_events').where({ id: job.data.eventRowId }).first<{ plugin_id: string; event_id: string; path: string; headers: Record<string, string>; body: string; installation_id: string | null; handled_at: Date | null } | undefined>();
      if (!event || event.handled_at) return;
      // Anyone who can queue a job can name any delivery: it is handled only for the installation
      // it was routed to, which row-level security below ties to the job's workspace.
      if (event.installation_id !== job.data.installationId) {
        logger.warn({ job: job.id, event: job.data.eventRowId, workspaceId: job.data.workspaceId }, 'webhook job refused: the delivery belongs to another installation');
        return;
      }
      const plugin = host.catalog.ready(event.plugin_id);
      // An installation's own URL is recorded under /hooks/{pluginId}; fixed paths as they are.
      const hook: { handle(ctx: InstallationContext<string>, event: WebhookEvent): Promise<void> } | undefined =
        plugin && event.path === installationHookPath(plugin.id) ? plugin.definition.server.installationWebhook : plugin?.definition.server.webhooks?.find((h) => h.path === event.path);
      const row = await host.inWorkspace(job.data.workspaceId, (trx) => installations(trx).where({ id: job.data.installationId }).first());
      // Uninstalled, or the account disconnected since the event arrived: nothing more is imported for it.
      const connected = row && (!job.data.byAccount || row.external_id !== null);
      if (plugin && hook && row && connected) {
        await hook.handle(host.installationContext(plugin, row), { eventId: event.event_id, headers: event.headers, body: event.body });
      }
      await owner('plugin_webhook_events').where({ id: job.data.eventRowId }).update({ handled_at: owner.fn.now() });
    },
  };
  const prune: JobDefinition = {
    queue: WEBHOOK_PRUNE_QUEUE,
    schedule: { cron: '17 4 * * *' },
    async handler() {
      const { owner } = host.deps;
      await owner('plugin_webhook_events').where('received_at', '<', owner.raw(`now() - interval '${KEEP_DAYS} days'`)).delete();
    },
  };
  return [handle as JobDefinition, prune];
}
