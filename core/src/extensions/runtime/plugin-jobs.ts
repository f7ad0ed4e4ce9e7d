import type { JobDefinition } from '../../jobs/queue.ts';
import { installations } from '../installations/store.ts';
import { pluginJobQueue, type PluginHost, type PluginJobData } from './host.ts';

/** A queue per plugin job; each job runs for the installation that queued it, if it still exists. */
export function pluginJobs(host: PluginHost): JobDefinition[] {
  return host.catalog.plugins
    .filter((p) => p.state === 'ready')
    .flatMap((plugin) =>
      Object.entries(plugin.definition.server.jobs ?? {}).map(
        ([name, job]): JobDefinition => ({
          queue: pluginJobQueue(plugin.id, name),
          settings: { retryLimit: job.retryLimit ?? 3, deadLetter: true },
          batchSize: 5,
          async handler(queued) {
            const data = queued.data as PluginJobData;
            const row = await host.inWorkspace(data.workspaceId, (trx) =>
              installations(trx).where({ id: data.installationId }).first(),
            );
            if (!row) return; // uninstalled since: nothing to do
            await job.handler(host.installationContext(plugin, row, data.actingUserId ?? row.installed_by), data.data);
          },
        }),
      ),
    );
}
