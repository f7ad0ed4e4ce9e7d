import { expect } from 'vitest';
import channels from '../../../../modules/channels/src/index.ts';
import research from '../../../../modules/research/src/index.ts';
import { sweepRefreshes } from '../../../../modules/channels/src/connections/refresh.ts';
import type { ModuleContext } from '../../../../core/src/index.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { startMailServer, type TestMailServer } from '../../../support/smtp.ts';
import { contentFixture, ok, type ContentFixture, type Gql } from '../../research/content-support.ts';
import { createChannel, IMPORT, type ImportState } from '../support.ts';

export interface SourcesFixture {
  server: TestServer;
  mail: TestMailServer;
  a: ContentFixture;
  channelId: string;
  close(): Promise<void>;
}

/**
 * A Fieldbook with research and channels and the plugin packages in `folders`, each loaded
 * sandboxed as an installed plugin is; `env` is what their `config` reads (base URLs of the local
 * provider servers). An admin and a contributor share a workspace with one channel.
 */
export async function startSourcesFixture(folders: string[], env: Record<string, string>): Promise<SourcesFixture> {
  const mail = await startMailServer();
  const server = await startTestServer(
    {
      smtpUrl: mail.url,
      plugins: {
        packages: [],
        dir: 'plugins',
        maximumExtensions: null,
        env,
        isolation: { sandbox: true, trusted: [] },
      },
    },
    { modules: [research, channels], pluginFolders: folders, discoverPlugins: false },
  );
  const a = await contentFixture(server, mail, ['CONTRIBUTOR']);
  const channelId = (await createChannel(a.contributor.gql, 'Support')).id;
  return {
    server,
    mail,
    a,
    channelId,
    async close() {
      await server.close();
      await mail.close();
    },
  };
}

export async function install(gql: Gql, pluginId: string, settings: Record<string, string>): Promise<void> {
  ok(
    await gql(`mutation($id: ID!, $s: [PluginSettingInput!]) { installPlugin(pluginId: $id, settings: $s) { id } }`, {
      id: pluginId,
      s: Object.entries(settings).map(([key, text]) => ({ key, text })),
    }),
  );
}

export async function updateSettings(gql: Gql, pluginId: string, settings: Record<string, string>): Promise<void> {
  ok(
    await gql(
      `mutation($id: ID!, $s: [PluginSettingInput!]!) { updatePluginSettings(pluginId: $id, settings: $s) { id } }`,
      { id: pluginId, s: Object.entries(settings).map(([key, text]) => ({ key, text })) },
    ),
  );
}

export type RunState = ImportState & { datasetId: string; trigger: string };
const RUN = `${IMPORT} datasetId trigger`;

export async function waitForRun(gql: Gql, id: string): Promise<RunState> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = ok(
      await gql<{ channelImport: RunState }>(`query($id: ID!) { channelImport(id: $id) { ${RUN} } }`, { id }),
    ).channelImport;
    if (run.status === 'COMPLETED' || run.status === 'FAILED') return run;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export async function connect(gql: Gql, input: Record<string, unknown>): Promise<RunState> {
  const res = await gql<{ connectChannelSource: RunState }>(
    `mutation($input: ConnectChannelSourceInput!) { connectChannelSource(input: $input) { ${RUN} } }`,
    { input },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return waitForRun(gql, res.data!.connectChannelSource.id);
}

export async function syncNow(gql: Gql, datasetId: string): Promise<RunState> {
  const run = ok(
    await gql<{ syncChannelDataset: RunState }>(`mutation($id: ID!) { syncChannelDataset(id: $id) { ${RUN} } }`, {
      id: datasetId,
    }),
  ).syncChannelDataset;
  return waitForRun(gql, run.id);
}

export async function history(gql: Gql, datasetId: string): Promise<RunState[]> {
  return ok(
    await gql<{ channelDatasetImports: RunState[] }>(
      `query($id: ID!) { channelDatasetImports(datasetId: $id) { ${RUN} } }`,
      { id: datasetId },
    ),
  ).channelDatasetImports;
}

/** Runs the minute's refresh sweep now, as the scheduled job does. */
export function sweep(server: TestServer): Promise<number> {
  return sweepRefreshes({ db: server.fieldbook.db, jobs: server.fieldbook.jobs.queue } as unknown as ModuleContext);
}

/** The channel's data points as stored, by external id. */
export async function points(
  server: TestServer,
  datasetId: string,
): Promise<Map<string, { content: string; raw: unknown; person_id: string | null; external_url: string | null }>> {
  const rows = (await server.fieldbook.db.owner('channel_datapoints').where({ dataset_id: datasetId })) as Array<{
    external_id: string;
    content: string;
    raw: unknown;
    person_id: string | null;
    external_url: string | null;
  }>;
  return new Map(rows.map((r) => [r.external_id, r]));
}
