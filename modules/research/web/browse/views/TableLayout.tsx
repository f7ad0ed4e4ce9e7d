import { ActionIcon, Anchor, Badge, Group, Menu, Paper, Text } from '@mantine/core';
import {
  IconArrowLeft,
  IconArrowRight,
  IconChevronDown,
  IconEyeOff,
  IconPin,
  IconPinnedOff,
  IconSortAscending,
  IconSortDescending,
  IconTextWrap,
} from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { formatDate } from '../ui/hooks.ts';
import { TitleEditor, ValueEditor } from './CellEditor.tsx';
import { DEFAULT_WIDTH, WIDTH_MAX, WIDTH_MIN, columnLabel, tableColumns } from './columns.ts';
import { fieldIdOf, type FieldInfo, type ProjectViewData, type ViewColumn, type ViewItem } from './data.ts';
import { TagBadges, Thumbnail } from './ItemCard.tsx';

const ROW_HEIGHT = 41;
const KEY_STEP = 16;

const dash = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

function cellOf(c: ViewColumn, it: ViewItem, fields: Map<string, FieldInfo>, members: Map<string, string>): ReactNode {
  const custom = fieldIdOf(c.field);
  if (custom) {
    const v = it.values.get(custom);
    if (!v) return dash;
    const field = fields.get(custom);
    if (field?.type === 'SELECT') {
      return (
        <Group gap={4} wrap={c.wrapped ? 'wrap' : 'nowrap'}>
          {v.options.map((o) => (
            <Badge
              key={o.id}
              size="sm"
              radius="sm"
              variant="light"
              color="gray"
              leftSection={
                <span
                  aria-hidden
                  style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, background: o.color }}
                />
              }
            >
              {o.label}
            </Badge>
          ))}
        </Group>
      );
    }
    if (field?.type === 'PERSON' && Array.isArray(v.value))
      return (v.value as string[]).map((u) => members.get(u) ?? 'Former member').join(', ');
    if (field?.type === 'DATETIME' && typeof v.value === 'string') return formatDate(v.value);
    if (typeof v.value === 'boolean') return v.value ? 'Yes' : 'No';
    return String(v.value);
  }
  switch (c.field) {
    case 'Title':
    case 'Name':
      return it.kind === 'highlight' ? (
        `“${it.title}”`
      ) : (
        <Anchor component={Link} to={it.href} fw={500} size="sm">
          {it.title}
        </Anchor>
      );
    case 'Highlight':
      return it.kind === 'highlight' ? (
        <Text
          size="sm"
          inherit
          span
          style={{ borderLeft: `3px solid ${it.fill ?? 'rgba(250, 176, 5, 0.35)'}`, paddingLeft: 8 }}
        >
          “{it.title}”
        </Text>
      ) : (
        dash
      );
    case 'Content':
      if (it.kind === 'highlight') return `“${it.title}”`;
      return it.preview ? (
        <Text size="sm" inherit span c="gray.7">
          {it.preview}
        </Text>
      ) : (
        dash
      );
    case 'Thumbnail':
      return it.thumbnailUrl ? <Thumbnail url={it.thumbnailUrl} title={it.title} width={38} height={21} /> : dash;
    case 'Summary':
      return it.summary ? (
        <Text size="sm" inherit span>
          {it.summary}
        </Text>
      ) : (
        dash
      );
    case 'Insights':
      return it.insights.length ? (
        <Group gap={6} wrap={c.wrapped ? 'wrap' : 'nowrap'}>
          {it.insights.map((i) => (
            <Anchor key={i.id} component={Link} to={`/insights/${i.id}`} size="sm">
              {i.title}
            </Anchor>
          ))}
        </Group>
      ) : (
        dash
      );
    case 'HighlightCount':
      return it.highlightCount === undefined ? dash : it.highlightCount.toLocaleString();
    case 'PublishedAt':
      return it.publishedAt ? formatDate(it.publishedAt) : dash;
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
    case 'Authors':
      return it.createdById ? (members.get(it.createdById) ?? 'Former member') : dash;
    case 'Contributors':
      return it.contributorIds.length
        ? it.contributorIds.map((u) => members.get(u) ?? 'Former member').join(', ')
        : dash;
    case 'Published':
      return it.published === undefined ? (
        dash
      ) : (
        <Badge size="sm" variant="light" radius="sm" color={it.published ? 'teal' : 'gray'}>
          {it.published ? 'Published' : 'Draft'}
        </Badge>
      );
    case 'Archived':
      return it.archived ? 'Archived' : dash;
    case 'Tags':
      return it.tags.length ? <TagBadges item={it} inline /> : dash;
    default:
      return dash;
  }
}

