import { Badge, Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { FieldInfo, ProjectViewData, ViewItem } from './data.ts';
import { ItemCard } from './ItemCard.tsx';

export interface BoardColumn {
  key: string;
  title: string;
  color: string | null;
  items: ViewItem[];
}

const NO_VALUE = '__none__';

/**
 * The columns of a board by the view's grouping: published or draft for insights, tags for
 * highlights, the options of a select field or the people of a person field; a card shows in
 * every column it belongs to, and the rest go to "No value" unless the view hides it. Hidden
 * options (ids) drop their column. Without a grouping, insights go by published and highlights
 * by tag, as on the board of a new view.
 */
export function boardColumns(view: ProjectViewData, items: ViewItem[], fields: Map<string, FieldInfo>, members: Map<string, string>): BoardColumn[] {
  const kind = view.group?.kind ?? (view.objectType === 'INSIGHT' ? 'PUBLISHED' : view.objectType === 'HIGHLIGHT' ? 'TAG' : null);
  const columns = new Map<string, BoardColumn>();
  const add = (key: string, title: string, color: string | null) => {
    if (!columns.has(key)) columns.set(key, { key, title, color, items: [] });
    return columns.get(key)!;
  };
  const none: BoardColumn = { key: NO_VALUE, title: kind === 'TAG' ? 'No tags' : 'No value', color: null, items: [] };

  if (kind === 'PUBLISHED') {
    const published = add('published', 'Published', '#12b886');
    const draft = add('draft', 'Draft', '#868e96');
    for (const it of items) (it.published ? published : draft).items.push(it);
  } else if (kind === 'TAG') {
    for (const it of items) {
      if (!it.tags.length) none.items.push(it);
      for (const t of it.tags) add(t.id, t.title, t.color).items.push(it);
    }
    const sorted = [...columns.values()].sort((a, b) => a.title.localeCompare(b.title));
    columns.clear();
    for (const c of sorted) columns.set(c.key, c);
  } else if ((kind === 'SELECT' || kind === 'PERSON') && view.group?.fieldId) {
    const field = fields.get(view.group.fieldId);
    if (kind === 'SELECT') for (const o of field?.options ?? []) add(o.id, o.label, o.color);
    for (const it of items) {
      const v = it.values.get(view.group.fieldId);
      const ids = Array.isArray(v?.value) ? (v.value as string[]) : [];
      if (!ids.length) none.items.push(it);
      for (const id of ids) {
        const option = v?.options.find((o) => o.id === id);
        add(id, kind === 'PERSON' ? (members.get(id) ?? 'Former member') : (option?.label ?? 'Removed option'), option?.color ?? null).items.push(it);
      }
    }
  } else {
    none.title = 'All';
    none.items.push(...items);
  }
  const hidden = new Set(view.hiddenOptions);
  const out = [...columns.values()].filter((c) => !hidden.has(c.key));
  if (!view.hideUncategorized || !kind) out.push(none);
  return out;
}

export function BoardLayout({ view, items, fields, members }: { view: ProjectViewData; items: ViewItem[]; fields: Map<string, FieldInfo>; members: Map<string, string> }) {
  const columns = boardColumns(view, items, fields, members);
  return (
    <Box style={{ overflowX: 'auto' }} pb="sm" tabIndex={0} role="region" aria-label="Board columns, scroll sideways for more">
      <Group align="flex-start" wrap="nowrap" gap="md">
        {columns.map((c) => (
          <Paper key={c.key} component="section" aria-label={`${c.title} column`} bg="gray.0" radius="md" p="sm" w={280} style={{ flex: '0 0 280px' }} data-column={c.title}>
            <Group justify="space-between" mb="sm" wrap="nowrap">
              <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, flexShrink: 0, background: c.color ?? '#ced4da' }} />
                <Text fw={600} size="sm" truncate component="h2" m={0}>
                  {c.title}
                </Text>
              </Group>
              <Badge variant="default" size="sm" radius="sm" aria-label={`${c.items.length} items`}>
                {c.items.length}
              </Badge>
            </Group>
            <Stack gap="xs">
              {c.items.map((it) => (
                <ItemCard key={it.id} item={it} compact />
              ))}
              {!c.items.length && (
                <Text size="xs" c="dimmed" ta="center" py="md">
                  Nothing here
                </Text>
              )}
            </Stack>
          </Paper>
        ))}
      </Group>
    </Box>
  );
}
