import {
  SlotRendererContext,
  type SlotName,
  type SlotProps,
  type SlotRenderer,
  type WebExtension,
  type WebNavItem,
  type WebRoute,
} from '@fieldbook/extensions-sdk/web';
import { Suspense, createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ops, type PluginRemote } from '../api/operations.ts';
import { ExtensionErrorBox, SlotBoundary, extensionLabel } from './SlotBoundary.tsx';
import { moduleExtensions } from './modules.ts';
import { loadPluginRemotes, remotesFor, type RemoteLoadResult } from './remotes.ts';

export type RemoteFailure = RemoteLoadResult['failures'][number];

interface ExtensionsValue {
  extensions: readonly WebExtension[];
  navigation: readonly WebNavItem[];
  routes: readonly WebRoute[];
  /** Plugin remotes that could not be loaded, so admins can see why a plugin shows nothing. */
  failures: readonly RemoteFailure[];
  /** The workspace's plugin remotes as the server lists them (null until it answered). */
  remotes: readonly PluginRemote[] | null;
  /** Asks the server again which plugin remotes to load (after a plugin is installed or removed). */
  reloadRemotes(): void;
}

const ExtensionsContext = createContext<ExtensionsValue>({
  extensions: moduleExtensions,
  navigation: [],
  routes: [],
  failures: [],
  remotes: null,
  reloadRemotes: () => undefined,
});

export const useExtensions = (): ExtensionsValue => useContext(ExtensionsContext);

const NO_REMOTES: RemoteLoadResult = { extensions: [], failures: [] };

/** Loads these remotes (Module Federation fetches each once) and keeps what loaded and what failed. */
function useLoadedRemotes(list: readonly PluginRemote[] | null): RemoteLoadResult & { loading: boolean } {
  const [loaded, setLoaded] = useState<RemoteLoadResult>(NO_REMOTES);
  const [loading, setLoading] = useState(false);
  // The list is filtered afresh on every render; load again only when what it names changes.
  const key = JSON.stringify(list?.map((r) => [r.name, r.entry, r.exposedModule]) ?? []);
  useEffect(() => {
    const wanted = JSON.parse(key) as Array<[string, string, string]>;
    if (!wanted.length) {
      setLoaded(NO_REMOTES);
      setLoading(false);
      return;
    }
    let stale = false;
    setLoading(true);
    void loadPluginRemotes(
      wanted.map(([name, entry, exposedModule]) => ({ name, entry, exposedModule, slots: null })),
    ).then((r) => {
      for (const f of r.failures) console.warn(`The plugin "${f.name}" could not be loaded: ${f.error}`);
      if (stale) return;
      setLoaded(r);
      setLoading(false);
    });
    return () => {
      stale = true;
    };
  }, [key]);
  return { ...loaded, loading };
}

/**
 * Loads the plugin remotes of the workspace, or of one project, that `slot` needs (see
 * {@link remotesFor}; no slot: those that load with every workspace page).
 */
export function usePluginRemotes(
  projectId?: string,
  slot: SlotName | null = null,
): {
  extensions: readonly WebExtension[];
  failures: readonly RemoteFailure[];
  loading: boolean;
  error: unknown;
  reload(): void;
} {
  const remotes = useQuery<{ pluginRemotes: PluginRemote[] }>(ops.pluginRemotes, projectId ? { projectId } : {});
  const list = remotes.data?.pluginRemotes;
  const loaded = useLoadedRemotes(list ? remotesFor(list, slot) : null);
  return {
    extensions: loaded.extensions,
    failures: loaded.failures,
    loading: remotes.loading || loaded.loading,
    error: remotes.error,
    reload: remotes.reload,
  };
}

/**
 * What a slot about the workspace shows: module parts, the remotes loaded with the workspace app,
 * and the remotes that fill this slot, loaded now (`skip` holds them back).
 */