interface TableProps {
  view: ProjectViewData;
  items: ViewItem[];
  total: number;
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  save(input: Record<string, unknown>): Promise<boolean>;
  patch(id: string, change: (item: ViewItem) => ViewItem): void;
}

/** Whether a cell can be edited in place: a note's or insight's title, and its custom fields. */
function editable(c: ViewColumn, it: ViewItem, fields: Map<string, FieldInfo>): boolean {
  if (it.kind === 'highlight' || it.locked) return false;
  if (c.field === 'Title') return true;
  const id = fieldIdOf(c.field);
  return Boolean(id && fields.has(id));
}

function ColumnMenu({
  view,
  column,
  index,
  count,
  label,
  change,
  sortBy,
}: {
  view: ProjectViewData;
  column: ViewColumn;
  index: number;
  count: number;
  label: string;
  change(next: ViewColumn[] | ((cols: ViewColumn[]) => ViewColumn[])): void;
  sortBy(direction: 'ASC' | 'DESC'): void;
}) {
  const set = (patch: Partial<ViewColumn>) =>
    change((cols) => cols.map((c) => (c.field === column.field ? { ...c, ...patch } : c)));
  const move = (by: -1 | 1) =>
    change((cols) => {
      const next = [...cols];
      const [moved] = next.splice(index, 1);
      next.splice(index + by, 0, moved!);
      return next;
    });
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Options for the ${label} column`}>
          <IconChevronDown size={12} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconSortAscending size={14} aria-hidden />} onClick={() => sortBy('ASC')}>
          Sort ascending
        </Menu.Item>
        <Menu.Item leftSection={<IconSortDescending size={14} aria-hidden />} onClick={() => sortBy('DESC')}>
          Sort descending
        </Menu.Item>
        {view.canEdit && (
          <>
            <Menu.Divider />
            <Menu.Item
              leftSection={column.sticky ? <IconPinnedOff size={14} aria-hidden /> : <IconPin size={14} aria-hidden />}
              onClick={() => set({ sticky: !column.sticky })}
            >
              {column.sticky ? 'Unpin column' : 'Pin column to the left'}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconTextWrap size={14} aria-hidden />}
              onClick={() => set({ wrapped: !column.wrapped })}
            >
              {column.wrapped ? 'Show on one line' : 'Wrap text'}
            </Menu.Item>
            {index > 0 && (
              <Menu.Item leftSection={<IconArrowLeft size={14} aria-hidden />} onClick={() => move(-1)}>
                Move left
              </Menu.Item>
            )}
            {index < count - 1 && (
              <Menu.Item leftSection={<IconArrowRight size={14} aria-hidden />} onClick={() => move(1)}>
                Move right
              </Menu.Item>
            )}
            <Menu.Item
              leftSection={<IconEyeOff size={14} aria-hidden />}
              onClick={() => change((cols) => cols.filter((c) => c.field !== column.field))}
            >
              Hide column
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The resize handle at a header's right edge: drag it, or focus it and use the arrow keys. */
function ResizeHandle({
  label,
  width,
  onResize,
  onCommit,
}: {
  label: string;
  width: number;
  onResize(width: number): void;
  onCommit(width: number): void;
}) {
  const clamp = (w: number) => Math.max(WIDTH_MIN, Math.min(WIDTH_MAX, Math.round(w)));
  // Arrow keys pressed in a row save once, when they stop, so saves never overtake each other.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize the ${label} column`}
      aria-valuenow={width}
      aria-valuemin={WIDTH_MIN}
      aria-valuemax={WIDTH_MAX}
      tabIndex={0}
      data-resize={label}
      style={{ position: 'absolute', top: 0, right: -4, width: 9, height: '100%', cursor: 'col-resize', zIndex: 4 }}
      onPointerDown={(e) => {
        e.preventDefault();
        const start = e.clientX;
        const el = e.currentTarget;
        el.setPointerCapture(e.pointerId);
        let last = width;
        const moveTo = (ev: PointerEvent) => {
          last = clamp(width + ev.clientX - start);
          onResize(last);
        };
        const up = () => {
          el.removeEventListener('pointermove', moveTo);
          el.removeEventListener('pointerup', up);
          onCommit(last);
        };
        el.addEventListener('pointermove', moveTo);
        el.addEventListener('pointerup', up);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        e.preventDefault();
        const next = clamp(width + (e.key === 'ArrowRight' ? KEY_STEP : -KEY_STEP));
        onResize(next);
        clearTimeout(pending.current ?? undefined);
        pending.current = setTimeout(() => onCommit(next), 400);
      }}
    />
  );
}

