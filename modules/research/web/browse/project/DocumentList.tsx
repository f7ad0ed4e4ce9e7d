import { Anchor, Badge, Button, Checkbox, Group, Paper, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconBulb, IconFileText, IconLock, IconUser } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Connection, DocumentSummary, HighlightSummary } from '../api.ts';
import { formatDate, timeAgo } from '../ui/hooks.ts';
import { WrittenByAi } from '../ui/WrittenByAi.tsx';

const PAGE = 25;

/** A cursor-paginated list: the first page, then "Load more" appends the next. */
export function usePages<T>(query: string, field: string, variables: Record<string, unknown>) {
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
        const data = await graphql<Record<string, Connection<T>>>(query, {
          ...(JSON.parse(key) as Record<string, unknown>),
          first: PAGE,
          after,
        });
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

  return {
    items,
    more,
    loading,
    error,
    loadMore: () => void load(cursor),
    reload: () => void load(null),
    remove: (ids: readonly string[]) =>
      setItems((prev) => prev && prev.filter((i) => !ids.includes((i as { id: string }).id))),
  };
}

export function LoadMore({
  more,
  loading,
  onClick,
  what,
}: {
  more: boolean;
  loading: boolean;
  onClick(): void;
  what: string;
}) {
  if (!more) return null;
  return (
    <Group justify="center" mt="md">
      <Button variant="default" onClick={onClick} loading={loading}>
        Load more {what}
      </Button>
    </Group>
  );
}

export interface RowSelection {
  checked: boolean;
  onToggle(): void;
}

export function DocumentRow({
  doc,
  kind,
  showProject,
  selection,
  menu,
}: {
  doc: DocumentSummary;
  kind: 'note' | 'insight';
  showProject?: boolean;
  selection?: RowSelection;
  menu?: ReactNode;
}) {
  const to = kind === 'note' ? `/data/${doc.id}` : `/insights/${doc.id}`;
  const Icon = kind === 'note' ? IconFileText : IconBulb;
  const title = doc.title || (kind === 'note' ? 'Untitled note' : 'Untitled insight');
  const highlightCount = doc.highlightCount ?? doc.highlights?.length;
  return (
    <Paper withBorder px="md" py="sm" component="li" bg={selection?.checked ? 'indigo.0' : undefined}>
      <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }} align="flex-start">
          {selection && (
            <Checkbox
              mt={2}
              checked={selection.checked}
              onChange={selection.onToggle}
              aria-label={`Select “${title}”`}
            />
          )}
          <Icon size={18} aria-hidden color="#5c6370" style={{ flexShrink: 0, marginTop: 2 }} />
          <div style={{ minWidth: 0 }}>
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Anchor component={Link} to={to} fw={500} c="dark" truncate display="block">
                {title}
              </Anchor>
              <WrittenByAi maker={doc.createdBy} size="xs" />
            </Group>
            {showProject && doc.project && (
              <Text size="xs" c="dimmed" truncate>
                in {doc.project.title}
              </Text>
            )}
            {doc.preview ? (
              <Text size="sm" c="gray.7" lineClamp={2} mt={2}>
                {doc.preview}
              </Text>
            ) : null}
            {(doc.people?.length || doc.rowTags?.length || highlightCount !== undefined) && (
              <Group gap={6} mt={4}>
                {doc.rowTags?.map((t) => (
                  <Badge
                    key={t.id}
                    size="sm"
                    radius="sm"
                    variant="light"
                    color="gray"
                    tt="none"
                    leftSection={
                      <span
                        aria-hidden
                        style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 8, background: t.color }}
                      />
                    }
                  >
                    {t.title}
                  </Badge>
                ))}
                {doc.people?.map((p) => (
                  <Badge
                    key={p.id}
                    variant="light"
                    color="gray"
                    radius="sm"
                    size="sm"
                    tt="none"
                    leftSection={<IconUser size={10} aria-hidden />}
                  >
                    {p.name}
                  </Badge>
                ))}
                {highlightCount !== undefined && (
                  <Text size="xs" c="gray.7">
                    {kind === 'note'
                      ? `${highlightCount} ${highlightCount === 1 ? 'highlight' : 'highlights'}`
                      : `${highlightCount} cited ${highlightCount === 1 ? 'highlight' : 'highlights'}`}{' '}
                    · created {formatDate(doc.createdAt)} · updated {formatDate(doc.updatedAt)}
                  </Text>
                )}
              </Group>
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
          {menu}
        </Group>
      </Group>
    </Paper>
  );
}

export function HighlightRow({
  h,
  selection,
  tags,
  menu,
}: {
  h: HighlightSummary;
  selection?: RowSelection;
  tags?: ReadonlyArray<{ id: string; title: string; color: string }>;
  menu?: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="li" bg={selection?.checked ? 'indigo.0' : undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {selection && (
          <Checkbox
            mt={2}
            checked={selection.checked}
            onChange={selection.onToggle}
            aria-label={`Select highlight “${h.text.slice(0, 40)}”`}
          />
        )}
        <div style={{ flex: 1, minWidth: 0 }}>
          <Text
            size="sm"
            style={{ borderLeft: `3px solid ${h.displayColor ?? 'rgba(250, 176, 5, 0.6)'}`, paddingLeft: 10 }}
          >
            “{h.text}”
          </Text>
          {tags && tags.length > 0 && (
            <Group gap={4} mt={6}>
              {tags.map((t) => (
                <Badge
                  key={t.id}
                  size="sm"
                  radius="sm"
                  variant="light"
                  color="gray"
                  tt="none"
                  leftSection={
                    <span
                      aria-hidden
                      style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 8, background: t.color }}
                    />
                  }
                >
                  {t.title}
                </Badge>
              ))}
            </Group>
          )}
          {h.note && (
            <Text size="xs" c="gray.7" mt={6}>
              From{' '}
              <Anchor component={Link} to={`/data/${h.note.id}`} size="xs" underline="always" c="indigo.8">
                {h.note.title || 'Untitled note'}
              </Anchor>
              {h.note.project && <> · {h.note.project.title}</>} · {timeAgo(h.createdAt)}
            </Text>
          )}
        </div>
        {menu}
      </Group>
    </Paper>
  );
}
