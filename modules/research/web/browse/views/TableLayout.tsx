import { Anchor, Badge, Group, Paper, Table, Text } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../ui/hooks.ts';
import { FIELD_PREFIX, type FieldInfo, type ProjectViewData, type ViewColumn, type ViewItem } from './data.ts';
import { TagBadges } from './ItemCard.tsx';

const DEFAULT_WIDTH = 180;
const TITLE_WIDTH = 320;

/** The columns a view shows; a view that has not chosen any shows the usual ones for its type. */
export function tableColumns(view: ProjectViewData): ViewColumn[] {
  if (view.columns.length) return view.columns.filter((c) => !view.hiddenFields.includes(c.field));
  const col = (field: string, width: number | null = null, sticky = false): ViewColumn => ({ field, width, sticky, wrapped: false });
  if (view.objectType === 'HIGHLIGHT') return [col('Highlight', 360, true), col('Note', 220), col('Tags', 240), col('Created')];
  return [col('Title', TITLE_WIDTH, true), ...(view.objectType === 'INSIGHT' ? [col('Published', 120)] : []), col('Created'), col('Updated')];
}

function headerOf(c: ViewColumn, fields: Map<string, FieldInfo>): string {
  if (c.field.startsWith(FIELD_PREFIX)) return fields.get(c.field.slice(FIELD_PREFIX.length))?.label ?? 'Removed field';
  return c.field.replace(/([a-z])([A-Z])/g, '$1 $2');
}

const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

function cellOf(c: ViewColumn, it: ViewItem, fields: Map<string, FieldInfo>, members: Map<string, string>): ReactNode {
  if (c.field.startsWith(FIELD_PREFIX)) {
    const id = c.field.slice(FIELD_PREFIX.length);
    const v = it.values.get(id);
    if (!v) return dash;
    const field = fields.get(id);
    if (field?.type === 'SELECT') {
      return (
        <Group gap={4} wrap={c.wrapped ? 'wrap' : 'nowrap'}>
          {v.options.map((o) => (
            <Badge key={o.id} size="sm" radius="sm" variant="light" color="gray" leftSection={<span aria-hidden style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: o.color }} />}>
              {o.label}
            </Badge>
          ))}
        </Group>
      );
    }
    if (field?.type === 'PERSON' && Array.isArray(v.value)) return (v.value as string[]).map((u) => members.get(u) ?? 'Former member').join(', ');
    if (typeof v.value === 'boolean') return v.value ? 'Yes' : 'No';
    return String(v.value);
  }
  switch (c.field) {
    case 'Title':
    case 'Name':
      return (
        <Anchor component={Link} to={it.href} fw={500} size="sm">
          {it.title}
        </Anchor>
      );
    case 'Highlight':
    case 'Content':
      return it.kind === 'highlight' ? (
        <Text size="sm" inherit style={{ borderLeft: `3px solid ${it.fill ?? 'rgba(250, 176, 5, 0.35)'}`, paddingLeft: 8 }}>
          “{it.title}”
        </Text>
      ) : (
        dash
      );
    case 'Note':
      return it.source ? (
        <Anchor component={Link} to={it.source.href} size="sm">
          {it.source.title}
        </Anchor>
      ) : (
        dash
      );
    case 'Created':
      return formatDate(it.createdAt);
    case 'Updated':
      return formatDate(it.updatedAt);
    case 'Published':
      return it.published === undefined ? dash : (
        <Badge size="sm" variant="light" radius="sm" color={it.published ? 'teal' : 'gray'}>
          {it.published ? 'Published' : 'Draft'}
        </Badge>
      );
    case 'Archived':
      return it.archived ? 'Archived' : dash;
    case 'Tags':
      return it.tags.length ? <TagBadges item={it} /> : dash;
    default:
      return dash;
  }
}

/**
 * TABLE: one row per item and the view's columns with their widths; sticky columns stay at the
 * left while the table scrolls sideways, and wrapped ones show all their text.
 */
export function TableLayout({ view, items, fields, members }: { view: ProjectViewData; items: ViewItem[]; fields: Map<string, FieldInfo>; members: Map<string, string> }) {
  const columns = tableColumns(view);
  const widthOf = (c: ViewColumn) => c.width ?? DEFAULT_WIDTH;
  const lefts: Array<number | null> = [];
  let left = 0;
  for (const c of columns) {
    lefts.push(c.sticky ? left : null);
    if (c.sticky) left += widthOf(c);
  }
  const styleOf = (c: ViewColumn, i: number, head: boolean): CSSProperties => ({
    width: widthOf(c),
    minWidth: widthOf(c),
    maxWidth: widthOf(c),
    whiteSpace: c.wrapped ? 'normal' : 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    verticalAlign: 'top',
    ...(lefts[i] !== null ? { position: 'sticky', left: lefts[i]!, zIndex: head ? 3 : 1, background: 'var(--mantine-color-body)', boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-3)' } : {}),
  });
  const total = columns.reduce((n, c) => n + widthOf(c), 0);
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={total} type="native">
        <Table verticalSpacing="sm" highlightOnHover style={{ tableLayout: 'fixed', width: total }} aria-label={view.title}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c, i) => (
                <Table.Th key={c.field} style={styleOf(c, i, true)} data-sticky={c.sticky || undefined} data-wrapped={c.wrapped || undefined}>
                  {headerOf(c, fields)}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((it) => (
              <Table.Tr key={it.id}>
                {columns.map((c, i) => (
                  <Table.Td key={c.field} style={styleOf(c, i, false)}>
                    {cellOf(c, it, fields, members)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