const Row = memo(function Row({
  it,
  index,
  columns,
  styles,
  fields,
  members,
  canEdit,
  editing,
  setEditing,
  patch,
  measure,
}: {
  it: ViewItem;
  index: number;
  columns: ViewColumn[];
  styles: CSSProperties[];
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  canEdit: boolean;
  editing: string | null;
  setEditing(key: string | null): void;
  patch(id: string, change: (item: ViewItem) => ViewItem): void;
  measure?: (el: Element | null) => void;
}) {
  return (
    <tr data-index={index} ref={measure} aria-rowindex={index + 2} data-row-id={it.id}>
      {columns.map((c, i) => {
        const canEditCell = canEdit && editable(c, it, fields);
        const key = `${it.id}|${c.field}`;
        const done = (change?: (item: ViewItem) => ViewItem) => {
          if (change) patch(it.id, change);
          setEditing(null);
        };
        const field = fields.get(fieldIdOf(c.field) ?? '');
        const open = (e: KeyboardEvent<HTMLTableCellElement>) => {
          if (e.target !== e.currentTarget) return;
          if (e.key === 'Enter' || e.key === 'F2') {
            e.preventDefault();
            setEditing(key);
          }
        };
        return (
          <td
            key={c.field}
            style={styles[i]}
            data-cell={c.field}
            tabIndex={canEditCell ? 0 : undefined}
            aria-label={
              canEditCell && editing !== key
                ? `${c.field === 'Title' ? 'Title' : (field?.label ?? c.field)}: press Enter to edit`
                : undefined
            }
            onDoubleClick={canEditCell ? () => setEditing(key) : undefined}
            onKeyDown={canEditCell ? open : undefined}
          >
            {editing === key ? (
              c.field === 'Title' ? (
                <TitleEditor item={it} onDone={done} />
              ) : field ? (
                <ValueEditor item={it} field={field} members={members} onDone={done} />
              ) : null
            ) : (
              cellOf(c, it, fields, members)
            )}
          </td>
        );
      })}
    </tr>
  );
});

/**
 * TABLE: one row per item and the view's columns with their widths. Only the rows in sight are
 * drawn (ten thousand rows scroll as smoothly as fifty); sticky columns stay at the left, wrapped
 * ones show all their text; headers resize by dragging or with the arrow keys, and their menus
 * pin, wrap, move, hide and sort. Titles and custom fields are edited in place (double-click, or
 * Enter on a focused cell).
 */
