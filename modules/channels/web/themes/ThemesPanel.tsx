import { Alert, Anchor, Badge, Button, Group, Paper, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { TQ, type Clustering, type Theme, type Topic } from './api.ts';
import { dataPoints } from '../count.ts';

interface Options {
  sensitivities: Array<{ value: number; label: string }>;
  amounts: Array<{ value: number; label: string }>;
}

function status(c: Clustering): string {
  if (c.status === 'QUEUED') return 'Waiting to find themes…';
  if (c.status === 'RUNNING' && c.takingOver)
    return `The server finding themes stopped at ${Math.round(c.progress * 100)}%; another one is taking over and starts again…`;
  if (c.status === 'RUNNING') return `Finding themes… ${Math.round(c.progress * 100)}%`;
  if (c.status === 'FAILED') return c.error ?? 'Finding themes failed.';
  const how = c.representation === 'local' ? 'the built-in text model' : c.representation;
  return `${dataPoints(c.pointCount ?? 0)} in ${c.themeCount ?? 0} themes, ${c.outlierCount ?? 0} outliers (version ${c.version}, ${how}).`;
}

/** A channel's themes on its page: find them, see them with their growth, open one, its topics and outliers. */
export function ThemesPanel({ channelId }: { channelId: string }) {
  const host = useFieldbook();
  const canEdit = host.permissions.includes('projects:update');
  const clustering = useGraphQL<{ channelClustering: Clustering | null; channelClusteringOptions: Options }>(
    TQ.clustering,
    { channelId },
  );
  const themes = useGraphQL<{ channelThemes: Theme[] }>(TQ.themes, { channelId });
  const topics = useGraphQL<{ channelTopics: Topic[] }>(TQ.topics, { channelId });
  const emerging = useGraphQL<{
    channelEmergingThemes: Array<{ theme: { id: string }; previousCount: number; currentCount: number }>;
  }>(TQ.emerging, { channelId, interval: 'WEEK', aggregationPeriods: 2 });
  const [sensitivity, setSensitivity] = useState('3');
  const [amount, setAmount] = useState('10');
  const [error, setError] = useState<string | null>(null);
  const current = clustering.data?.channelClustering ?? null;
  const busy = current?.status === 'QUEUED' || current?.status === 'RUNNING';

  useEffect(() => {
    if (!busy) return;
    const t = setInterval(() => void clustering.refetch(), 1000);
    return () => clearInterval(t);
  }, [busy, clustering]);
  useEffect(() => {
    if (current?.status === 'COMPLETED') {
      void themes.refetch();
      void topics.refetch();
      void emerging.refetch();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current?.status, current?.version]);

  async function findThemes() {
    setError(null);
    try {
      await host.graphql(TQ.cluster, { channelId, sensitivity: Number(sensitivity), amount: Number(amount) });
      await clustering.refetch();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const growth = new Map((emerging.data?.channelEmergingThemes ?? []).map((e) => [e.theme.id, e]));
  const options = clustering.data?.channelClusteringOptions;
  const list = themes.data?.channelThemes ?? [];
  return (
    <Paper withBorder p="md" mb="md" component="section" aria-labelledby="themes-heading">
      <Group justify="space-between" align="flex-end" mb="sm">
        <div>
          <Title order={2} size="h4" id="themes-heading">
            Themes
          </Title>
          <Text
            size="sm"
            c={current?.takingOver ? undefined : 'dimmed'}
            fw={current?.takingOver ? 600 : undefined}
            role="status"
          >
            {current ? status(current) : 'Group this channel’s data points into themes by what they say.'}
          </Text>
        </div>
        {canEdit && options && (
          <Group align="flex-end" gap="xs">
            <Select
              label="Sensitivity"
              data={options.sensitivities.map((o) => ({ value: String(o.value), label: o.label }))}
              value={sensitivity}
              onChange={(v) => setSensitivity(v ?? '3')}
              allowDeselect={false}
              w={140}
            />
            <Select
              label="Amount"
              data={options.amounts.map((o) => ({ value: String(o.value), label: `${o.label} (${o.value}%)` }))}
              value={amount}
              onChange={(v) => setAmount(v ?? '10')}
              allowDeselect={false}
              w={170}
            />
            <Button onClick={() => void findThemes()} disabled={busy}>
              {current ? 'Cluster again' : 'Find themes'}
            </Button>
          </Group>
        )}
      </Group>
      {busy && current && (
        <Progress
          value={Math.round(current.progress * 100)}
          aria-label={current.takingOver ? 'Clustering progress, being taken over' : 'Clustering progress'}
          // A run whose server died shows it is waiting, not moving on from its last percent.
          color={current.takingOver ? 'orange' : undefined}
          striped={current.takingOver}
          animated={current.takingOver}
          mb="sm"
        />
      )}
      {error && <Alert color="red">{error}</Alert>}
      {current?.status === 'COMPLETED' && !list.length && (
        <Text c="dimmed">No themes: a channel needs at least 5 data points that share words.</Text>
      )}
      <Stack gap={6} component="ul" aria-label="Themes" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {list.map((t) => {
          const g = growth.get(t.id);
          return (
            <li key={t.id}>
              <Group justify="space-between" wrap="nowrap">
                <div style={{ minWidth: 0 }}>
                  <Anchor component={Link} to={`/channels/${channelId}/themes/${t.id}`} fw={500}>
                    {t.title}
                  </Anchor>
                  {t.topic && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      · {t.topic.title}
                    </Text>
                  )}
                </div>
                <Group gap="xs" wrap="nowrap">
                  {g && g.currentCount > g.previousCount && (
                    <Badge
                      variant="light"
                      color="orange"
                      title={`${g.currentCount} in the last two weeks, ${g.previousCount} the two before`}
                    >
                      +{g.currentCount - g.previousCount} recently
                    </Badge>
                  )}
                  <Text size="sm" c="dimmed">
                    {dataPoints(t.datumCount)}
                  </Text>
                </Group>
              </Group>
            </li>
          );
        })}
      </Stack>
      {current?.status === 'COMPLETED' && (
        <Group gap="md" mt="sm">
          <Anchor component={Link} to={`/channels/${channelId}/outliers`} size="sm">
            Outliers ({current.outlierCount ?? 0})
          </Anchor>
          {(topics.data?.channelTopics ?? []).map((t) => (
            <Anchor key={t.id} component={Link} to={`/t/${t.id}`} size="sm">
              Topic: {t.title}
            </Anchor>
          ))}
        </Group>
      )}
    </Paper>
  );
}
