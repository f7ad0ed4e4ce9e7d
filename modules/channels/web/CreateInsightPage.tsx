import { Alert, Anchor, Button, Container, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useFieldbook, useGraphQL } from '@fieldbook/extensions-sdk/web';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { DataPoint } from './api.ts';
import { pointIdsOfHash } from './selection.ts';
import { dataPoints } from './count.ts';

const POINTS = `query InsightPoints($ids: [ID!]!, $channelId: ID!) {
  channelDataPointsById(ids: $ids) { id content createdAt source }
  channel(id: $channelId) { id name }
  projects { id title }
}`;
const MAKE = `mutation CreateInsightFromDataPoints($projectId: ID!, $ids: [ID!]!, $title: String) {
  createInsightFromDataPoints(projectId: $projectId, dataPointIds: $ids, title: $title) { insightId }
}`;

type Point = Pick<DataPoint, 'id' | 'content' | 'createdAt' | 'source'>;

/** /insights/create/{activityWrapId}: an insight made of the data points selected on a channel. */
export function CreateInsightPage() {
  const { activityWrapId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const host = useFieldbook();
  const ids = useMemo(() => pointIdsOfHash(location.hash), [location.hash]);
  const q = useGraphQL<{
    channelDataPointsById: Point[];
    channel: { name: string };
    projects: Array<{ id: string; title: string }>;
  }>(POINTS, { ids, channelId: activityWrapId });
  const [projectId, setProjectId] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const channelName = q.data?.channel.name ?? 'the channel';

  async function create() {
    if (!projectId) return setError('Choose the project the insight goes in.');
    setBusy(true);
    setError(null);
    try {
      const { createInsightFromDataPoints } = await host.graphql<{
        createInsightFromDataPoints: { insightId: string };
      }>(MAKE, { projectId, ids, title: title.trim() || null });
      navigate(`/insights/${createInsightFromDataPoints.insightId}`);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  }

  return (
    <Container size={864} py="lg">
      <Anchor component={Link} to={`/channels/${activityWrapId}`} size="sm">
        Back to the channel
      </Anchor>
      <Title order={1} mt={4} mb="md">
        Create insight
      </Title>
      {!ids.length && (
        <Alert color="yellow">
          No data points are selected. Select them on a channel’s page, then choose Create insight.
        </Alert>
      )}
      {q.error && ids.length > 0 && <Alert color="red">{q.error.message}</Alert>}
      {q.data && (
        <Stack>
          <Paper withBorder p="md">
            <Stack gap="sm">
              <TextInput
                label="Title"
                placeholder={`Insight from ${channelName}`}
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                maxLength={255}
              />
              <Select
                label="Project"
                placeholder="Choose a project"
                data={q.data.projects.map((p) => ({ value: p.id, label: p.title }))}
                value={projectId}
                onChange={setProjectId}
                searchable
                required
              />
              {error && <Alert color="red">{error}</Alert>}
              <Group justify="flex-end">
                <Button onClick={() => void create()} loading={busy} disabled={!ids.length}>
                  Create insight citing {dataPoints(ids.length)}
                </Button>
              </Group>
            </Stack>
          </Paper>
          <section aria-labelledby="cited-heading">
            <Title order={2} size="h4" id="cited-heading" mb="xs">
              Cited data points
            </Title>
            <Text size="sm" c="dimmed" mb="xs">
              The insight quotes each one and links to it as its evidence.
            </Text>
            <Stack
              gap="xs"
              component="ul"
              aria-label="Cited data points"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {q.data.channelDataPointsById.map((p) => (
                <Paper component="li" key={p.id} withBorder p="sm">
                  <Text lineClamp={4}>{p.content}</Text>
                  <Text size="xs" c="dimmed" mt={4}>
                    {new Date(p.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })} · {p.source}
                  </Text>
                </Paper>
              ))}
            </Stack>
          </section>
        </Stack>
      )}
    </Container>
  );
}