export function useSlotExtensions(
  name: SlotName,
  skip = false,
): { extensions: readonly WebExtension[]; failures: readonly RemoteFailure[] } {
  const context = useExtensions();
  const named = context.remotes && !skip ? context.remotes.filter((r) => r.slots?.includes(name)) : null;
  const loaded = useLoadedRemotes(named);
  const extensions = useMemo(
    () => [...context.extensions, ...loaded.extensions.filter((e) => !context.extensions.some((c) => c.id === e.id))],
    [context.extensions, loaded.extensions],
  );
  return { extensions, failures: loaded.failures };
}

/**
 * Module web parts plus the plugin remotes the workspace app loads at once: only those that did
 * not name their slots (they may add pages or navigation). The others load where their slot is drawn.
 */
export function ExtensionsProvider({ children }: { children: ReactNode }) {
  const remotes = useQuery<{ pluginRemotes: PluginRemote[] }>(ops.pluginRemotes, {});
  const list = remotes.data?.pluginRemotes ?? null;
  const { extensions: plugins, failures } = useLoadedRemotes(list ? remotesFor(list, null) : null);
  const { reload } = remotes;
  const value = useMemo<ExtensionsValue>(() => {
    const all = [...moduleExtensions, ...plugins];
    return {
      extensions: all,
      navigation: all.flatMap((e) => e.navigation ?? []),
      routes: all.flatMap((e) => e.routes ?? []),
      failures,
      remotes: list,
      reloadRemotes: () => void reload(),
    };
  }, [plugins, failures, list, reload]);
  return (
    <ExtensionsContext.Provider value={value}>
      <SlotRendererContext.Provider value={renderSlot}>{children}</SlotRendererContext.Provider>
    </ExtensionsContext.Provider>
  );
}

/** A slot about one project shows the plugins enabled on that project; others, the workspace's. */
const renderSlot: SlotRenderer = (name, props) =>
  'projectId' in props && typeof props.projectId === 'string' ? (
    <ProjectSlot name={name} props={props} projectId={props.projectId} />
  ) : (
    <ExtensionSlot name={name} props={props} />
  );

function ProjectSlot<S extends SlotName>({
  name,
  props,
  projectId,
}: {
  name: S;
  props: SlotProps[S];
  projectId: string;
}) {
  const { extensions, failures } = usePluginRemotes(projectId, name);
  return <ExtensionSlot name={name} props={props} extensions={extensions} failures={failures} />;
}

/**
 * Renders what extensions put into a slot, each in its own error boundary so one failing part
 * shows an error box in its place and the rest of the page keeps working. `extensions` and
 * `failures` replace the workspace's (a project's own remotes); `names` gives plugins' names.
 */
export function ExtensionSlot<S extends SlotName>({
  name,
  props,
  extensions: only,
  failures = [],
  names = {},
}: {
  name: S;
  props: SlotProps[S];
  extensions?: readonly WebExtension[];
  failures?: readonly RemoteFailure[];
  names?: Readonly<Record<string, string>>;
}) {
  // Without a list of its own, the slot loads the workspace's remotes that fill it.
  const workspace = useSlotExtensions(name, only !== undefined);
  const extensions = only ?? workspace.extensions;
  const shownFailures = only ? failures : [...failures, ...workspace.failures];
  const parts = extensions.flatMap((e) => {
    const C = e.slots?.[name];
    return C ? [{ id: e.id, C }] : [];
  });
  return (
    <>
      {shownFailures.map((f) => (
        <ExtensionErrorBox key={`failed-${f.name}`} label={names[f.name] ?? extensionLabel(f.name)} detail={f.error} />
      ))}
      {parts.map(({ id, C }) => {
        const Component = C as unknown as (p: SlotProps[S]) => ReactNode;
        return (
          <SlotBoundary key={id} label={names[id] ?? extensionLabel(id)}>
            {/* A part may be a lazy component: it appears when its code has loaded, the page meanwhile. */}
            <Suspense fallback={null}>
              <Component {...props} />
            </Suspense>
          </SlotBoundary>
        );
      })}
    </>
  );
}
