import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBookmarks, IconSearch, IconTrash } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { normalizeFilter, parseFilter, SEARCH_OBJECT_LABELS } from '../../src/filters/index.ts';
import { Q, type SavedFeed } from '../api.ts';
import { describeError, EmptyState, ErrorNote, PageFrame } from '../ui/frame.tsx';

function conditionCount(feed: SavedFeed): number {
  try {
    return normalizeFilter(parseFilter(feed.filter))?.forms.length ?? 0;
  } catch {
    return 0;
  }
}

/** A feed in words: its text, how many conditions, which results. */
function summary(feed: SavedFeed): string {
  const parts: string[] = [];
  if (feed.query) parts.push(`“${feed.query}”`);
  const n = conditionCount(feed);
  if (n) parts.push(`${n} ${n === 1 ? 'condition' : 'conditions'}`);
  parts.push(feed.resultTypes.length ? feed.resultTypes.map((t) => SEARCH_OBJECT_LABELS[t]).join(', ') : 'Everything');
  return parts.join(' · ');
}

function FeedCard({ feed, onDelete }: { feed: SavedFeed; onDelete(feed: SavedFeed): void }) {
  return (
    <Card withBorder radius="md" padding="md" component="li" h="100%">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Anchor
          component={Link}
          to={`/explore/${feed.id}`}
          fw={600}
          c="dark.7"
          lineClamp={2}
          style={{ overflowWrap: 'anywhere' }}
        >
          {feed.title}
        </Anchor>
        {feed.canDelete && (
          <Tooltip label="Delete feed">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Delete the feed ${feed.title}`}
              onClick={() => onDelete(feed)}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Text size="sm" c="dimmed" mt={6} lineClamp={2}>
        {summary(feed)}
      </Text>
      <Group gap={6} mt="sm">
        {feed.shared && (
          <Badge size="sm" variant="light" color="teal" radius="sm">
            Shared
          </Badge>
        )}
        {!feed.isOwn && (
          <Text size="xs" c="dimmed">
            by {feed.createdBy?.name || 'a former member'}
          </Text>
        )}
      </Group>
    </Card>
  );
}

function FeedList({ label, feeds, onDelete }: { label: string; feeds: SavedFeed[]; onDelete(feed: SavedFeed): void }) {
  return (
    <Stack gap="sm" component="section" aria-label={label}>
      <Title order={2} fz="lg">
        {label}
      </Title>
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 3 }}
        spacing="sm"
        component="ul"
        aria-label={label}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {feeds.map((feed) => (
          <FeedCard key={feed.id} feed={feed} onDelete={onDelete} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** /explore (000 §2): the saved feeds, the person's own and those shared with the workspace. */
export function ExplorePage() {
  const { graphql } = useFieldbook();
  const [feeds, setFeeds] = useState<SavedFeed[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    setError(null);
    try {
      setFeeds((await graphql<{ savedFeeds: SavedFeed[] }>(Q.feeds)).savedFeeds);
    } catch (err) {
      setError(err);
    }
  }, [graphql]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = async (feed: SavedFeed) => {
    if (!window.confirm(`Delete the feed “${feed.title}”? The notes and insights it finds stay as they are.`)) return;
    try {
      await graphql(Q.deleteFeed, { id: feed.id });
      setFeeds((list) => list?.filter((f) => f.id !== feed.id) ?? null);
      notifications.show({ color: 'teal', message: `Deleted “${feed.title}”.` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Feed not deleted', message: describeError(err).message });
    }
  };

  const own = feeds?.filter((f) => f.isOwn) ?? [];
  const shared = feeds?.filter((f) => !f.isOwn) ?? [];
  return (
    <PageFrame
      title="Explore"
      description="Saved feeds keep a search and its filter, so you can come back to what matches."
      actions={
        <Button component={Link} to="/search" leftSection={<IconSearch size={16} aria-hidden />}>
          New search
        </Button>
      }
    >
      {error ? <ErrorNote error={error} onRetry={() => void load()} /> : null}
      {!feeds && !error && (
        <Center py="xl" role="status">
          <Loader size="sm" aria-label="Loading feeds" />
        </Center>
      )}
      {feeds && feeds.length === 0 && (
        <EmptyState
          icon={<IconBookmarks size={22} />}
          title="No saved feeds yet"
          action={
            <Button component={Link} to="/search" variant="light">
              Go to search
            </Button>
          }
        >
          Search, narrow it down with a filter, then choose “Save as feed”. Share a feed to list it here for the whole
          workspace.
        </EmptyState>
      )}
      {feeds && feeds.length > 0 && (
        <Stack gap="xl">
          {own.length > 0 && <FeedList label="Your feeds" feeds={own} onDelete={(f) => void remove(f)} />}
          {shared.length > 0 && (
            <FeedList label="Shared with the workspace" feeds={shared} onDelete={(f) => void remove(f)} />
          )}
        </Stack>
      )}
    </PageFrame>
  );
}
