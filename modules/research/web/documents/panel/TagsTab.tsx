import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Tag } from '../api.ts';
import { EmptyState } from './EmptyState.tsx';

const NOTE_TAGS = 'query NoteTags($id: ID!) { note(id: $id) { id tags { id title color } } }';

function TagBadge({ tag }: { tag: Pick<Tag, 'title' | 'color'> }) {
  return (
    <Badge variant="light" color="gray" size="lg" tt="none" leftSection={<span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 10, background: tag.color }} />}>
      {tag.title}
    </Badge>
  );
}

/** A note's own tags (an automation may have applied them), then the tags used on its highlights, most used first. */
export function TagsTab({ tags, noteId }: { tags: ReadonlyMap<string, Tag[]>; noteId?: string }) {
  const host = useFieldbook();
  const [own, setOwn] = useState<Array<Pick<Tag, 'id' | 'title' | 'color'>>>([]);
  useEffect(() => {
    if (!noteId) return;
    void host.graphql<{ note: { tags: Array<Pick<Tag, 'id' | 'title' | 'color'>> } }>(NOTE_TAGS, { id: noteId }).then((r) => setOwn(r.note.tags), () => undefined);
  }, [host, noteId]);
  const counts = new Map<string, { tag: Tag; count: number }>();
  for (const list of tags.values()) {
    for (const t of list) counts.set(t.id, { tag: t, count: (counts.get(t.id)?.count ?? 0) + 1 });
  }
  const used = [...counts.values()].sort((a, b) => b.count - a.count || a.tag.title.localeCompare(b.tag.title));
  if (!used.length && !own.length) return <EmptyState title="No tags yet">Tag a highlight and its tags show up here.</EmptyState>;
  return (
    <Stack gap="sm">
      {own.length > 0 && (
        <Group component="ul" gap="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Tags on this note">
          {own.map((tag) => (
            <li key={tag.id}>
              <TagBadge tag={tag} />
            </li>
          ))}
        </Group>
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
