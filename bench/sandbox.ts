/**
 * What the plugin sandbox costs: the same plugin's automation action and webhook (verify, ids,
 * handle), and an installation's own webhook (verified with the installation's secret), called
 * in-process and in its isolate, against an in-memory context, so the figures are
 * the boundary's own cost and not the database's. Also the load of a plugin into a sandbox (bundle
 * and first run, cold and with its bundle kept from before) and its isolate's heap. Run alone with
 * `npx tsx --no-node-snapshot bench/sandbox.ts`.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InstallationContext, PluginDefinition } from '../extensions-sdk/src/server/index.ts';
import { loadSandboxedPlugin } from '../core/src/extensions/sandbox/index.ts';
import { createLogger } from '../core/src/logger.ts';
import { percentile, round } from './support.ts';

const CALLS = Number(process.env.BENCH_SANDBOX_CALLS ?? 2000);
const FIXTURES = join(import.meta.dirname, '..', 'tests', 'integration', 'extensions', 'fixtures');
const RELAY = join(FIXTURES, 'sandboxed', 'notes-relay');
/** A plugin whose installations each have their own URL and signing secret (Linear's scheme). */
const LINEAR_LIKE = join(FIXTURES, 'installation-webhooks', 'linear-like');
const SECRET = 'bench-secret';

export interface SandboxCallCost {
  inProcessUs: { p50: number; p95: number };
  sandboxUs: { p50: number; p95: number };
  /** Sandbox p50 minus in-process p50: what one call pays for the boundary. */
  overheadUs: number;
}

export interface SandboxBench {
  calls: number;
  action: SandboxCallCost;
  webhook: SandboxCallCost;
  /** An installation's own webhook URL: async verify with the installation's secret, reply check, id, handle. */
  installationWebhook: SandboxCallCost;
  /** Bundling and first run; then the same with the bundle kept from that load (a warm start). */
  loadMs: number;
  warmLoadMs: number;
  heapMb: number;
}

/** A context as the host would hand it, answering from memory. */
function memoryContext(settings: Record<string, string> = { projectId: 'p-1' }): InstallationContext<string> {
  const ctx = {
    plugin: { id: 'notes-relay', version: '1.0.0' },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    config: { signingSecret: SECRET },
    http: { fetch: () => Promise.reject(new Error('no network in the bench')) },
    publicUrl: 'http://localhost:3000',
    installation: { id: 'inst-1', workspaceId: 'ws-1', settings, connection: null },
    jobs: { send: async () => undefined },
    saveConnectionTokens: async () => undefined,
    userConnection: async () => null,
    saveUserConnectionTokens: async () => undefined,
    disconnect: async () => undefined,
  };
  let made = 0;
  Object.defineProperty(ctx, 'notes', {
    enumerable: true,
    get: () => ({
      create: async (d: { projectId: string; title: string }) => ({
        id: `n-${made++}`,
        projectId: d.projectId,
        title: d.title,
        path: '/data/n',
        created: true,
      }),
      get: async () => null,
    }),
  });
  Object.defineProperty(ctx, 'projects', {
    enumerable: true,
    get: () => ({
      list: async () => [
        { id: 'p-1', title: 'Inbox', enabled: true },
        { id: 'p-2', title: 'Other', enabled: false },
      ],
    }),
  });
  return ctx as unknown as InstallationContext<string>;
}

async function time(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(200, CALLS); i++) await run(); // warm both sides alike
  const us: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await run();
    us.push((performance.now() - started) * 1000);
  }
  return { p50: round(percentile(us, 50), 1), p95: round(percentile(us, 95), 1) };
}

