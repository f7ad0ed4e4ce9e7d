import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Box, Button, Center, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { isUuid } from '../../src/filters/index.ts';
import { Q, type SavedFeed } from '../api.ts';
import { SearchScreen } from '../search/SearchScreen.tsx';
import { EmptyState, errorCode, ErrorNote, usePageTitle, WIDTHS } from '../ui/frame.tsx';

function FeedNotFound() {
  usePageTitle('Feed not found');
  return (
    <Box maw={WIDTHS.content} mx="auto" mt="xl">
      <EmptyState
        icon={<IconAlertCircle size={22} />}
        title="That saved feed was not found"
        action={
          <Button component={Link} to="/explore">
            Back to Explore
          </Button>
        }
      >
        It may have been deleted, or it is someone else’s feed that is not shared with the workspace.
      </EmptyState>
    </Box>
  );
}

/** /explore/{savedFeedId}: the feed's search, live; its owner can save changes to it. */
export function FeedPage() {
  const { savedFeedId = '' } = useParams();
  const { graphql } = useFieldbook();
  const [feed, setFeed] = useState<SavedFeed | null>(null);
  const [error, setError] = useState<unknown>(null);
  const valid = isUuid(savedFeedId);

  useEffect(() => {
    if (!valid) return;
    let live = true;
    setFeed(null);
    setError(null);
    graphql<{ savedFeed: SavedFeed }>(Q.feed, { id: savedFeedId }).then(
      (d) => live && setFeed(d.savedFeed),
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [graphql, savedFeedId, valid]);

  if (!valid || errorCode(error) === 'NOT_FOUND') return <FeedNotFound />;
  if (error) {
    return (
      <Box maw={WIDTHS.content} mx="auto" mt="xl">
        <ErrorNote error={error} onRetry={() => window.location.reload()} />
      </Box>
    );
  }
  if (!feed) {
    return (
      <Center py="xl" role="status">
        <Loader size="sm" aria-label="Loading the feed" />
      </Center>
    );
  }
  return <SearchScreen key={feed.id} feed={feed} onFeedChange={setFeed} />;
}
