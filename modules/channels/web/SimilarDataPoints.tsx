import { Alert, Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useGraphQL } from '@fieldbook/extensions-sdk/web';
import { Link } from 'react-router';
import type { DataPoint } from './api.ts';

const SIMILAR = `query SimilarDataPoints($id: ID!) { channelSimilarDataPoints(id: $id, first: 5) { similarity dataPoint { id channelId content createdAt source } } }`;

type Similar = {
  similarity: number;
  dataPoint: Pick<DataPoint, 'id' | 'channelId' | 'content' | 'createdAt' | 'source'>;
};

/** The data point page's "Similar" section: the same channel's points that start most alike. */
export function SimilarDataPoints({ id }: { id: string }) {
  const similar = useGraphQL<{ channelSimilarDataPoints: Similar[] }>(SIMILAR, { id });
  const rows = similar.data?.channelSimilarDataPoints;
  return (
    <section aria-labelledby="similar-heading">
      <Title order={2} size="h4" id="similar-heading" mb="xs">
        Similar
      </Title>
      {similar.error && <Alert color="red">{similar.error.message}</Alert>}
      {rows && !rows.length && <Text c="dimmed">No data point in this channel starts with similar words.</Text>}
      <Stack
        gap="xs"
        component="ul"
        aria-label="Similar data points"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {rows?.map(({ similarity, dataPoint: d }) => (
          <Paper component="li" key={d.id} withBorder p="sm">
            <Anchor component={Link} to={`/channels/${d.channelId}/data/${d.id}`} c="inherit" underline="never">
              <Text lineClamp={2}>{d.content}</Text>
            </Anchor>
            <Group gap="xs" mt={4}>
              <Badge size="xs" variant="light" color="gray">
                {Math.round(similarity * 100)}% alike
              </Badge>
              <Text size="xs" c="dimmed">
                {new Date(d.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
              </Text>
            </Group>
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
