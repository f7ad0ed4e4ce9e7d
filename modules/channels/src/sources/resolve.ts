import type { ExtensionsServices } from '@fieldbook/core';
import type { SourceResolver } from '../imports/job.ts';
import { sourceOf } from './index.ts';
import { pluginSource } from './plugin.ts';

/** A dataset's source: a plugin's for a source connection, else one built into the module. */
export function sourceResolver(extensions: ExtensionsServices): SourceResolver {
  return (dataset, actingUserId) => {
    if (!dataset.plugin_id) return sourceOf(dataset.source);
    if (!extensions.host.catalog.ready(dataset.plugin_id)) return null;
    return pluginSource(
      extensions,
      {
        workspace_id: dataset.workspace_id,
        source: dataset.source,
        plugin_id: dataset.plugin_id,
        since: dataset.since ?? null,
        created_at: dataset.created_at,
      },
      actingUserId,
    );
  };
}
