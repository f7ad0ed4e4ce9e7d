import type { SlotName, SlotProps, WebExtension, WebNavItem, WebRoute } from '@fieldbook/extensions-sdk/web';
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '../api/hooks.ts';
import { ops, type PluginRemote } from '../api/operations.ts';
import { moduleExtensions } from './modules.ts';
import { loadPluginRemotes } from './remotes.ts';

interface ExtensionsValue {
  extensions: readonly WebExtension[];
  navigation: readonly WebNavItem[];
  routes: readonly WebRoute[];
}

const ExtensionsContext = createContext<ExtensionsValue>({ extensions: moduleExtensions, navigation: [], routes: [] });

export const useExtensions = (): ExtensionsValue => useContext(ExtensionsContext);

/** Module web parts plus the plugin remotes the server enabled for the current workspace. */
export function ExtensionsProvider({ children }: { children: ReactNode }) {
  const remotes = useQuery<{ pluginRemotes: PluginRemote[] }>(ops.pluginRemotes);
  const [plugins, setPlugins] = useState<WebExtension[]>([]);
  const list = remotes.data?.pluginRemotes;

  useEffect(() => {
    if (!list?.length) return;
    let stale = false;
    void loadPluginRemotes(list).then((r) => {
      for (const f of r.failures) console.warn(`The plugin "${f.name}" could not be loaded: ${f.error}`);
      if (!stale) setPlugins(r.extensions);
    });
    return () => {
      stale = true;
    };
  }, [list]);

  const value = useMemo<ExtensionsValue>(() => {
    const all = [...moduleExtensions, ...plugins];
    return { extensions: all, navigation: all.flatMap((e) => e.navigation ?? []), routes: all.flatMap((e) => e.routes ?? []) };
  }, [plugins]);
  return <ExtensionsContext.Provider value={value}>{children}</ExtensionsContext.Provider>;
}

/** Renders what extensions put into a slot, each isolated so one failing part stays alone. */
export function ExtensionSlot<S extends SlotName>({ name, props }: { name: S; props: SlotProps[S] }) {
  const { extensions } = useExtensions();
  const parts = extensions.flatMap((e) => {
    const C = e.slots?.[name];
    return C ? [{ id: e.id, C }] : [];
  });
  return (
    <>
      {parts.map(({ id, C }) => {
        const Component = C as unknown as (p: SlotProps[S]) => ReactNode;
        return <Component key={id} {...props} />;
      })}
    </>
  );
}
