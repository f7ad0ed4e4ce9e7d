import type { SlotName, WebExtension } from '@fieldbook/extensions-sdk/web';
import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import type { PluginRemote } from '../api/operations.ts';

export interface RemoteLoadResult {
  extensions: WebExtension[];
  failures: Array<{ name: string; error: string }>;
}

/** `./extension` of remote `slack` is requested as `slack/extension`. */
export const remoteRequest = (remote: Pick<PluginRemote, 'name' | 'exposedModule'>): string =>
  `${remote.name}/${remote.exposedModule.replace(/^\.\//, '')}`;

/**
 * The remotes to load for a slot: those that fill it, and those that did not say which slots
 * they fill. With no slot (the workspace app starting), only the latter: they may add pages and
 * navigation. A remote that names its slots is thus never loaded where none of them is drawn.
 */
export function remotesFor(remotes: readonly PluginRemote[], slot: SlotName | null): PluginRemote[] {
  return remotes.filter((r) => r.slots === null || (slot !== null && r.slots.includes(slot)));
}

let federation: Promise<ModuleFederation> | null = null;

/**
 * The Module Federation runtime, started the first time a plugin remote is wanted: the app is no
 * federation host until then, so pages without a plugin slot carry none of its code. It offers
 * remotes the app's React, router and SDK web part (see shared-modules.ts).
 */
function federationRuntime(): Promise<ModuleFederation> {
  federation ??= Promise.all([import('@module-federation/enhanced/runtime'), import('./shared-modules.ts')])
    .then(([{ createInstance }, { sharedModules }]) =>
      createInstance({ name: 'fieldbook', remotes: [], shared: sharedModules }),
    )
    .catch((err: unknown) => {
      federation = null; // a failed chunk load (network) is tried again next time
      throw err;
    });
  return federation;
}

/**
 * Registers the plugin remotes the server enabled for this workspace and loads each one's web
 * extension. A remote that fails to load is reported and skipped: one broken plugin never
 * takes the app down.
 */
export async function loadPluginRemotes(remotes: readonly PluginRemote[]): Promise<RemoteLoadResult> {
  const result: RemoteLoadResult = { extensions: [], failures: [] };
  if (!remotes.length) return result;
  let mf: ModuleFederation;
  try {
    mf = await federationRuntime();
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return { extensions: [], failures: remotes.map((r) => ({ name: r.name, error })) };
  }
  mf.registerRemotes(
    remotes.map((r) => ({ name: r.name, entry: r.entry })),
    { force: false },
  );
  await Promise.all(
    remotes.map(async (remote) => {
      try {
        const mod = await mf.loadRemote<{ default?: WebExtension } | WebExtension>(remoteRequest(remote));
        const extension = mod && 'default' in mod ? mod.default : (mod as WebExtension | null);
        if (!extension || typeof extension.id !== 'string') throw new Error('it does not export a web extension');
        result.extensions.push(extension);
      } catch (err) {
        result.failures.push({ name: remote.name, error: err instanceof Error ? err.message : String(err) });
      }
    }),
  );
  return result;
}
