import { SlotRendererContext, type SlotName, type SlotProps, type SlotRenderer, type WebExtension, type WebNavItem, type WebRoute } from '@fieldbook/extensions-sdk/web';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ops, type PluginRemote } from '../api/operations.ts';
import { ExtensionErrorBox, SlotBoundary, extensionLabel } from './SlotBoundary.tsx';
import { moduleExtensions } from './modules.ts';
import { loadPluginRemotes, type RemoteLoadResult } from './remotes.ts';

export type RemoteFailure = RemoteLoadResult['failures'][number];

interface ExtensionsValue {
  extensions: readonly WebExtension[];
  navigation: readonly WebNavItem[];
  routes: readonly WebRoute[];
  /** Plugin remotes that could not be loaded, so admins can see why a plugin shows nothing. */
  failures: readonly RemoteFailure[];
  /** Asks the server again which plugin remotes to load (after a plugin is installed or removed). */
  reloadRemotes(): void;
}

const ExtensionsContext = createContext<ExtensionsValue>({ extensions: moduleExtensions, navigation: [], routes: [], failures: [], reloadRemotes: () => undefined });

export const useExtensions = (): ExtensionsValue => useContext(ExtensionsContext);

/** Loads plugin remotes (the workspace's, or one project's) and keeps what loaded and what failed. */
export function usePluginRemotes(projectId?: string): { extensions: readonly WebExtension[]; failures: readonly RemoteFailure[]; loading: boolean; error: unknown; reload(): void } {
  const remotes = useQuery<{ pluginRemotes: PluginRemote[] }>(ops.pluginRemotes, projectId ? { projectId } : {});
  const [loaded, setLoaded] = useState<RemoteLoadResult>({ extensions: [], failures: [] });
  const [loadingRemotes, setLoadingRemotes] = useState(false);
  const list = remotes.data?.pluginRemotes;

  useEffect(() => {
    if (!list?.length) {
      setLoaded({ extensions: [], failures: [] });
      return;
    }
    let stale = false;
    setLoadingRemotes(true);
    void loadPluginRemotes(list).then((r) => {
      for (const f of r.failures) console.warn(`The plugin "${f.name}" could not be loaded: ${f.error}`);
      if (stale) return;
      setLoaded(r);
      setLoadingRemotes(false);
    });
    return () => {
      stale = true;
    };
  }, [list]);

  return { extensions: loaded.extensions, failures: loaded.failures, loading: remotes.loading || loadingRemotes, error: remotes.error, reload: remotes.reload };
}

/** Module web parts plus the plugin remotes the server enabled for the current workspace. */
export function ExtensionsProvider({ children }: { children: ReactNode }) {
  const { extensions: plugins, failures, reload } = usePluginRemotes();
  const value = useMemo<ExtensionsValue>(() => {
    const all = [...moduleExtensions, ...plugins];
    return { extensions: all, navigation: all.flatMap((e) => e.navigation ?? []), routes: all.flatMap((e) => e.routes ?? []), failures, reloadRemotes: () => void reload() };
  }, [plugins, failures, reload]);
  return (
    <ExtensionsContext.Provider value={value}>
      <SlotRendererContext.Provider value={renderSlot}>{children}</SlotRendererContext.Provider>
    </ExtensionsContext.Provider>
  );
}

/** A slot about one project shows the plugins enabled on that project; others, the workspace's. */
const renderSlot: SlotRenderer = (name, props) =>
  'projectId' in props && typeof props.projectId === 'string' ? <ProjectSlot name={name} props={props} projectId={props.projectId} /> : <ExtensionSlot name={name} props={props} />;

function ProjectSlot<S extends SlotName>({ name, props, projectId }: { name: S; props: SlotProps[S]; projectId: string }) {
  const { extensions, failures } = usePluginRemotes(projectId);
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
  const context = useExtensions();
  const extensions = only ?? context.extensions;
  const parts = extensions.flatMap((e) => {
    const C = e.slots?.[name];
    return C ? [{ id: e.id, C }] : [];
  });
  return (
    <>
      {failures.map((f) => (
        <ExtensionErrorBox key={`failed-${f.name}`} label={names[f.name] ?? extensionLabel(f.name)} detail={f.error} />
      ))}
      {parts.map(({ id, C }) => {
        const Component = C as unknown as (p: SlotProps[S]) => ReactNode;
        return (
          <SlotBoundary key={id} label={names[id] ?? extensionLabel(id)}>
            <Component {...props} />
          </SlotBoundary>
        );
      })}
    </>
  );
}
