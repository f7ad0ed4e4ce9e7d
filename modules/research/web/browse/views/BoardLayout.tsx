import { ActionIcon, Badge, Box, Group, Menu, Paper, Text } from '@mantine/core';
import { IconArrowsMove } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { NO_VALUE, type FieldInfo, type ProjectViewData, type ViewItem } from './data.ts';
import { ItemCard } from './ItemCard.tsx';
import { boardKind, canMove, useMoveItem } from './moves.ts';

export interface BoardColumn {
  key: string;
  title: string;
  color: string | null;
  items: ViewItem[];
}

/**
 * The columns of a board by the view's grouping: published or draft for insights, tags for
 * highlights, the options of a select field or the people of a person field; a card shows in
 * every column it belongs to, and the rest go to "No value" unless the view hides it. Hidden
 * options (ids) drop their column. Without a grouping, insights go by published and highlights
 * by tag, as on the board of a new view.
 */
export function boardColumns(
  view: ProjectViewData,
  items: ViewItem[],
  fields: Map<string, FieldInfo>,
  members: Map<string, string>,
): BoardColumn[] {
  const kind = boardKind(view);
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
        add(
          id,
          kind === 'PERSON' ? (members.get(id) ?? 'Former member') : (option?.label ?? 'Removed option'),
          option?.color ?? null,
        ).items.push(it);
      }
    }
  } else {
    none.title = 'All';
    none.items.push(...items);
  }
  const hidden = new Set(view.hiddenOptions);
  const out = [...columns.values()].filter((c) => !hidden.has(c.key));
  // Published or draft leaves nothing uncategorized.
  if ((!view.hideUncategorized && kind !== 'PUBLISHED') || !kind) out.push(none);
  return out;
}

/** A card's "Move to" menu: the keyboard's way to do what dragging does. */
function MoveMenu({
  item,
  from,
  columns,
  onMove,
}: {
  item: ViewItem;
  from: string;
  columns: BoardColumn[];
  onMove(to: string): void;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          size="sm"
          variant="subtle"
          color="gray"
          aria-label={`Move ${item.kind === 'highlight' ? 'highlight' : `“${item.title}”`} to…`}
          style={{ position: 'absolute', top: 6, right: 6 }}
        >
          <IconArrowsMove size={14} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Move to</Menu.Label>
        {columns
          .filter((c) => c.key !== from)
          .map((c) => (
            <Menu.Item key={c.key} onClick={() => onMove(c.key)}>
              {c.title}
            </Menu.Item>
          ))}
      </Menu.Dropdown>
    </Menu>
  );
}

const DRAG_TYPE = 'application/x-fieldbook-card';
/** A card's usual height with its gap; cards are measured as they are drawn. */
const CARD_ESTIMATE = 118;
const CARD_GAP = 8;

/**
 * A column's cards, scrolling on their own: only the cards in sight (and a few more) are drawn,
 * so a column of ten thousand cards scrolls like one of ten.
 */
/** A drawn card, kept as it is while its column scrolls (only new cards are drawn). */
const CardSlot = memo(function CardSlot({ item, render }: { item: ViewItem; render(item: ViewItem): ReactNode }) {
  return <>{render(item)}</>;
});

