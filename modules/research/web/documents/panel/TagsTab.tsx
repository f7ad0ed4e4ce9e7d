import { Badge, Group, Stack, Text } from '@mantine/core';
import type { Tag } from '../api.ts';
import { EmptyState } from './EmptyState.tsx';

/** The tags used on the document's highlights, most used first. */
export function TagsTab({ tags }: { tags: ReadonlyMap<string, Tag[]> }) {
  const counts = new Map<string, { tag: Tag; count: number }>();
  for (const list of tags.values()) {
    for (const t of list) counts.set(t.id, { tag: t, count: (counts.get(t.id)?.count ?? 0) + 1 });
  }
  const used = [...counts.values()].sort((a, b) => b.count - a.count || a.tag.title.localeCompare(b.tag.title));
  if (!used.length) return <EmptyState title="No tags yet">Tag a highlight and its tags show up here.</EmptyState>;
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label="Tags">
      {used.map(({ tag, count }) => (
        <Group component="li" key={tag.id} justify="space-between" wrap="nowrap">
          <Badge variant="light" color="gray" size="lg" tt="none" leftSection={<span aria-hidden style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 10, background: tag.color }} />}>
            {tag.title}
          </Badge>
          <Text size="sm" c="dimmed">
            {count} {count === 1 ? 'highlight' : 'highlights'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
