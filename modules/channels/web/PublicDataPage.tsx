import { Alert, Badge, Box, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { dataPoints } from './count.ts';

interface SharedData {
  objectType: 'channel' | 'dataset';
  sharedAt: string;
  channel: { name: string; description: string | null };
  dataset: { name: string; source: string } | null;
  dataPointCount: number;
  dataPoints: Array<{
    id: string;
    content: string;
    createdAt: string;
    sentiment: 'positive' | 'negative' | 'mixed' | null;
  }>;
}

const QUERY = `query SharedChannelData { sharedChannelData(first: 100) { objectType sharedAt channel { name description } dataset { name source } dataPointCount dataPoints { id content createdAt sentiment } } }`;
const DEAD = 'This link does not exist or is no longer shared. Ask whoever sent it for a new one.';
const SENTIMENT_COLOR = { positive: 'teal', negative: 'red', mixed: 'yellow' } as const;

/**
 * Opened signed out: the request carries the link's token in x-share-token and nothing else (no
 * bearer token, no cookies, no workspace), so it goes straight to the API.
 */
async function fetchShared(token: string, signal: AbortSignal): Promise<SharedData> {
  const res = await fetch('/api/graphql', {
    method: 'POST',
    credentials: 'omit',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      'x-share-token': token,
    },
    body: JSON.stringify({ query: QUERY, variables: {} }),
    signal,
  });
  const body = (await res.json().catch(() => null)) as {
    data?: { sharedChannelData?: SharedData } | null;
    errors?: Array<{ message: string; extensions?: { humanReadable?: boolean } }>;
  } | null;
  const error = body?.errors?.[0];
  if (error || !body?.data?.sharedChannelData) throw new Error(error?.extensions?.humanReadable ? error.message : DEAD);
  return body.data.sharedChannelData;
}

/** /p/data/{shareToken}: a shared channel or dataset, read-only, for anyone with the link. */
export function PublicDataPage() {
  const { shareToken = '' } = useParams();
  const [shared, setShared] = useState<SharedData | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    if (!/^[A-Za-z0-9]{12}$/.test(shareToken)) setError(DEAD);
    else
      fetchShared(shareToken, abort.signal).then(
        setShared,
        (e: unknown) => !abort.signal.aborted && setError((e as Error).message),
      );
    return () => abort.abort();
  }, [shareToken]);
  useEffect(() => {
    if (shared) document.title = `${shared.dataset?.name ?? shared.channel.name} · Fieldbook`;
  }, [shared]);

  return (
    <Box mih="100vh" bg="#f7f8fb">
      <Box component="header" px="lg" py="md" bg="white" style={{ borderBottom: '1px solid #e9ecef' }}>
        <Group justify="space-between">
          <Text fw={700}>Fieldbook</Text>
          <Text size="xs" c="dimmed">
            Shared with a public link
          </Text>
        </Group>
      </Box>
      <Container component="main" size={864} py="xl">
        {error ? (
          <Alert color="gray" title="This link isn’t available">
            {error}
          </Alert>
        ) : !shared ? (
          <Center py="xl" role="status">
            <Loader size="sm" aria-label="Loading the shared feedback" />
          </Center>
        ) : (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 32 }}>
            <Text size="sm" c="dimmed">
              {shared.dataset ? `Dataset of the channel ${shared.channel.name}` : 'Channel'}
            </Text>
            <Title order={1}>{shared.dataset?.name ?? shared.channel.name}</Title>
            {!shared.dataset && shared.channel.description && (
              <Text c="dimmed" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
                {shared.channel.description}
              </Text>
            )}
            <Text size="sm" mt="sm" mb="md">
              {dataPoints(shared.dataPointCount)}
              {shared.dataset ? ` from ${shared.dataset.source}` : ''}
              {shared.dataPointCount > shared.dataPoints.length ? `, the newest ${shared.dataPoints.length} shown` : ''}
            </Text>
            <Stack
              gap="xs"
              component="ul"
              aria-label="Data points"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
            >
              {shared.dataPoints.map((p) => (
                <Paper component="li" key={p.id} withBorder p="sm">
                  <Text style={{ whiteSpace: 'pre-wrap' }}>{p.content}</Text>
                  <Group gap="xs" mt={6}>
                    <Text size="xs" c="dimmed">
                      {new Date(p.createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
                    </Text>
                    {p.sentiment && (
                      <Badge size="xs" variant="light" color={SENTIMENT_COLOR[p.sentiment]}>
                        {p.sentiment}
                      </Badge>
                    )}
                  </Group>
                </Paper>
              ))}
            </Stack>
            <Text size="xs" c="dimmed" ta="center" mt="lg">
              Shared {new Date(shared.sharedAt).toLocaleDateString(undefined, { dateStyle: 'long' })}.
            </Text>
          </Paper>
        )}
      </Container>
    </Box>
  );
}
