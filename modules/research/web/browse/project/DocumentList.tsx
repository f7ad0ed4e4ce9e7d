import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBulb, IconFileText, IconHighlight, IconLock } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { q, type Connection, type DocumentSummary, type HighlightSummary } from '../api.ts';
import { timeAgo } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, SectionLoader } from '../ui/layout.tsx';

const PAGE = 25;

/** A cursor-paginated list: the first page, then "Load more" appends the next. */
function usePages<T>(query: string, field: string, variables: Record<string, unknown>) {
  const { graphql } = useFieldbook();
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const key = JSON.stringify(variables);

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        const data = await graphql<Record<string, Connection<T>>>(query, { ...(JSON.parse(key) as Record<string, unknown>), first: PAGE, after });
        const page = data[field]!;
        setItems((prev) => (after && prev ? [...prev, ...page.nodes] : page.nodes));
        setCursor(page.endCursor);
        setMore(page.hasNextPage);
      } catch (err) {
        setError(err);
      } finally {
        setLoading(false);
      }
    },
    [graphql, query, field, key],
  );

  useEffect(() => {
    setItems(null);
    void load(null);
  }, [load]);

  return { items, more, loading, error, loadMore: () => void load(cursor), reload: () => void load(null) };
}

function LoadMore({ more, loading, onClick, what }: { more: boolean; loading: boolean; onClick(): void; what: string }) {
  if (!more) return null;
  return (
    <Group justify="center" mt="md">
      <Button variant="default" onClick={onClick} loading={loading}>
        Load more {what}
      </Button>
    </Group>
  );
}

export function DocumentRow({ doc, kind, showProject }: { doc: DocumentSummary; kind: 'note' | 'insight'; showProject?: boolean }) {
  const to = kind === 'note' ? `/data/${doc.id}` : `/insights/${doc.id}`;
  const Icon = kind === 'note' ? IconFileText : IconBulb;
  return (
    <Paper withBorder px="md" py="sm" component="li">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Icon size={18} aria-hidden color="#5c6370" style={{ flexShrink: 0 }} />
          <div style={{ minWidth: 0 }}>
            <Anchor component={Link} to={to} fw={500} c="dark" truncate display="block">
              {doc.title || (kind === 'note' ? 'Untitled note' : 'Untitled insight')}
            </Anchor>
            {showProject && doc.project && (
              <Text size="xs" c="dimmed" truncate>
                in {doc.project.title}
              </Text>
            )}
          </div>
        </Group>
        <Group gap={6} wrap="nowrap">
          {doc.published && (
            <Badge variant="light" color="teal" radius="sm">
              Published
            </Badge>
          )}
          {doc.archived && (
            <Badge variant="light" color="gray" radius="sm">
              Archived
            </Badge>
          )}
          {doc.locked && <IconLock size={14} aria-label="Locked" />}
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {timeAgo(doc.updatedAt)}
          </Text>
        </Group>
      </Group>
    </Paper>
  );
}

export function DocumentList({ projectId, kind, canCreate, onCreate, creating }: { projectId: string; kind: 'note' | 'insight'; canCreate: boolean; onCreate(): void; creating: boolean }) {
  const pages = usePages<DocumentSummary>(kind === 'note' ? q.notes : q.insights, kind === 'note' ? 'notes' : 'insights', { projectId });
  const plural = kind === 'note' ? 'notes' : 'insights';
  if (pages.error && !pages.items) return <ErrorNote error={pages.error} title={`The ${plural} could not be loaded`} onRetry={pages.reload} />;
  if (!pages.items) return <SectionLoader label={`Loading ${plural}…`} />;
  if (!pages.items.length) {
    return (
      <EmptyState
        icon={kind === 'note' ? <IconFileText size={24} /> : <IconBulb size={24} />}
        title={kind === 'note' ? 'No notes yet' : 'No insights yet'}
        action={
          canCreate ? (
            <Button onClick={onCreate} loading={creating}>
              {kind === 'note' ? 'New note' : 'New insight'}
            </Button>
          ) : undefined
        }
      >
        {kind === 'note' ? 'Notes hold interview transcripts, observations and feedback. Highlight what matters and tag it.' : 'Insights sum up what you learned, citing the evidence. Publish them for your team.'}
      </EmptyState>
    );
  }
  return (
    <>
      <Stack gap={6} component="ul" aria-label={kind === 'note' ? 'Notes' : 'Insights'} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {pages.items.map((d) => (
          <DocumentRow key={d.id} doc={d} kind={kind} />
        ))}
      </Stack>
      {pages.error ? <ErrorNote error={pages.error} onRetry={pages.loadMore} /> : null}
      <LoadMore more={pages.more} loading={pages.loading} onClick={pages.loadMore} what={plural} />
    </>
  );
}

export function HighlightRow({ h }: { h: HighlightSummary }) {
  return (
    <Paper withBorder p="md" component="li">
      <Text size="sm" style={{ borderLeft: `3px solid ${h.displayColor ?? 'rgba(250, 176, 5, 0.6)'}`, paddingLeft: 10 }}>
        “{h.text}”
      </Text>
      {h.note && (
        <Text size="xs" c="dimmed" mt={6}>
          From{' '}
          <Anchor component={Link} to={`/data/${h.note.id}`} size="xs">
            {h.note.title || 'Untitled note'}
          </Anchor>
          {h.note.project && <> · {h.note.project.title}</>} · {timeAgo(h.createdAt)}
        </Text>
      )}
    </Paper>
  );
}

const HIGHLIGHTS = `query BrowseProjectHighlights($projectId: ID!, $first: Int, $after: String) { highlights(projectId: $projectId, first: $first, after: $after) {
  nodes { id text displayColor createdAt noteId note { id title project { id title } } } endCursor hasNextPage } }`;

export function HighlightList({ projectId }: { projectId: string }) {
  const pages = usePages<HighlightSummary>(HIGHLIGHTS, 'highlights', { projectId });
  if (pages.error && !pages.items) return <ErrorNote error={pages.error} title="The highlights could not be loaded" onRetry={pages.reload} />;
  if (!pages.items) return <SectionLoader label="Loading highlights…" />;
  if (!pages.items.length) {
    return (
      <EmptyState icon={<IconHighlight size={24} />} title="No highlights yet">
        Select text in a note to highlight it; highlights of this project’s notes appear here, newest first.
      </EmptyState>
    );
  }
  return (
    <>
      <Stack gap={6} component="ul" aria-label="Highlights" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {pages.items.map((h) => (
          <HighlightRow key={h.id} h={h} />
        ))}
      </Stack>
      <LoadMore more={pages.more} loading={pages.loading} onClick={pages.loadMore} what="highlights" />
    </>
  );
}
