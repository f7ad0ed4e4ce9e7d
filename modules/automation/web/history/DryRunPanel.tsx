import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Alert, Badge, Button, Code, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { errorText, Q, type DryRunResult, type Run } from '../api.ts';

/** What the automation would do for a recent event or a sample payload; nothing is executed. */
export function DryRunPanel({ automationId, runs }: { automationId: string; runs: Run[] }) {
  const host = useFieldbook();
  const [runId, setRunId] = useState<string | null>(runs[0]?.id ?? null);
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<DryRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const go = async () => {
    try {
      let payload: unknown;
      if (sample.trim()) {
        try {
          payload = JSON.parse(sample);
        } catch {
          setError('The sample payload is not valid JSON.');
          return;
        }
      }
      setResult(
        (
          await host.graphql<{ dryRunAutomation: DryRunResult }>(Q.dryRun, {
            id: automationId,
            runId: sample.trim() ? null : runId,
            payload,
          })
        ).dryRunAutomation,
      );
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Try the automation against a recent event, or paste a sample payload. Nothing is created, tagged or sent.
      </Text>
      <Select
        label="Recent event"
        placeholder="None yet"
        data={runs.map((r) => ({ value: r.id, label: `${r.eventKey} · ${new Date(r.createdAt).toLocaleString()}` }))}
        value={runId}
        onChange={setRunId}
        disabled={Boolean(sample.trim())}
      />
      <Textarea
        label="Or a sample payload (JSON)"
        autosize
        minRows={3}
        value={sample}
        onChange={(e) => setSample(e.currentTarget.value)}
      />
      <Button onClick={() => void go()} w="fit-content" disabled={!runId && !sample.trim()}>
        Dry run
      </Button>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {result && (
        <Paper withBorder p="sm" data-testid="dry-run-result">
          <Group gap="xs" mb="xs">
            <Text fw={600}>{result.eventKey}</Text>
            <Badge color={result.ruleResult ? 'teal' : 'gray'} variant="light">
              {result.ruleResult
                ? 'would run'
                : result.configureMatches
                  ? 'rules do not hold'
                  : 'not this automation’s project'}
            </Badge>
          </Group>
          <Stack gap={4}>
            {result.steps.map((s) => (
              <div key={s.position}>
                <Text size="sm">
                  {s.position + 1}. {s.title}: {s.wouldRun ? 'would run' : 'would not run'}
                  {s.problem ? ` (${s.problem})` : ''}
                </Text>
                <Code block>{JSON.stringify(s.parameters, null, 2)}</Code>
              </div>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
