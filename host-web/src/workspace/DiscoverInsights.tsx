import { Anchor, Button, Card, Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useQuery } from '../api/hooks.ts';
import { ErrorAlert } from '../common/ErrorAlert.tsx';
import { SectionLoader } from '../common/Loading.tsx';

interface PublishedInsight {
  id: string;
  title: string;
  publishedAt: string | null;
  project: { id: string; title: string };
}

const PUBLISHED = `query HomePublishedInsights { recentInsights(first: 6, published: true) { id title publishedAt project { id title } } }`;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The home's "Discover new insights": the insights published in readable projects, newest first. */
export function DiscoverInsights() {
  const q = useQuery<{ recentInsights: PublishedInsight[] }>(PUBLISHED);
  if (q.error && !q.data) return <ErrorAlert error={q.error} title="Published insights could not be loaded" />;
  if (!q.data) return <SectionLoader label="Loading published insights…" />;
  const insights = q.data.recentInsights;
  if (!insights.length) {
    return (
      <Paper withBorder p="xl" ta="center">
        <ThemeIcon size={44} radius="xl" variant="light" color="indigo" mx="auto" mb="sm" aria-hidden>
          <IconBulb size={24} />
        </ThemeIcon>
        <Text fw={600}>No published insights yet</Text>
        <Text size="sm" c="dimmed" maw={420} mx="auto" mt={4}>
          When your team publishes insights, the newest appear here so everyone can learn from them.
        </Text>
      </Paper>
    );
  }
  return (
    <>
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="md"
        component="ul"
        aria-label="Published insights"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {insights.map((i) => (
          <Card key={i.id} withBorder padding="md" component="li">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon size={30} radius="md" variant="light" color="teal" aria-hidden>
                <IconBulb size={18} />
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Anchor component={Link} to={`/insights/${i.id}`} fw={600} c="dark" lineClamp={2}>
                  {i.title || 'Untitled insight'}
                </Anchor>
                <Text size="xs" c="dimmed" mt={4}>
                  {i.project.title}
                  {i.publishedAt ? ` · published ${dateFormat.format(new Date(i.publishedAt))}` : ''}
                </Text>
              </div>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      <Button component={Link} to="/recent/insights" variant="subtle" mt="xs" w="fit-content">
        See all recent insights
      </Button>
    </>
  );
}