export function TableLayout({ view, items, total, fields, members, save, patch }: TableProps) {
  const saved = tableColumns(view);
  const [widths, setWidths] = useState<Record<string, number>>({});
  const [editing, setEditing] = useState<string | null>(null);
  // Saved widths replace what was dragged once the view comes back.
  useEffect(() => setWidths({}), [view.columns]);
  const dragged = saved.map((c) => (widths[c.field] ? { ...c, width: widths[c.field]! } : c));
  const columnsKey = JSON.stringify(dragged);
  // Stable between scroll frames, so rows already drawn are not drawn again as the table scrolls.
  const { columns, headStyles, bodyStyles, width } = useMemo(() => {
    const cols = JSON.parse(columnsKey) as ViewColumn[];
    const widthOf = (c: ViewColumn) => c.width ?? DEFAULT_WIDTH;
    const lefts: Array<number | null> = [];
    let left = 0;
    for (const c of cols) {
      lefts.push(c.sticky ? left : null);
      if (c.sticky) left += widthOf(c);
    }
    const wrapped = cols.some((c) => c.wrapped);
    const styleOf = (c: ViewColumn, i: number, head: boolean): CSSProperties => ({
      width: widthOf(c),
      minWidth: widthOf(c),
      maxWidth: widthOf(c),
      whiteSpace: c.wrapped ? 'normal' : 'nowrap',
      overflow: head ? 'visible' : 'hidden',
      textOverflow: 'ellipsis',
      verticalAlign: 'top',
      padding: '10px 12px',
      borderBottom: '1px solid var(--mantine-color-gray-3)',
      fontSize: 'var(--mantine-font-size-sm)',
      height: wrapped ? undefined : ROW_HEIGHT,
      boxSizing: 'border-box',
      background: head || lefts[i] !== null ? 'var(--mantine-color-body)' : undefined,
      ...(head
        ? { position: 'sticky', top: 0, zIndex: lefts[i] !== null ? 3 : 2, textAlign: 'left', fontWeight: 600 }
        : {}),
      ...(lefts[i] !== null
        ? {
            position: 'sticky',
            left: lefts[i]!,
            zIndex: head ? 3 : 1,
            boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-3)',
          }
        : {}),
    });
    return {
      columns: cols,
      headStyles: cols.map((c, i) => styleOf(c, i, true)),
      bodyStyles: cols.map((c, i) => styleOf(c, i, false)),
      width: cols.reduce((n, c) => n + widthOf(c), 0),
    };
  }, [columnsKey]);
  const widthOf = (c: ViewColumn) => c.width ?? DEFAULT_WIDTH;
  const wrapped = columns.some((c) => c.wrapped);

  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const virtual = rows.getVirtualItems();
  const top = virtual[0]?.start ?? 0;
  const bottom = rows.getTotalSize() - (virtual[virtual.length - 1]?.end ?? 0);

  const change = (next: ViewColumn[] | ((cols: ViewColumn[]) => ViewColumn[])) => {
    const cols = typeof next === 'function' ? next(columns) : next;
    void save({ columns: cols.map((c) => ({ field: c.field, width: c.width, sticky: c.sticky, wrapped: c.wrapped })) });
  };

  // The header (with its menus) stays as it is while the rows scroll under it.
  const head = useMemo(
    () => (
      <thead>
        <tr aria-rowindex={1}>
          {columns.map((c, i) => {
            const label = columnLabel(c.field, fields, view.objectType);
            return (
              <th
                key={c.field}
                style={headStyles[i]}
                data-sticky={c.sticky || undefined}
                data-wrapped={c.wrapped || undefined}
                data-column={label}
                scope="col"
              >
                <Group gap={4} wrap="nowrap" justify="space-between">
                  <Text size="sm" fw={600} truncate>
                    {label}
                  </Text>
                  <ColumnMenu
                    view={view}
                    column={c}
                    index={i}
                    count={columns.length}
                    label={label}
                    change={change}
                    sortBy={(direction) =>
                      void save({
                        sort: [
                          {
                            field: c.field === 'Title' && view.objectType === 'HIGHLIGHT' ? 'Highlight' : c.field,
                            direction,
                          },
                        ],
                      })
                    }
                  />
                </Group>
                {view.canEdit && (
                  <ResizeHandle
                    label={label}
                    width={widthOf(c)}
                    onResize={(w) => setWidths((ws) => ({ ...ws, [c.field]: w }))}
                    onCommit={(w) => change((cols) => cols.map((x) => (x.field === c.field ? { ...x, width: w } : x)))}
                  />
                )}
              </th>
            );
          })}
        </tr>
      </thead>
    ),
    // `change` and the dragged widths follow `columns`.
    [columns, headStyles, view, fields, save],
  );

  return (
    <Paper withBorder>
      <div
        ref={scroller}
        role="region"
        aria-label={`${view.title}: ${total.toLocaleString()} rows, scroll to see more`}
        tabIndex={0}
        data-table-scroller
        style={{ maxHeight: 'min(70vh, 760px)', overflow: 'auto', position: 'relative' }}
      >
        <table
          style={{ tableLayout: 'fixed', width, borderCollapse: 'separate', borderSpacing: 0 }}
          aria-label={view.title}
          aria-rowcount={total + 1}
        >
          {head}
          <tbody>
            {top > 0 && (
              <tr aria-hidden>
                <td style={{ height: top, padding: 0, border: 0 }} colSpan={columns.length} />
              </tr>
            )}
            {virtual.map((v) => (
              <Row
                key={items[v.index]!.id}
                it={items[v.index]!}
                index={v.index}
                columns={columns}
                styles={bodyStyles}
                fields={fields}
                members={members}
                canEdit={view.canEdit}
                editing={editing?.startsWith(`${items[v.index]!.id}|`) ? editing : null}
                setEditing={setEditing}
                patch={patch}
                measure={wrapped ? rows.measureElement : undefined}
              />
            ))}
            {bottom > 0 && (
              <tr aria-hidden>
                <td style={{ height: bottom, padding: 0, border: 0 }} colSpan={columns.length} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {items.length < total && (
        <Text size="xs" c="dimmed" p="xs" role="status">
          Loading rows… {items.length.toLocaleString()} of {total.toLocaleString()}
        </Text>
      )}
    </Paper>
  );
}