function webhookRun(definition: PluginDefinition, ctx: InstallationContext<string>): () => Promise<void> {
  const hook = definition.server.webhooks![0]!;
  let n = 0;
  return async () => {
    const body = JSON.stringify({
      id: `m-${n++}`,
      account: 'inst-1',
      text: `Customers ask for SSO\n${'They mention it in every call. '.repeat(30)}`,
    });
    const request = {
      headers: { 'x-relay-signature': createHmac('sha256', SECRET).update(body).digest('hex') },
      rawBody: Buffer.from(body),
    };
    if (!(await hook.verify(request, ctx)).ok) throw new Error('the bench webhook did not verify');
    await hook.respond?.(request, ctx);
    await hook.handle(ctx, { eventId: hook.eventId(request), headers: request.headers, body });
    hook.externalId(request);
  };
}

function installationWebhookRun(definition: PluginDefinition, ctx: InstallationContext<string>): () => Promise<void> {
  const hook = definition.server.installationWebhook!;
  let n = 0;
  return async () => {
    const body = JSON.stringify({
      action: 'create',
      type: 'Issue',
      data: { id: `ISS-${n}`, title: 'Exports time out', description: 'Reported by three customers. '.repeat(30) },
    });
    const request = {
      headers: {
        'linear-delivery': `d-${n++}`,
        'linear-signature': createHmac('sha256', SECRET).update(body).digest('hex'),
      },
      rawBody: Buffer.from(body),
    };
    if (!(await hook.verify(request, ctx)).ok) throw new Error('the bench installation webhook did not verify');
    await hook.respond?.(request, ctx);
    await hook.handle(ctx, { eventId: hook.eventId(request), headers: request.headers, body });
  };
}

const cost = (
  inProcessUs: SandboxCallCost['inProcessUs'],
  sandboxUs: SandboxCallCost['sandboxUs'],
): SandboxCallCost => ({ inProcessUs, sandboxUs, overheadUs: round(sandboxUs.p50 - inProcessUs.p50, 1) });

export async function benchSandbox(): Promise<SandboxBench> {
  const trusted = ((await import(join(RELAY, 'server.ts'))) as { default: PluginDefinition }).default;
  const bundleDir = mkdtempSync(join(tmpdir(), 'fieldbook-bench-bundles-'));
  const load = async () => {
    const started = performance.now();
    const loaded = await loadSandboxedPlugin({
      packageDir: RELAY,
      serverEntry: './server.ts',
      logger: createLogger('silent'),
      bundleDir,
    });
    return { loaded, ms: round(performance.now() - started, 0) };
  };
  const cold = await load();
  cold.loaded.isolate.dispose();
  const { loaded: sandboxed, ms: warmLoadMs } = await load();
  if (!sandboxed.bundle.reused) throw new Error('the second load bundled again');
  rmSync(bundleDir, { recursive: true, force: true });
  const loadMs = cold.ms;
  const ctx = memoryContext();
  try {
    const action = (definition: PluginDefinition) => () =>
      definition.server.actions![0]!.execute(ctx, { label: 'Enabled' }, { event: 'bench', payload: {} });
    const actionCost = cost(await time(action(trusted)), await time(action(sandboxed.definition)));
    const webhookCost = cost(await time(webhookRun(trusted, ctx)), await time(webhookRun(sandboxed.definition, ctx)));
    const linearLike = ((await import(join(LINEAR_LIKE, 'server.ts'))) as { default: PluginDefinition }).default;
    const linearSandboxed = await loadSandboxedPlugin({
      packageDir: LINEAR_LIKE,
      serverEntry: './server.ts',
      logger: createLogger('silent'),
    });
    let installationWebhook: SandboxCallCost;
    try {
      const installationCtx = memoryContext({ projectId: 'p-1', signingSecret: SECRET });
      installationWebhook = cost(
        await time(installationWebhookRun(linearLike, installationCtx)),
        await time(installationWebhookRun(linearSandboxed.definition, installationCtx)),
      );
    } finally {
      linearSandboxed.isolate.dispose();
    }
    return {
      calls: CALLS,
      action: actionCost,
      webhook: webhookCost,
      installationWebhook,
      loadMs,
      warmLoadMs,
      heapMb: round(sandboxed.isolate.heapBytes() / 2 ** 20, 1),
    };
  } finally {
    sandboxed.isolate.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchSandbox();
  console.log(JSON.stringify(result, null, 2));
}
