import { Anchor, Badge, Group, Paper, Text } from '@mantine/core';
import { IconBulb, IconFileText, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { timeAgo } from '../ui/hooks.ts';
import type { FieldInfo, ViewItem } from './data.ts';

export const HIGHLIGHT_FILL = 'rgba(250, 176, 5, 0.35)';

export function TagBadges({ item, inline }: { item: ViewItem; inline?: boolean }) {
  if (!item.tags.length) return null;
  return (
    <Group gap={4} mt={inline ? 0 : 8} wrap={inline ? 'nowrap' : 'wrap'}>
      {item.tags.map((t) => (
        <Badge
          key={t.id}
          size="sm"
          variant="outline"
          radius="sm"
          color="gray"
          leftSection={
            <span
              aria-hidden
              style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: t.color }}
            />
          }
        >
          {t.title}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * A note's first image (or a video's poster) at a fixed size, so rows and cards keep their height
 * while it loads; lazy, so only those in sight are fetched.
 */
export function Thumbnail({
  url,
  title,
  width = 40,
  height = 22,
}: {
  url: string;
  title: string;
  width?: number;
  height?: number;
}) {
  return (
    <img
      src={url}
      alt={`Thumbnail of ${title}`}
      loading="lazy"
      referrerPolicy="no-referrer"
      width={width}
      height={height}
      style={{ objectFit: 'cover', borderRadius: 4, display: 'block', background: 'var(--mantine-color-gray-2)' }}
    />
  );
}

/** The custom field values a card shows: those the view does not hide, as short text. */
function FieldLines({
  item,
  fields,
  hidden,
}: {
  item: ViewItem;
  fields?: Map<string, FieldInfo>;
  hidden: Set<string>;
}) {
  if (!fields) return null;
  const lines = [...item.values].flatMap(([id, v]) => {
    const f = fields.get(id);
    if (!f || hidden.has(`field.${id}`)) return [];
    const text = v.options.length
      ? v.options.map((o) => o.label).join(', ')
      : typeof v.value === 'boolean'
        ? v.value
          ? 'Yes'
          : 'No'
        : Array.isArray(v.value)
          ? `${v.value.length}`
          : String(v.value);
    return [{ id, label: f.label, text }];
  });
  if (!lines.length) return null;
  return (
    <Text size="xs" c="dimmed" mt={6} component="div">
      {lines.map((l) => (
        <div key={l.id}>
          {l.label}:{' '}
          <Text span size="xs" c="dark">
            {l.text}
          </Text>
        </div>
      ))}
    </Text>
  );
}

/** A note, insight or highlight as a card: on boards, grids and lists; `hiddenFields` are left out (field visibility). */
export function ItemCard({
  item,
  compact,
  hiddenFields = [],
  fields,
}: {
  item: ViewItem;
  compact?: boolean;
  hiddenFields?: string[];
  fields?: Map<string, FieldInfo>;
}) {
  const hidden = new Set(hiddenFields);
  if (item.kind === 'highlight') {
    return (
      <Paper
        withBorder
        radius="md"
        p="sm"
        component="article"
        aria-label={`Highlight: ${item.title}`}
        data-item-id={item.id}
      >
        <Text
          size="sm"
          lineClamp={compact ? 4 : 6}
          style={{ borderLeft: `3px solid ${item.fill ?? HIGHLIGHT_FILL}`, paddingLeft: 10 }}
        >
          “{item.title}”
        </Text>
        {item.source && (
          <Text size="xs" c="dimmed" mt={6} truncate>
            From{' '}
            <Anchor component={Link} to={item.source.href} size="xs">
              {item.source.title}
            </Anchor>
          </Text>
        )}
        {!hidden.has('Tags') && <TagBadges item={item} />}
      </Paper>
    );
  }
  const Icon = item.kind === 'note' ? IconFileText : IconBulb;
  const count = item.highlightCount;
  return (
    <Paper withBorder radius="md" p="sm" component="article" aria-label={item.title} data-item-id={item.id}>
      <Group gap={8} wrap="nowrap" align="flex-start" pr={compact ? 24 : 0}>
        <Icon size={16} aria-hidden color="#5c6370" style={{ flexShrink: 0, marginTop: 3 }} />
        <Anchor
          component={Link}
          to={item.href}
          fw={500}
          c="dark"
          size="sm"
          lineClamp={2}
          style={{ minWidth: 0, flex: 1 }}
        >
          {item.title}
        </Anchor>
        {item.thumbnailUrl && !hidden.has('Thumbnail') && (
          <Thumbnail url={item.thumbnailUrl} title={item.title} width={56} height={36} />
        )}
      </Group>
      {item.preview && !hidden.has('Content') && (
        <Text size="xs" c="gray.7" lineClamp={compact ? 2 : 3} mt={6}>
          {item.preview}
        </Text>
      )}
      <Group gap={6} mt={8} justify="space-between" wrap="nowrap">
        <Group gap={4}>
          {item.published !== undefined && !hidden.has('Published') && (
            <Badge size="sm" variant="light" color={item.published ? 'teal' : 'gray'} radius="sm">
              {item.published ? 'Published' : 'Draft'}
            </Badge>
          )}
          {item.archived && (
            <Badge size="sm" variant="light" color="gray" radius="sm">
              Archived
            </Badge>
          )}
          {item.locked && <IconLock size={14} aria-label="Locked" />}
          {count !== undefined && !hidden.has('HighlightCount') && (
            <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
              {item.kind === 'note' ? `${count} ${count === 1 ? 'highlight' : 'highlights'}` : `${count} cited`}
            </Text>
          )}
        </Group>
        {!hidden.has('Updated') && (
          <Text size="xs" c="gray.7" style={{ whiteSpace: 'nowrap' }}>
            {timeAgo(item.updatedAt)}
          </Text>
        )}
      </Group>
      {!hidden.has('Tags') && <TagBadges item={item} />}
      <FieldLines item={item} fields={fields} hidden={hidden} />
    </Paper>
  );
}
