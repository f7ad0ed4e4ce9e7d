import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';

/**
 * The web part of the SDK: what a module's or plugin's browser code uses. The host shares this
 * package (and React) as singletons, so every extension sees the one context the host provides.
 */

/** A workspace as the host knows it. */
export interface HostWorkspace {
  id: string;
  name: string;
  subdomain: string;
}

/** The signed-in person. */
export interface HostViewer {
  id: string;
  email: string;
  name: string;
}

export interface GraphQLErrorItem {
  message: string;
  extensions?: { errorCode?: string; humanReadable?: boolean; field?: string };
}

/** What the host hands to extensions: its GraphQL client and who is looking at which workspace. */
export interface FieldbookHost {
  /** Runs a query or mutation against the current workspace with the current session. */
  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  workspace: HostWorkspace | null;
  viewer: HostViewer | null;
  /** The permissions of the viewer in the current workspace (002 §6), e.g. `notes:create`. */
  permissions: readonly string[];
  /**
   * Fetches a path of the Fieldbook server (e.g. a finished export's `downloadUrl`) with the
   * session's bearer token and the workspace header. Hosts before it was added leave it out.
   */
  fetch?(path: string, init?: RequestInit): Promise<Response>;
}

export const FieldbookHostContext = createContext<FieldbookHost | null>(null);

/** The host's context; throws when used outside the Fieldbook app. */
export function useFieldbook(): FieldbookHost {
  const host = useContext(FieldbookHostContext);
  if (!host) throw new Error('useFieldbook must be used inside the Fieldbook app.');
  return host;
}

export interface GraphQLState<T> {
  data: T | null;
  error: Error | null;
  loading: boolean;
  refetch(): Promise<void>;
}

/** Runs a query when the component mounts and whenever the query or its variables change. */
export function useGraphQL<T = Record<string, unknown>>(
  query: string,
  variables?: Record<string, unknown>,
): GraphQLState<T> {
  const host = useFieldbook();
  const [state, setState] = useState<{ data: T | null; error: Error | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const key = JSON.stringify(variables ?? {});
  const latest = useRef(0);
  const run = useCallback(async () => {
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const data = await host.graphql<T>(query, JSON.parse(key) as Record<string, unknown>);
      if (call === latest.current) setState({ data, error: null, loading: false });
    } catch (err) {
      if (call === latest.current)
        setState((s) => ({ data: s.data, error: err instanceof Error ? err : new Error(String(err)), loading: false }));
    }
  }, [host, query, key]);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, refetch: run };
}

/**
 * Versioned places in the app where extensions add UI. A slot's props never change within a
 * version; a new shape gets a new version (`/v2`) and the old one keeps working.
 */
export interface SlotProps {
  'home.card/v1': { workspace: HostWorkspace };
  'settings.security.panel/v1': { workspace: HostWorkspace };
  /** At the end of the workspace's AI settings (admins), e.g. how assistants connect over MCP. */
  'settings.ai.panel/v1': { workspace: HostWorkspace };
  'project.settings.panel/v1': { workspace: HostWorkspace; projectId: string };
  /** On the plugin's own settings view in the workspace's extensions settings. */
  'integration.settings.page/v1': { workspace: HostWorkspace; pluginId: string };
  /** Beside the other actions of a note's toolbar. */
  'note.toolbar.action/v1': { workspace: HostWorkspace; noteId: string; projectId: string };
}

export type SlotName = keyof SlotProps;

/** How the host draws a slot; modules draw slots through {@link Slot}, never through the host. */
export type SlotRenderer = <S extends SlotName>(name: S, props: SlotProps[S]) => ReactNode;

/** Provided by the host; absent (nothing drawn) outside the Fieldbook app. */
export const SlotRendererContext = createContext<SlotRenderer | null>(null);

/**
 * Draws what extensions put into a slot, e.g. `note.toolbar.action/v1` in a note's toolbar. The
 * host decides which extensions that is (those enabled where the props point, such as a project)
 * and wraps each in an error boundary, so a failing one shows an error box in its place.
 */
export function Slot<S extends SlotName>({ name, props }: { name: S; props: SlotProps[S] }): ReactNode {
  const render = useContext(SlotRendererContext);
  return render ? render(name, props) : null;
}

/** A page an extension adds under the workspace app, e.g. `/projects`. */
export interface WebRoute {
  /** Absolute path, react-router syntax (`/projects/:projectId`). */
  path: string;
  component: ComponentType;
  /** The permission needed to open the page; others see the host's "no access" page. */
  permission?: string;
  /**
   * A page anyone may open without signing in (e.g. a public share link): the host mounts it
   * on its own, with no workspace chrome and no host context, so it must not use `useFieldbook`.
   */
  public?: boolean;
}

/** A link in the workspace sidebar. */
export interface WebNavItem {
  label: string;
  to: string;
  permission?: string;
  /** An icon for the sidebar (e.g. a Tabler icon); the host draws a default one when left out. */
  icon?: ComponentType<{ size?: number | string; 'aria-hidden'?: boolean }>;
}

export interface WebExtension {
  /** A module name or plugin id. */
  id: string;
  routes?: readonly WebRoute[];
  navigation?: readonly WebNavItem[];
  slots?: { [S in SlotName]?: ComponentType<SlotProps[S]> };
}

/** Declares the web part of a module or plugin; the host checks it when it loads it. */
export function defineWebExtension<const E extends WebExtension>(extension: E): E {
  if (!/^[a-z][a-z0-9-]{1,48}[a-z0-9]$/.test(extension.id)) {
    throw new Error(`"${extension.id}" is not a valid extension id: use 3 to 50 lowercase letters, digits or hyphens.`);
  }
  for (const route of extension.routes ?? []) {
    if (!route.path.startsWith('/'))
      throw new Error(`The route "${route.path}" of ${extension.id} must start with "/".`);
  }
  return extension;
}
