import { Alert, Badge, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect, useRef, useState } from 'react';
import {
  REFRESH_CHOICES,
  SQ,
  TRIGGER_LABEL,
  type DatasetView,
  type PluginSource,
  type SourceSetting,
  type SyncRun,
} from './api.ts';
import { EditSourceSettings, SettingsSummary } from './SourceSettings.tsx';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';
const STATUS_COLOR = { QUEUED: 'gray', RUNNING: 'blue', COMPLETED: 'teal', FAILED: 'red' } as const;
const active = (run: SyncRun | null) => run?.status === 'QUEUED' || run?.status === 'RUNNING';

function counts(run: SyncRun): string {
  return `${run.recordsRead} read, ${run.recordsCreated} created, ${run.recordsUpdated} updated, ${run.recordsFailed} failed`;
}

/** A dataset's runs, newest first, with counts, errors and the records that failed. */
function SyncHistory({ datasetId, version }: { datasetId: string; version: number }) {
  const history = useGraphQL<{ channelDatasetImports: SyncRun[] }>(SQ.history, { id: datasetId, version });
  if (history.error) return <Alert color="red">{history.error.message}</Alert>;
  const runs = history.data?.channelDatasetImports ?? [];
  return (
    <Table aria-label="Sync history" mt="xs" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Started</Table.Th>
          <Table.Th>By</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Records</Table.Th>
          <Table.Th>Problems</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {runs.map((run) => (
          <Table.Tr key={run.id}>
            <Table.Td>{when(run.createdAt)}</Table.Td>
            <Table.Td>{TRIGGER_LABEL[run.trigger]}</Table.Td>
            <Table.Td>
              <Badge variant="light" color={STATUS_COLOR[run.status]}>
                {run.status.toLowerCase()}
              </Badge>
            </Table.Td>
            <Table.Td>{counts(run)}</Table.Td>
            <Table.Td>
              {run.error && <Text size="sm">{run.error}</Text>}
              {run.failures.slice(0, 5).map((f, i) => (
                <Text size="sm" key={i}>
                  {f.externalId ?? f.line}: {f.reason}
                </Text>
              ))}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DatasetRow({
  dataset,
  fields,
  canImport,
  onChanged,
}: {
  dataset: DatasetView;
  fields: readonly SourceSetting[];
  canImport: boolean;
  onChanged: () => void;
}) {
  const host = useFieldbook();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const run = dataset.lastImport;
  const connection = dataset.pluginId !== null;

  async function call(query: string, variables: Record<string, unknown>) {
    setError(null);
    try {
      await host.graphql(query, variables);
      setVersion((v) => v + 1);
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <Paper withBorder p="sm" component="li">
      <Group justify="space-between" wrap="wrap">
        <div>
          <Group gap="xs">
            <Text fw={600}>{dataset.name}</Text>
            <Badge size="sm" variant="light" color="gray">
              {dataset.source}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed" aria-live="polite">
            {run
              ? `${active(run) ? 'Syncing' : run.status === 'FAILED' ? 'Last sync failed' : 'Last sync'}: ${counts(run)}`
              : 'Not synced yet'}
            {connection && ` · synced ${when(dataset.lastSyncedAt)}`}
            {connection && dataset.nextSyncAt && ` · next ${when(dataset.nextSyncAt)}`}
          </Text>
          <SettingsSummary dataset={dataset} fields={fields} />
          {run?.status === 'FAILED' && run.error && (
            <Text size="sm" c="red.8">
              {run.error}
            </Text>
          )}
        </div>
        <Group gap="xs">
          {connection && canImport && (
            <Select
              aria-label={`Refresh ${dataset.name}`}
              data={REFRESH_CHOICES}
              value={dataset.refreshMinutes === null ? '' : String(dataset.refreshMinutes)}
              onChange={(v) => void call(SQ.refresh, { id: dataset.id, minutes: v ? Number(v) : null })}
              allowDeselect={false}
              w={190}
              size="xs"
            />
          )}
          {connection && canImport && fields.length > 0 && (
            <Button size="xs" variant="default" disabled={active(run)} onClick={() => setEditing(true)}>
              Edit settings
            </Button>
          )}
          {connection && canImport && (
            <Button size="xs" loading={active(run)} onClick={() => void call(SQ.sync, { id: dataset.id })}>
              Sync now
            </Button>
          )}
          <Button size="xs" variant="default" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? 'Hide history' : 'Sync history'}
          </Button>
        </Group>
      </Group>
      {error && (
        <Alert color="red" mt="xs" role="alert">
          {error}
        </Alert>
      )}
      {editing && (
        <EditSourceSettings
          dataset={dataset}
          fields={fields}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      )}
      {open && (
        <SyncHistory
          datasetId={dataset.id}
          version={version + (run ? Date.parse(run.completedAt ?? run.createdAt) : 0)}
        />
      )}
    </Paper>
  );
}

/** A channel's datasets: source connections with their last sync, refresh, "Sync now" and history. */
export function DatasetsPanel({
  channelId,
  canImport,
  version,
  onSynced,
}: {
  channelId: string;
  canImport: boolean;
  version: number;
  onSynced?: () => void;
}) {
  const datasets = useGraphQL<{ channel: { datasets: DatasetView[] } }>(SQ.datasets, { id: channelId, version });
  // Source connections only: a file's imports and API pushes are in the channel's datasets and
  // import history below, and have no sync to show here.
  const list = (datasets.data?.channel.datasets ?? []).filter((d) => d.pluginId !== null);
  const syncing = list.some((d) => active(d.lastImport));
  const { refetch } = datasets;
  // The settings each source declares, to show and edit a connection's.
  const sources = useGraphQL<{ channelPluginSources: PluginSource[] }>(SQ.sources, {});
  const fieldsOf = (d: DatasetView) =>
    sources.data?.channelPluginSources.find((s) => s.pluginId === d.pluginId && s.kind === d.source)?.settings ?? [];
  // When a sync ends, the channel's data points and chart are read again. A sync can end before
  // the panel ever saw it running, so what is compared is which runs have finished.
  const finishedRuns = datasets.data
    ? list.map((d) => (d.lastImport && !active(d.lastImport) ? d.lastImport.id : '')).join()
    : null;
  const seenFinished = useRef<string | null>(null);
  useEffect(() => {
    if (finishedRuns === null) return;
    if (seenFinished.current !== null && seenFinished.current !== finishedRuns) onSynced?.();
    seenFinished.current = finishedRuns;
  }, [finishedRuns, onSynced]);
  // Live progress while a sync runs.
  useEffect(() => {
    if (!syncing) return;
    const timer = setInterval(() => void refetch(), 1000);
    return () => clearInterval(timer);
  }, [syncing, refetch]);
  if (!list.length) return null;
  return (
    <section aria-labelledby="channel-sources-title">
      <Title order={2} size="h4" id="channel-sources-title" mb="xs">
        Sources
      </Title>
      <Stack gap="xs" component="ul" mb="md" style={{ listStyle: 'none', padding: 0 }}>
        {list.map((d) => (
          <DatasetRow
            key={d.id}
            dataset={d}
            fields={fieldsOf(d)}
            canImport={canImport}
            onChanged={() => void refetch()}
          />
        ))}
      </Stack>
    </section>
  );
}
