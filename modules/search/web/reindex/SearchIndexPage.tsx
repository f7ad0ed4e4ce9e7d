import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { PageFrame } from '../ui/frame.tsx';
import { ReindexPanel } from './ReindexPanel.tsx';

/** /search/index: the workspace's search index, for workspace admins. */
export function SearchIndexPage() {
  return (
    <PageFrame
      title="Search index"
      description="How search finds your research, and rebuilding its index."
      eyebrow={
        <Anchor component={Link} to="/search" size="sm">
          Back to search
        </Anchor>
      }
    >
      <ReindexPanel />
    </PageFrame>
  );
}
