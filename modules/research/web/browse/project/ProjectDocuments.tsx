import { ActionIcon, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import {
  IconArchive,
  IconArrowDown,
  IconArrowUp,
  IconBulb,
  IconDots,
  IconExternalLink,
  IconFileText,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { q, type DocumentSummary } from '../api.ts';
import { BulkBar } from '../bulk/BulkBar.tsx';
import { count, runEach } from '../bulk/run-each.ts';
import { announceTrashed } from '../bulk/trash-actions.tsx';
import { useCan } from '../ui/hooks.ts';
import { EmptyState, ErrorNote, SectionLoader, notifyDone, notifyError } from '../ui/layout.tsx';
import { DocumentRow, LoadMore, usePages } from './DocumentList.tsx';
import { ListFilters, useListFilters } from './ListFilters.tsx';

interface Props {
  projectId: string;
  kind: 'note' | 'insight';
  canCreate: boolean;
  /** The project lets the viewer change its content. */
  canEdit: boolean;
  onCreate(): void;
  creating: boolean;
}

/**
 * A project's notes or insights: what each says, who it is about, how much is highlighted, sorted
 * as asked; ticked rows are archived or moved to the trash together, each row has its own menu.
 */
export function DocumentList({ projectId, kind, canCreate, canEdit, onCreate, creating }: Props) {
  const { graphql } = useFieldbook();
  const can = useCan();
  const [filters, setFilters] = useListFilters();
  const { orderBy, search, tagIds } = filters;
  const filtered = Boolean(search.trim() || tagIds.length);
  const pages = usePages<DocumentSummary>(
    kind === 'note' ? q.notes : q.insights,
    kind === 'note' ? 'notes' : 'insights',
    {
      projectId,
      orderBy,
      search: search.trim() || null,
      tagIds: tagIds.length ? tagIds : null,
    },
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [progress, setProgress] = useState<{ finished: number; total: number } | null>(null);
  const plural = kind === 'note' ? 'notes' : 'insights';
  const one = kind === 'note' ? 'note' : 'insight';
  const canDelete = canEdit && can(kind === 'note' ? 'notes:delete' : 'insights:delete');
  const canRestore = can('projects:delete');
  const TYPE = kind === 'note' ? 'NOTE' : 'INSIGHT';

  if (pages.error && !pages.items)
    return <ErrorNote error={pages.error} title={`The ${plural} could not be loaded`} onRetry={pages.reload} />;
  // The same first element in every state, so the text box keeps its focus while the list reloads.
  const controls = (
    <Group justify="space-between" mb="xs" align="flex-end">
      <ListFilters projectId={projectId} state={filters} onChange={setFilters} what={plural} />
    </Group>
  );
  if (!pages.items)
    return (
      <>
        {controls}
        <SectionLoader label={`Loading ${plural}…`} />
      </>
    );
  const items = pages.items;
  if (!items.length && filtered) {
    return (
      <>
        {controls}
        <Text c="gray.7" size="sm" mt="md" role="status">
          No {plural} match these words or tags. Clear the filters to see them all.
        </Text>
      </>
    );
  }
  if (!items.length) {
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
        {kind === 'note'
          ? 'Notes hold interview transcripts, observations and feedback. Highlight what matters and tag it.'
          : 'Insights sum up what you learned, citing the evidence. Publish them for your team.'}
      </EmptyState>
    );
  }

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const trash = async (ids: string[]) => {
    setProgress({ finished: 0, total: ids.length });
    const result = await runEach(
      ids,
      (id) => graphql(kind === 'note' ? q.deleteNote : q.deleteInsight, { id }),
      (finished, total) => setProgress({ finished, total }),
    );
    setProgress(null);
    pages.remove(result.done);
    setSelected((s) => new Set([...s].filter((id) => !result.done.includes(id))));
    announceTrashed(TYPE, result, canRestore ? { graphql, onRestored: pages.reload } : undefined);
  };

  const archive = async (ids: string[], archived: boolean) => {
    setProgress({ finished: 0, total: ids.length });
    const result = await runEach(
      ids,
      (id) => graphql(kind === 'note' ? q.updateNote : q.updateInsight, { id, input: { archived } }),
      (finished, total) => setProgress({ finished, total }),
    );
    setProgress(null);
    if (result.failed.length)
      notifyError(
        result.failed[0]!.error,
        `${count(result.failed.length, one, plural)} could not be ${archived ? 'archived' : 'unarchived'}`,
      );
    if (result.done.length)
      notifyDone(`${count(result.done.length, one, plural)} ${archived ? 'archived' : 'unarchived'}.`);
    pages.reload();
  };

  // Moving a row past its neighbour: place it between the neighbour and the one beyond.
  const move = async (index: number, by: -1 | 1) => {
    const id = items[index]!.id;
    const [previousId, nextId] =
      by < 0
        ? [items[index - 2]?.id ?? null, items[index - 1]!.id]
        : [items[index + 1]!.id, items[index + 2]?.id ?? null];
    try {
      await graphql(kind === 'note' ? q.moveNote : q.moveInsight, { id, previousId, nextId });
      pages.reload();
    } catch (err) {
      notifyError(err, `The ${one} was not moved`);
    }
  };

  const ids = [...selected];
  const busy = progress !== null;
  return (
    <>
      {controls}
      {(canEdit || canDelete) && (
        <BulkBar
          selected={selected.size}
          total={items.length}
          what={plural}
          onAll={() => setSelected(new Set(items.map((d) => d.id)))}
          onClear={() => setSelected(new Set())}
          progress={progress}
        >
          {canEdit && (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconArchive size={14} aria-hidden />}
              disabled={busy}
              onClick={() => void archive(ids, !ids.every((id) => items.find((d) => d.id === id)?.archived))}
            >
              {ids.every((id) => items.find((d) => d.id === id)?.archived) ? 'Unarchive' : 'Archive'}
            </Button>
          )}
          {canDelete && (
            <Button
              size="compact-sm"
              color="red"
              variant="light"
              leftSection={<IconTrash size={14} aria-hidden />}
              loading={busy}
              onClick={() => void trash(ids)}
            >
              Move to trash
            </Button>
          )}
        </BulkBar>
      )}
      <Stack
        gap={6}
        component="ul"
        aria-label={kind === 'note' ? 'Notes' : 'Insights'}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {items.map((d, i) => {
          const title = d.title || (kind === 'note' ? 'Untitled note' : 'Untitled insight');
          return (
            <DocumentRow
              key={d.id}
              doc={d}
              kind={kind}
              selection={
                canEdit || canDelete ? { checked: selected.has(d.id), onToggle: () => toggle(d.id) } : undefined
              }
              menu={
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for “${title}”`}>
                      <IconDots size={16} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item
                      component={Link}
                      to={kind === 'note' ? `/data/${d.id}` : `/insights/${d.id}`}
                      leftSection={<IconExternalLink size={14} aria-hidden />}
                    >
                      Open
                    </Menu.Item>
                    {canEdit && orderBy === 'RANK' && i > 0 && (
                      <Menu.Item leftSection={<IconArrowUp size={14} aria-hidden />} onClick={() => void move(i, -1)}>
                        Move up
                      </Menu.Item>
                    )}
                    {canEdit && orderBy === 'RANK' && i < items.length - 1 && (
                      <Menu.Item leftSection={<IconArrowDown size={14} aria-hidden />} onClick={() => void move(i, 1)}>
                        Move down
                      </Menu.Item>
                    )}
                    {canEdit && (
                      <Menu.Item
                        leftSection={<IconArchive size={14} aria-hidden />}
                        onClick={() => void archive([d.id], !d.archived)}
                      >
                        {d.archived ? 'Unarchive' : 'Archive'}
                      </Menu.Item>
                    )}
                    {canDelete && (
                      <Menu.Item
                        color="red"
                        leftSection={<IconTrash size={14} aria-hidden />}
                        onClick={() => void trash([d.id])}
                      >
                        Move to trash
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              }
            />
          );
        })}
      </Stack>
      {pages.error ? <ErrorNote error={pages.error} onRetry={pages.loadMore} /> : null}
      <LoadMore more={pages.more} loading={pages.loading} onClick={pages.loadMore} what={plural} />
    </>
  );
}
