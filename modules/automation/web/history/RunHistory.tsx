import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Badge, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { errorText, Q, STATUS_COLOR, type Run } from '../api.ts';

/** An automation's runs, newest first, filtered by status and date; each with its actions. */
export function RunHistory({ automationId, onRuns }: { automationId: string; onRuns?(runs: Run[]): void }) {
  const host = useFieldbook();
  const [status, setStatus] = useState<string | null>(null);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const vars = {
        id: automationId,
        status,
        since: since ? new Date(`${since}T00:00:00`).toISOString() : null,
        until: until ? new Date(`${until}T23:59:59.999`).toISOString() : null,
      };
      const list = (await host.graphql<{ automationRuns: Run[] }>(Q.runs, vars)).automationRuns;
      setRuns(list);
      onRuns?.(list);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [host, automationId, status, since, until, onRuns]);
  useEffect(() => {
    void load();
    // Runs finish in the background: keep the list fresh while the page is open.
    const timer = setInterval(() => void load(), 3000);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end">
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={['succeeded', 'failed', 'skipped', 'queued', 'running']}
          value={status}
          onChange={setStatus}
        />
        <TextInput label="From" type="date" value={since} onChange={(e) => setSince(e.currentTarget.value)} />
        <TextInput label="To" type="date" value={until} onChange={(e) => setUntil(e.currentTarget.value)} />
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {runs?.length === 0 && (
        <Text c="dimmed" size="sm">
          No runs match.
        </Text>
      )}
      {runs?.map((run) => (
        <Paper key={run.id} withBorder p="sm" radius="sm" data-testid="run">
          <Group justify="space-between">
            <Group gap="xs">
              <Badge color={STATUS_COLOR[run.status]} variant="light">
                {run.status}
              </Badge>
              <Text size="sm" fw={600}>
                {run.eventKey}
              </Text>
              <Text size="sm" c="dimmed">
                {new Date(run.createdAt).toLocaleString()}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              Rules {run.ruleResult ? 'held' : 'did not hold'}
              {run.durationMs !== null ? ` · ${run.durationMs} ms` : ''}
            </Text>
          </Group>
          {run.error && (
            <Text size="sm" c="red.8" mt={4}>
              {run.error}
            </Text>
          )}
          {run.actions.length > 0 && (
            <Stack gap={2} mt="xs" component="ol" style={{ paddingLeft: 20, margin: 0 }}>
              {run.actions.map((a) => (
                <Text key={a.position} size="sm" component="li">
                  {a.actionType}: {a.status}
                  {a.attempts > 1 ? ` after ${a.attempts} tries` : ''}
                  {a.output?.summary ? ` · ${a.output.summary}` : ''}
                  {a.error ? ` · ${a.error}` : ''}
                </Text>
              ))}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}
