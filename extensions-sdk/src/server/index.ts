import { parsePluginManifest, type PluginManifest } from '../index.ts';

export type { PluginManifest, PluginPermission } from '../index.ts';

/** Logging a plugin may do; every line carries the plugin's id. */
export interface PluginLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What a plugin's server part receives: only the capabilities its manifest asked for. */
export interface PluginServerContext {
  pluginId: string;
  logger: PluginLogger;
  /** The installation's settings (secrets decrypted), as the plugin's settings schema shaped them. */
  settings: Readonly<Record<string, unknown>>;
}

export interface PluginServer {
  /** Runs once when the plugin loads; a throw disables the plugin and leaves the app running. */
  setup?(ctx: PluginServerContext): void | Promise<void>;
}

export interface PluginDefinition extends PluginManifest {
  server?: PluginServer;
}

/** Declares a plugin; the manifest part is validated at once so mistakes show at load time. */
export function definePlugin(definition: PluginManifest & { server?: PluginServer }): PluginDefinition {
  const { server, ...manifest } = definition;
  return { ...parsePluginManifest(manifest), ...(server ? { server } : {}) };
}
