import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { when, type PagePoint } from './api.ts';
import { dataPoints } from '../count.ts';

interface Page {
  totalCount: number;
  hasNextPage: boolean;
  nodes: PagePoint[];
}

/** Data points of a theme or of the outliers, newest first, a page at a time. */
export function PointList({
  query,
  variables,
  field,
  linkBase,
  label,
  pageSize = 10,
}: {
  query: string;
  variables: Record<string, unknown>;
  field: string;
  linkBase: string;
  label: string;
  pageSize?: number;
}) {
  const host = useFieldbook();
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(variables);
  const load = useCallback(
    async (offset: number) => {
      try {
        const data = await host.graphql<Record<string, Page>>(query, { ...variables, first: pageSize, offset });
        const next = data[field]!;
        setPage((prev) => (offset && prev ? { ...next, nodes: [...prev.nodes, ...next.nodes] } : next));
      } catch (e) {
        setError((e as Error).message);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [host, query, key, field, pageSize],
  );
  useEffect(() => {
    void load(0);
  }, [load]);
  return (
    <>
      {error && <Text c="red">{error}</Text>}
      {page && (
        <Text size="sm" c="dimmed" mb="xs">
          {dataPoints(page.totalCount)}
        </Text>
      )}
      <Stack gap="xs" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {page?.nodes.map((p) => (
          <Paper component="li" key={p.id} withBorder p="sm">
            <Anchor component={Link} to={`${linkBase}/${p.id}`} c="inherit" underline="never">
              <Text lineClamp={3}>{p.content}</Text>
            </Anchor>
            <Group gap="xs" mt={6}>
              <Text size="xs" c="dimmed">
                {when(p.createdAt)}
              </Text>
              {p.person && (
                <Text size="xs" c="dimmed">
                  · {p.person.name}
                </Text>
              )}
              {p.sentiment && (
                <Badge size="xs" variant="light" color="gray">
                  {p.sentiment}
                </Badge>
              )}
            </Group>
          </Paper>
        ))}
      </Stack>
      {page?.hasNextPage && (
        <Button variant="default" mt="md" onClick={() => void load(page.nodes.length)}>
          Show more
        </Button>
      )}
    </>
  );
}
