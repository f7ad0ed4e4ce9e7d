import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { ActionIcon, Badge, Group, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { UNTAG_NOTE, type Tag } from '../api.ts';
import { errorMessage } from '../errors.ts';
import { TagPicker } from '../TagPicker.tsx';
import { EmptyState } from './EmptyState.tsx';

const NOTE_TAGS = 'query NoteTags($id: ID!) { note(id: $id) { id tags { id title color highlightColor boardId } } }';

function TagBadge({ tag, onRemove }: { tag: Pick<Tag, 'title' | 'color'>; onRemove?: () => void }) {
  return (
    <Badge
      variant="light"
      color="gray"
      size="lg"
      tt="none"
      leftSection={
        <span
          aria-hidden
          style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 10, background: tag.color }}
        />
      }
      rightSection={
        onRemove && (
          <ActionIcon
            size="xs"
            variant="transparent"
            color="gray.8"
            aria-label={`Remove tag ${tag.title}`}
            onClick={onRemove}
          >
            <IconX size={12} aria-hidden />
          </ActionIcon>
        )
      }
    >
      {tag.title}
    </Badge>
  );
}

/** A note's own tags (an automation may have applied them), then the tags used on its highlights, most used first. */
export function TagsTab({
  tags,
  noteId,
  projectId,
  canEdit = false,
}: {
  tags: ReadonlyMap<string, Tag[]>;
  noteId?: string;
  projectId?: string;
  canEdit?: boolean;
}) {
  const host = useFieldbook();
  const [own, setOwn] = useState<Tag[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!noteId) return;
    void host.graphql<{ note: { tags: Tag[] } }>(NOTE_TAGS, { id: noteId }).then(
      (r) => setOwn(r.note.tags),
      () => undefined,
    );
  }, [host, noteId]);
  const remove = async (tag: Tag) => {
    if (!noteId) return;
    try {
      setOwn((await host.graphql<{ untagNote: Tag[] }>(UNTAG_NOTE, { noteId, tagIds: [tag.id] })).untagNote);
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  // People who may edit the note tag it themselves: by typing a tag's name and pressing Enter, as on highlights.
  const editor =
    noteId && projectId && canEdit ? (
      <>
        <TagPicker projectId={projectId} noteId={noteId} applied={own} canEdit onChange={setOwn} />
        {error && (
          <Text size="sm" c="red.8" role="alert">
            {error}
          </Text>
        )}
      </>
    ) : null;
  const counts = new Map<string, { tag: Tag; count: number }>();
  for (const list of tags.values()) {
    for (const t of list) counts.set(t.id, { tag: t, count: (counts.get(t.id)?.count ?? 0) + 1 });
  }
  const used = [...counts.values()].sort((a, b) => b.count - a.count || a.tag.title.localeCompare(b.tag.title));
  if (!used.length && !own.length && !editor)
    return <EmptyState title="No tags yet">Tag a highlight and its tags show up here.</EmptyState>;
  return (
    <Stack gap="sm">
      {own.length > 0 && (
        <Group
          component="ul"
          gap="xs"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
          aria-label="Tags on this note"
        >
          {own.map((tag) => (
            <li key={tag.id}>
              <TagBadge tag={tag} onRemove={editor ? () => void remove(tag) : undefined} />
            </li>
          ))}
        </Group>
      )}
      {editor}
      {used.length > 0 && (own.length > 0 || editor) && (
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="xs">
          On highlights
        </Text>
      )}
      {used.length > 0 && (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Tags">
          {used.map(({ tag, count }) => (
            <Group component="li" key={tag.id} justify="space-between" wrap="nowrap">
              <TagBadge tag={tag} />
              <Text size="sm" c="dimmed">
                {count} {count === 1 ? 'highlight' : 'highlights'}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
