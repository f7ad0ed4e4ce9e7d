import { Alert, Badge, Paper, ScrollArea, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect } from 'react';
import type { ChannelImport } from './api.ts';
import { ShareButton } from './ShareButton.tsx';

type ImportRow = ChannelImport & { datasetId: string; createdAt: string; completedAt: string | null };
interface Dataset {
  id: string;
  name: string;
  source: string;
  createdAt: string;
  pointCount: number;
  lastImport: Pick<ImportRow, 'id' | 'status' | 'createdAt' | 'recordsFailed'> | null;
}

const DATASETS = `query ChannelDatasets($id: ID!, $channelId: ID!) {
  channel(id: $id) { id datasets { id name source createdAt pointCount lastImport { id status createdAt recordsFailed } } }
  channelImports(channelId: $channelId) { id datasetId status recordsRead recordsCreated recordsUpdated recordsSkipped recordsFailed failures { line externalId reason } error createdAt completedAt }
}`;

const STATUS_COLOR = { QUEUED: 'gray', RUNNING: 'blue', COMPLETED: 'teal', FAILED: 'red' } as const;
const STATUS_LABEL = { QUEUED: 'Queued', RUNNING: 'Running', COMPLETED: 'Completed', FAILED: 'Failed' } as const;
/** Failures shown per import; the import keeps up to 1000 with their reasons. */
const SHOWN_FAILURES = 20;
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const Status = ({ status }: { status: ChannelImport['status'] }) => (
  <Badge size="sm" variant="light" color={STATUS_COLOR[status]}>
    {STATUS_LABEL[status]}
  </Badge>
);

/** The channel page's datasets (source, created, size, last import) and its import history. */
export function ChannelDatasets({ channelId, refreshKey }: { channelId: string; refreshKey: number }) {
  const q = useGraphQL<{ channel: { datasets: Dataset[] }; channelImports: ImportRow[] }>(DATASETS, {
    id: channelId,
    channelId,
  });
  const { refetch } = q;
  useEffect(() => {
    if (refreshKey) void refetch();
  }, [refreshKey, refetch]);
  const datasets = q.data?.channel.datasets ?? [];
  const imports = q.data?.channelImports ?? [];
  const nameOf = new Map(datasets.map((d) => [d.id, d.name]));
  return (
    <>
      <section aria-labelledby="datasets-heading">
        <Title order={2} size="h3" id="datasets-heading" mt="xl" mb="xs">
          Datasets
        </Title>
        {q.error && <Alert color="red">{q.error.message}</Alert>}
        {q.data && !datasets.length && (
          <Text c="dimmed">No datasets yet: each CSV import, and the first API push, makes one.</Text>
        )}
        {!!datasets.length && (
          <Paper withBorder>
            <ScrollArea>
              <Table aria-label="Datasets" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th ta="right">Data points</Table.Th>
                    <Table.Th>Last import</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {datasets.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td>{d.name}</Table.Td>
                      <Table.Td>{d.source}</Table.Td>
                      <Table.Td>{when(d.createdAt)}</Table.Td>
                      <Table.Td ta="right">{d.pointCount.toLocaleString()}</Table.Td>
                      <Table.Td>
                        {d.lastImport ? (
                          <>
                            <Status status={d.lastImport.status} />{' '}
                            <Text span size="xs" c="dimmed">
                              {when(d.lastImport.createdAt)}
                              {d.lastImport.recordsFailed
                                ? ` · ${d.lastImport.recordsFailed.toLocaleString()} failed`
                                : ''}
                            </Text>
                          </>
                        ) : (
                          <Text span size="sm" c="dimmed">
                            Pushed with the API
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <ShareButton objectType="dataset" objectId={d.id} name={d.name} compact />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Paper>
        )}
      </section>
      <section aria-labelledby="imports-heading">
        <Title order={2} size="h3" id="imports-heading" mt="xl" mb="xs">
          Import history
        </Title>
        {q.data && !imports.length && <Text c="dimmed">No imports yet.</Text>}
        {!!imports.length && (
          <Paper withBorder>
            <ScrollArea>
              <Table aria-label="Import history">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Dataset</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th ta="right">Read</Table.Th>
                    <Table.Th ta="right">Created</Table.Th>
                    <Table.Th ta="right">Updated</Table.Th>
                    <Table.Th ta="right">Skipped</Table.Th>
                    <Table.Th ta="right">Failed</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {imports.map((i) => (
                    <ImportLine key={i.id} run={i} dataset={nameOf.get(i.datasetId) ?? 'Dataset'} />
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Paper>
        )}
      </section>
    </>
  );
}

function ImportLine({ run, dataset }: { run: ImportRow; dataset: string }) {
  const n = (v: number) => v.toLocaleString();
  return (
    <>
      <Table.Tr>
        <Table.Td>{when(run.createdAt)}</Table.Td>
        <Table.Td>{dataset}</Table.Td>
        <Table.Td>
          <Status status={run.status} />
        </Table.Td>
        <Table.Td ta="right">{n(run.recordsRead)}</Table.Td>
        <Table.Td ta="right">{n(run.recordsCreated)}</Table.Td>
        <Table.Td ta="right">{n(run.recordsUpdated)}</Table.Td>
        <Table.Td ta="right">{n(run.recordsSkipped)}</Table.Td>
        <Table.Td ta="right">{n(run.recordsFailed)}</Table.Td>
      </Table.Tr>
      {(run.error || run.failures.length > 0) && (
        <Table.Tr>
          <Table.Td colSpan={8}>
            {run.error && (
              <Text size="sm" c="red.8">
                {run.error}
              </Text>
            )}
            {run.failures.length > 0 && (
              <details>
                <summary>
                  <Text span size="sm">
                    {run.failures.length === 1 ? '1 failed record' : `${n(run.failures.length)} failed records`} with
                    their reasons
                  </Text>
                </summary>
                <Table aria-label="Failed records" withRowBorders={false} mt={4}>
                  <Table.Tbody>
                    {run.failures.slice(0, SHOWN_FAILURES).map((f, k) => (
                      <Table.Tr key={k}>
                        <Table.Td w={140}>{f.line !== null ? `Line ${f.line}` : (f.externalId ?? '')}</Table.Td>
                        <Table.Td>{f.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {run.failures.length > SHOWN_FAILURES && (
                  <Text size="xs" c="dimmed">
                    And {n(run.failures.length - SHOWN_FAILURES)} more.
                  </Text>
                )}
              </details>
            )}
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
