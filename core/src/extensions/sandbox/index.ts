/**
 * Sandboxed plugins: a plugin's server code runs in a V8 isolate of its own (isolated-vm), never in
 * the server's realm.
 *
 * Why isolated-vm. It is what Directus runs its sandboxed extensions in, it installs from the npm
 * registry with a prebuilt binary for Node 24 (and builds from source with g++ where none fits),
 * and an isolate starts with nothing: no `require`, `process`, `fetch`, file system, environment,
 * timers or host objects. A plugin therefore reaches the world only through what we put in, which
 * holds by construction rather than by a list of things to block. A process per plugin under
 * Node's permission model (Grafana's way) was the alternative: Node 24's permission model does not
 * cover the network (there is no --allow-net), so a plugin's own `fetch('http://127.0.0.1')` would
 * have needed a deny list; and every call would cross a process boundary. QuickJS (WASM) isolates
 * as well, but runs plugin code in an interpreter many times slower than V8.
 *
 * What crosses the boundary: the SDK's context contract and nothing else. The host calls a
 * contribution by path (`action.0.execute`, `webhook.0.verify`, `installationWebhook.verify`; a
 * webhook's verify and respond are awaited, as they may be async) with its arguments as JSON (bytes
 * as base64); the plugin's context inside is rebuilt from a copy of its data (plugin, config,
 * installation, viewer), and each of its methods (`http.fetch`, `notes.create`, `jobs.send`, ...)
 * is a call back to the host, which runs it on the very context object a trusted plugin would get,
 * so capability checks, egress policy and the acting member are the same. No object is shared: a
 * plugin that rewrites prototypes rewrites its own. Besides the context, the isolate borrows pure
 * functions (HMAC and hashes for webhook signatures, randomness) and has pure-JavaScript Buffer,
 * URL, TextEncoder and Response so that plugins and their npm packages read as usual. A plugin is
 * bundled with esbuild when it loads (TypeScript and pure-JavaScript npm packages work as in
 * development); importing a Node module other than `crypto` and `buffer` fails the load with a
 * reason. The bundle is kept in the data folder and reused by later starts until something it was
 * made from changes (bundle-cache.ts), since bundling is most of a sandboxed plugin's load time.
 *
 * Limits, per call (limits.ts): CPU time (the isolate's CPU clock, sampled while calls run; a
 * synchronous call is stopped by isolated-vm's own timeout), memory (the isolate's heap limit) and
 * wall time (from call to answer). Past the CPU or memory limit the isolate is thrown away, which
 * ends every call in it with a SandboxLimitError naming the limit; the next call starts a fresh
 * isolate from the bundle. Past the wall time the call alone is answered with that error.
 */
import { basename } from 'node:path';
import type { PluginDefinition } from '@fieldbook/extensions-sdk/server';
import type { Logger } from '../../logger.ts';
import { bundlePlugin } from './bundle.ts';
import { sandboxedDefinition } from './definition.ts';
import { PluginIsolate } from './isolate.ts';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './limits.ts';

export type { PluginIsolate } from './isolate.ts';
export { DEFAULT_SANDBOX_LIMITS, SandboxLimitError, type SandboxLimitKind, type SandboxLimits } from './limits.ts';

export interface SandboxedPlugin {
  definition: PluginDefinition;
  isolate: PluginIsolate;
  /** Whether its bundle was kept from an earlier start (see bundle-cache.ts). */
  bundle: { reused: boolean };
}

let snapshotWarned = false;

/** isolated-vm's isolates can crash a Node started with its startup snapshot (V8's shared heap). */
function warnOfNodeSnapshot(logger: Logger): void {
  const flagged =
    process.execArgv.includes('--no-node-snapshot') || (process.env.NODE_OPTIONS ?? '').includes('--no-node-snapshot');
  if (flagged || snapshotWarned) return;
  snapshotWarned = true;
  logger.warn(
    'plugin sandboxes are safest with Node started with --no-node-snapshot; without it an isolate may crash the process',
  );
}

/**
 * Loads a plugin package's server entry into a sandbox of its own and answers its definition, whose
 * every function runs in the sandbox. Throws when the bundle cannot be built or its code fails.
 */
export async function loadSandboxedPlugin(options: {
  packageDir: string;
  serverEntry: string;
  logger: Logger;
  limits?: Partial<SandboxLimits>;
  /** Where bundles are kept between starts (FIELDBOOK_DATA_DIR/plugin-bundles); unset, every load bundles. */
  bundleDir?: string;
  /** The files the package ships (an npm package's tarball, relative paths); unset, every file in its folder. */
  shipped?: ReadonlySet<string>;
}): Promise<SandboxedPlugin> {
  warnOfNodeSnapshot(options.logger);
  const { code, reused } = await bundlePlugin(options.packageDir, options.serverEntry, {
    keepIn: options.bundleDir,
    logger: options.logger,
    shipped: options.shipped,
  });
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  // Until its manifest names it, a plugin goes by its package's folder.
  const isolate = new PluginIsolate(basename(options.packageDir), code, limits, options.logger);
  const description = isolate.describe();
  const definition = sandboxedDefinition(isolate, description);
  // An untrusted plugin's webhooks live under its own id, never on a path of Fieldbook's own.
  const id = String(definition.manifest?.id ?? '');
  const foreign = definition.server.webhooks?.find((hook) => !hook.path.startsWith(`/${id}/`));
  if (foreign) {
    isolate.dispose();
    throw new Error(`The webhook path ${foreign.path} must start with /${id}/.`);
  }
  // Errors and logs name the plugin by its id once its manifest told it.
  if (id) isolate.pluginId = id;
  return { definition, isolate, bundle: { reused } };
}