function ColumnCards({ column, render }: { column: BoardColumn; render(item: ViewItem): ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const items = column.items;
  const cards = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_ESTIMATE,
    getItemKey: (i) => items[i]!.id,
    overscan: 6,
  });
  if (!items.length) return null;
  return (
    <div
      ref={scroller}
      role="group"
      aria-label={`${column.title}: ${items.length.toLocaleString()} ${items.length === 1 ? 'card' : 'cards'}`}
      tabIndex={0}
      data-column-scroller
      style={{
        maxHeight: 'max(360px, calc(100vh - 300px))',
        overflowY: 'auto',
        overflowX: 'hidden',
        margin: -4,
        padding: 4,
      }}
    >
      <div style={{ height: cards.getTotalSize(), position: 'relative' }}>
        {cards.getVirtualItems().map((v) => (
          <div
            key={v.key}
            data-index={v.index}
            ref={cards.measureElement}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              right: 0,
              transform: `translateY(${v.start}px)`,
              paddingBottom: CARD_GAP,
            }}
          >
            <CardSlot item={items[v.index]!} render={render} />
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * BOARD: a column per value of the grouping. People who may edit the view drag a card to another
 * column (or use its "Move to" menu) to change that value; the board then reloads.
 */
export function BoardLayout({
  view,
  items,
  fields,
  members,
  onMoved,
}: {
  view: ProjectViewData;
  items: ViewItem[];
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  onMoved(): void;
}) {
  const columns = boardColumns(view, items, fields, members);
  const movable = canMove(view, fields);
  const moveItem = useMoveItem(view, fields);
  const [over, setOver] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const byId = new Map(items.map((it) => [it.id, it]));
  const move = async (item: ViewItem, from: string, to: string) => {
    setBusy(true);
    if (await moveItem(item, from, to)) onMoved();
    setBusy(false);
  };
  return (
    <Box
      style={{ overflowX: 'auto', opacity: busy ? 0.7 : 1 }}
      pb="sm"
      tabIndex={0}
      role="region"
      aria-label="Board columns, scroll sideways for more"
      aria-busy={busy}
    >
      <Group align="flex-start" wrap="nowrap" gap="md">
        {columns.map((c) => (
          <Paper
            key={c.key}
            component="section"
            aria-label={`${c.title} column`}
            bg={over === c.key ? 'indigo.0' : 'gray.0'}
            radius="md"
            p="sm"
            w={280}
            style={{
              flex: '0 0 280px',
              outline: over === c.key ? '2px dashed var(--mantine-color-indigo-4)' : undefined,
            }}
            data-column={c.title}
            onDragOver={
              movable
                ? (e) => {
                    if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
                    e.preventDefault();
                    e.dataTransfer.dropEffect = 'move';
                    setOver(c.key);
                  }
                : undefined
            }
            onDragLeave={movable ? () => setOver((o) => (o === c.key ? null : o)) : undefined}
            onDrop={
              movable
                ? (e) => {
                    e.preventDefault();
                    setOver(null);
                    const [id, from] = (e.dataTransfer.getData(DRAG_TYPE) || '').split('|');
                    const item = id ? byId.get(id) : undefined;
                    if (item && from !== undefined) void move(item, from, c.key);
                  }
                : undefined
            }
          >
            <Group justify="space-between" mb="sm" wrap="nowrap">
              <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                <span
                  aria-hidden
                  style={{ width: 10, height: 10, borderRadius: 5, flexShrink: 0, background: c.color ?? '#ced4da' }}
                />
                <Text fw={600} size="sm" truncate component="h2" m={0}>
                  {c.title}
                </Text>
              </Group>
              <Badge variant="default" size="sm" radius="sm" aria-label={`${c.items.length} items`}>
                {c.items.length}
              </Badge>
            </Group>
            <ColumnCards
              column={c}
              render={(it) => (
                <Box
                  pos="relative"
                  draggable={movable}
                  onDragStart={
                    movable
                      ? (e: DragEvent<HTMLDivElement>) => (
                          e.dataTransfer.setData(DRAG_TYPE, `${it.id}|${c.key}`),
                          (e.dataTransfer.effectAllowed = 'move')
                        )
                      : undefined
                  }
                  onDragEnd={() => setOver(null)}
                  style={{ cursor: movable ? 'grab' : undefined }}
                >
                  <ItemCard item={it} compact hiddenFields={view.hiddenFields} fields={fields} />
                  {movable && (
                    <MoveMenu item={it} from={c.key} columns={columns} onMove={(to) => void move(it, c.key, to)} />
                  )}
                </Box>
              )}
            />
            {!c.items.length && (
              <Text size="xs" c="gray.7" ta="center" py="md">
                {movable ? 'Drop cards here' : 'Nothing here'}
              </Text>
            )}
          </Paper>
        ))}
      </Group>
    </Box>
  );
}
