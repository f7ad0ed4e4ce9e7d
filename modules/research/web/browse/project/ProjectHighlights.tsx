import {
  ActionIcon,
  Button,
  ColorSwatch,
  Group,
  Popover,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { IconHighlight, IconTag, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { q, type HighlightSummary, type ListOrder } from '../api.ts';
import { BulkBar } from '../bulk/BulkBar.tsx';
import { count, runEach } from '../bulk/run-each.ts';
import { announceTrashed } from '../bulk/trash-actions.tsx';
import { useCan } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';
import { HighlightRow, LoadMore, usePages } from './DocumentList.tsx';
import { ListFilters, useListFilters } from './ListFilters.tsx';

const HIGHLIGHT_ORDERS: Array<{ value: ListOrder; label: string }> = [
  { value: 'CREATED_DESC', label: 'Newest first' },
  { value: 'CREATED_ASC', label: 'Oldest first' },
];

interface TagChoice {
  id: string;
  title: string;
  color: string;
}

const HIGHLIGHTS = `query BrowseProjectHighlights($projectId: ID!, $first: Int, $after: String, $orderBy: ContentOrder, $search: String, $tagIds: [ID!]) { highlights(projectId: $projectId, first: $first, after: $after, orderBy: $orderBy, search: $search, tagIds: $tagIds) {
  nodes { id text displayColor createdAt noteId note { id title project { id title } } } endCursor hasNextPage } }`;
const TAG_CHOICES = `query BrowseTagChoices($projectId: ID) { tagBoards(projectId: $projectId, includeWorkspace: true) { id projectId title tags { id title color } } }`;

/** The tags of many highlights in one request: one aliased field per highlight. */
const tagsOf = (ids: readonly string[]) =>
  `query BrowseHighlightTags { ${ids.map((id, i) => `h${i}: highlightTags(highlightId: ${JSON.stringify(id)}) { id title color }`).join(' ')} }`;

/** Picks one tag by typing its name (Enter takes the tag so named, or the only one left) or clicking it. */
function TagChooser({
  projectId,
  disabled,
  onPick,
}: {
  projectId: string;
  disabled: boolean;
  onPick(tag: TagChoice): void;
}) {
  const { graphql } = useFieldbook();
  const [opened, setOpened] = useState(false);
  const [tags, setTags] = useState<TagChoice[] | null>(null);
  const [search, setSearch] = useState('');
  useEffect(() => {
    if (!opened || tags) return;
    graphql<{ tagBoards: Array<{ projectId: string | null; tags: TagChoice[] }> }>(TAG_CHOICES, { projectId })
      .then((r) =>
        setTags(
          [...r.tagBoards]
            .sort((a, b) => Number(b.projectId === projectId) - Number(a.projectId === projectId))
            .flatMap((b) => b.tags),
        ),
      )
      .catch((err: unknown) => notifyError(err, 'The tags could not be loaded'));
  }, [opened, tags, graphql, projectId]);
  const wanted = search.trim().toLowerCase();
  const shown = (tags ?? []).filter((t) => !wanted || t.title.toLowerCase().includes(wanted));
  const pick = (t: TagChoice) => {
    setOpened(false);
    setSearch('');
    onPick(t);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" trapFocus withinPortal>
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="default"
          leftSection={<IconTag size={14} aria-hidden />}
          disabled={disabled}
          onClick={() => setOpened((o) => !o)}
        >
          Tag
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-label="Tag the selected highlights">
        <Stack gap="xs" w={240}>
          <TextInput
            size="sm"
            label="Tag to apply"
            placeholder="Tag name"
            value={search}
            data-autofocus
            onChange={(e) => setSearch(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              const match =
                shown.find((t) => t.title.toLowerCase() === wanted) ?? (shown.length === 1 ? shown[0] : undefined);
              if (match) pick(match);
            }}
          />
          <ScrollArea.Autosize mah={200} type="auto">
            <Stack gap={2}>
              {shown.map((t) => (
                <UnstyledButton
                  key={t.id}
                  onClick={() => pick(t)}
                  px={6}
                  py={4}
                  style={{ borderRadius: 6 }}
                  className="fb-choice"
                >
                  <Group gap={6} wrap="nowrap">
                    <ColorSwatch color={t.color} size={10} aria-hidden />
                    <Text size="sm" truncate>
                      {t.title}
                    </Text>
                  </Group>
                </UnstyledButton>
              ))}
              {tags && !shown.length && (
                <Text size="sm" c="dimmed">
                  {tags.length ? 'No tag has that name.' : 'This project has no tags yet; create them on the Tags tab.'}
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

/** A project's highlights, newest first, with their tags; ticked ones are tagged or moved to the trash together. */
export function HighlightList({ projectId, canEdit }: { projectId: string; canEdit: boolean }) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const [filters, setFilters] = useListFilters(HIGHLIGHT_ORDERS);
  const filtered = Boolean(filters.search.trim() || filters.tagIds.length);
  const pages = usePages<HighlightSummary>(HIGHLIGHTS, 'highlights', {
    projectId,
    orderBy: filters.orderBy,
    search: filters.search.trim() || null,
    tagIds: filters.tagIds.length ? filters.tagIds : null,
  });
  // The same first element in every state, so the text box keeps its focus while the list reloads.
  const controls = (
    <Group mb="xs" align="flex-end">
      <ListFilters
        projectId={projectId}
        state={filters}
        onChange={setFilters}
        what="highlights"
        orders={HIGHLIGHT_ORDERS}
        placeholder="Words in the highlighted text"
      />
    </Group>
  );
  const [tags, setTags] = useState<Map<string, TagChoice[]>>(new Map());
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [progress, setProgress] = useState<{ finished: number; total: number } | null>(null);
  const [tagsVersion, setTagsVersion] = useState(0);
  const editable = canEdit && can('notes:update');

  const shownIds = (pages.items ?? []).map((h) => h.id).join(',');
  useEffect(() => {
    const ids = shownIds ? shownIds.split(',') : [];
    if (!ids.length) return;
    let stale = false;
    graphql<Record<string, TagChoice[]>>(tagsOf(ids))
      .then((r) => !stale && setTags(new Map(ids.map((id, i) => [id, r[`h${i}`] ?? []]))))
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [graphql, shownIds, tagsVersion]);

  if (pages.error && !pages.items)
    return <ErrorNote error={pages.error} title="The highlights could not be loaded" onRetry={pages.reload} />;
  if (!pages.items)
    return (
      <>
        {controls}
        <SectionLoader label="Loading highlights…" />
      </>
    );
  const items = pages.items;
  if (!items.length && filtered) {
    return (
      <>
        {controls}
        <Text c="gray.7" size="sm" mt="md" role="status">
          No highlights match these words or tags. Clear the filters to see them all.
        </Text>
      </>
    );
  }
  if (!items.length) {
    return (
      <EmptyState icon={<IconHighlight size={24} />} title="No highlights yet">
        Select text in a note to highlight it; highlights of this project’s notes appear here, newest first.
      </EmptyState>
    );
  }

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const track = (finished: number, total: number) => setProgress({ finished, total });

  const trash = async (ids: string[]) => {
    track(0, ids.length);
    const result = await runEach(ids, (id) => graphql(q.deleteHighlight, { id }), track);
    setProgress(null);
    pages.remove(result.done);
    setSelected((s) => new Set([...s].filter((id) => !result.done.includes(id))));
    announceTrashed('HIGHLIGHT', result, can('projects:delete') ? { graphql, onRestored: pages.reload } : undefined);
  };

  const tag = async (ids: string[], t: TagChoice) => {
    track(0, ids.length);
    const result = await runEach(ids, (highlightId) => graphql(q.tagHighlight, { highlightId, tagIds: [t.id] }), track);
    setProgress(null);
    setTagsVersion((v) => v + 1);
    if (result.failed.length)
      notifyError(
        result.failed[0]!.error,
        `${count(result.failed.length, 'highlight was', 'highlights were')} not tagged “${t.title}”`,
      );
    if (result.done.length) notifyDone(`${count(result.done.length, 'highlight', 'highlights')} tagged “${t.title}”.`);
  };

  const ids = [...selected];
  return (
    <>
      {controls}
      {editable && (
        <BulkBar
          selected={selected.size}
          total={items.length}
          what="highlights"
          onAll={() => setSelected(new Set(items.map((h) => h.id)))}
          onClear={() => setSelected(new Set())}
          progress={progress}
        >
          <TagChooser projectId={projectId} disabled={progress !== null} onPick={(t) => void tag(ids, t)} />
          <Button
            size="compact-sm"
            color="red"
            variant="light"
            leftSection={<IconTrash size={14} aria-hidden />}
            loading={progress !== null}
            onClick={() => void trash(ids)}
          >
            Move to trash
          </Button>
        </BulkBar>
      )}
      <Stack gap={6} component="ul" aria-label="Highlights" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((h) => (
          <HighlightRow
            key={h.id}
            h={h}
            tags={tags.get(h.id)}
            selection={editable ? { checked: selected.has(h.id), onToggle: () => toggle(h.id) } : undefined}
            menu={
              editable ? (
                <Tooltip label="Move to trash">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => void trash([h.id])}
                    aria-label={`Move highlight “${h.text.slice(0, 40)}” to the trash`}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Tooltip>
              ) : undefined
            }
          />
        ))}
      </Stack>
      <LoadMore more={pages.more} loading={pages.loading} onClick={pages.loadMore} what="highlights" />
    </>
  );
}
