import type { AgentTool, ExtensionsServices } from '@fieldbook/core';

/** Plugins' tools, through the plugin host (filled in with the SDK's `server.tools`). */
export function pluginTools(_host: ExtensionsServices['host']): AgentTool[] {
  return [];
}
