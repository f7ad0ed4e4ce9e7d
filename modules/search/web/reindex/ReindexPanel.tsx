import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Q, type SearchReindex } from '../api.ts';
import { describeError } from '../ui/frame.tsx';

/** How often the panel asks for progress while a reindex is under way. */
const POLL_MS = 1000;
const underWay = (r: SearchReindex | null) => r !== null && (r.state === 'QUEUED' || r.state === 'RUNNING');

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');

/** What the panel says under the bar, by state. */
function describe(r: SearchReindex): string {
  switch (r.state) {
    case 'QUEUED':
      return 'Waiting for a worker to start the reindex…';
    case 'RUNNING':
      return r.total > 0
        ? `${r.processed.toLocaleString()} of ${r.total.toLocaleString()} items indexed`
        : 'Counting the items to index…';
    case 'DONE':
      return `${r.processed.toLocaleString()} items indexed, finished ${when(r.finishedAt)}.`;
    case 'FAILED':
      return `The reindex stopped after ${r.processed.toLocaleString()} items${r.error ? `: ${r.error}` : '.'} Start it again to retry.`;
    default:
      return 'The index follows every change by itself. Rebuild it after restoring a backup, or if results look out of date.';
  }
}

/**
 * Rebuilding the workspace's search index (workspace admins): starts a reindex and shows its
 * progress live, polling while it runs. With the PostgreSQL engine there is no index to rebuild.
 */
export function ReindexPanel() {
  const host = useFieldbook();
  const [status, setStatus] = useState<SearchReindex | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus((await host.graphql<{ searchReindex: SearchReindex }>(Q.reindexStatus)).searchReindex);
      setError(null);
    } catch (err) {
      setError(describeError(err).message);
    }
  }, [host]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (!underWay(status)) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [status, load]);

  const start = async () => {
    setStarting(true);
    try {
      setStatus((await host.graphql<{ reindexSearch: SearchReindex }>(Q.reindex)).reindexSearch);
      setError(null);
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setStarting(false);
    }
  };

  if (status?.state === 'NOT_NEEDED') {
    return (
      <Paper withBorder p="md" radius="md" data-testid="search-reindex">
        <Text fw={600}>Search index</Text>
        <Text size="sm" c="dimmed">
          Search reads your research directly from the database, so there is no separate index and no reindex is needed.
        </Text>
      </Paper>
    );
  }
  const percent =
    status && status.total > 0
      ? Math.min(100, Math.round((status.processed / status.total) * 100))
      : status?.state === 'DONE'
        ? 100
        : 0;
  return (
    <Paper withBorder p="md" radius="md" data-testid="search-reindex">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={600}>Search index</Text>
            <Text size="sm" c="dimmed">
              {status ? `Kept by ${status.engine === 'typesense' ? 'Typesense' : status.engine}.` : 'Loading…'}
            </Text>
          </div>
          <Button
            leftSection={<IconRefresh size={16} />}
            variant="default"
            onClick={() => void start()}
            loading={starting}
            disabled={!status || underWay(status)}
          >
            {underWay(status) ? 'Reindexing…' : 'Reindex now'}
          </Button>
        </Group>
        {status && status.state !== 'IDLE' && (
          <Progress
            value={percent}
            animated={underWay(status)}
            color={status.state === 'FAILED' ? 'red' : status.state === 'DONE' ? 'teal' : 'blue'}
            aria-label="Reindex progress"
          />
        )}
        {status && (
          <Text size="sm" c={status.state === 'FAILED' ? 'red' : 'dimmed'} aria-live="polite">
            {describe(status)}
          </Text>
        )}
        {error && (
          <Alert color="red" title="Could not reach the search index">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
