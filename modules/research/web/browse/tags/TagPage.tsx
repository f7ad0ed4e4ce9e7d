import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconHighlight } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { q, type HighlightSummary, type Tag } from '../api.ts';
import { isNotFound } from '../ui/errors.ts';
import { UUID, useLoad } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, NotFoundPanel, PageFrame, SectionLoader } from '../ui/layout.tsx';
import { HighlightRow } from '../project/DocumentList.tsx';
import { FollowButton } from '../ui/FollowButton.tsx';

/** /tags/{tagId}: a tag and the highlights carrying it, each with its note. */
export function TagPage() {
  const { tagId = '' } = useParams();
  const valid = UUID.test(tagId);
  const data = useLoad<{ tag: Tag; tagHighlights: HighlightSummary[] }>(q.tag, { id: tagId }, { skip: !valid });
  const board = useLoad<{ tagBoard: { id: string; projectId: string | null; title: string } }>(
    q.tagBoard,
    { id: data.data?.tag.boardId ?? '' },
    { skip: !data.data },
  );
  if (!valid || isNotFound(data.error))
    return <NotFoundPanel what="This tag" back={{ label: 'Go to projects', to: '/projects' }} />;
  if (data.error && !data.data)
    return <ErrorNote error={data.error} title="The tag could not be loaded" onRetry={() => void data.reload()} />;
  if (!data.data) return <SectionLoader label="Loading the tag…" />;
  const { tag, tagHighlights } = data.data;
  const b = board.data?.tagBoard;
  return (
    <PageFrame
      title={tag.title}
      width="content"
      actions={<FollowButton type="TAG" id={tag.id} what="tag" />}
      crumbs={
        b?.projectId
          ? [
              { label: 'Projects', to: '/projects' },
              { label: b.title, to: `/projects/${b.projectId}/tags/b/${b.id}` },
            ]
          : [{ label: 'Projects', to: '/projects' }]
      }
      description={
        <Group gap={8}>
          <span
            aria-hidden
            style={{ width: 10, height: 10, borderRadius: 99, background: tag.color, display: 'inline-block' }}
          />
          <span>{tag.highlightCount === 1 ? '1 highlight' : `${tag.highlightCount} highlights`}</span>
          {tag.locked && (
            <Badge variant="light" color="gray" radius="sm" size="sm">
              Locked
            </Badge>
          )}
        </Group>
      }
    >
      {tag.description && (
        <Text size="sm" mb="md">
          {tag.description}
        </Text>
      )}
      {tagHighlights.length === 0 ? (
        <EmptyState icon={<IconHighlight size={24} />} title="No highlights with this tag yet">
          Tag a highlight in a note and it appears here.
        </EmptyState>
      ) : (
        <Stack gap={6} component="ul" aria-label="Highlights" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {tagHighlights.map((h) => (
            <HighlightRow key={h.id} h={h} />
          ))}
        </Stack>
      )}
    </PageFrame>
  );
}
