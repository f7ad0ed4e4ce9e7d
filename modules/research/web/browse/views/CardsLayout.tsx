import { Badge, Group, Paper, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { boardColumns } from './BoardLayout.tsx';
import type { FieldInfo, ProjectViewData, ViewItem } from './data.ts';
import { ItemCard } from './ItemCard.tsx';

/** One line of the layout: a group's heading, a row of cards, or a group's "nothing here". */
type Line =
  | { kind: 'heading'; key: string; title: string; color: string | null; count: number }
  | { kind: 'cards'; key: string; items: ViewItem[] }
  | { kind: 'empty'; key: string };

const GAP = 12;
const ESTIMATE = { heading: 40, cards: 132, empty: 32 } as const;

/** Cards side by side in a grid: one on a narrow screen, two on a middling one, three on a wide one. */
export function gridColumns(width: number): number {
  return width < 560 ? 1 : width < 900 ? 2 : 3;
}

/** The lines of the layout: with a grouping, each group's heading followed by its cards, `perRow` to a line. */
export function layoutLines(
  sections: Array<{ key: string; title: string; color: string | null; items: ViewItem[] }>,
  grouped: boolean,
  perRow: number,
): Line[] {
  const lines: Line[] = [];
  for (const s of sections) {
    if (grouped)
      lines.push({ kind: 'heading', key: `h:${s.key}`, title: s.title, color: s.color, count: s.items.length });
    if (grouped && !s.items.length) lines.push({ kind: 'empty', key: `e:${s.key}` });
    for (let i = 0; i < s.items.length; i += perRow) {
      const items = s.items.slice(i, i + perRow);
      lines.push({ kind: 'cards', key: `${s.key}:${items[0]!.id}`, items });
    }
  }
  return lines;
}

/** One line, kept as it is while the layout scrolls (only lines coming into sight are drawn). */
const LineView = memo(function LineView({
  line,
  first,
  perRow,
  hiddenFields,
  fields,
}: {
  line: Line;
  first: boolean;
  perRow: number;
  hiddenFields: string[];
  fields: Map<string, FieldInfo>;
}) {
  return (
    <>
      {line.kind === 'heading' ? (
        <Group gap={8} pt={first ? 0 : 8}>
          <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, background: line.color ?? '#ced4da' }} />
          <Text component="h2" fw={600} size="sm" m={0}>
            {line.title}
          </Text>
          <Badge variant="default" size="sm" radius="sm" aria-label={`${line.count} items`}>
            {line.count}
          </Badge>
        </Group>
      ) : line.kind === 'empty' ? (
        <Text size="sm" c="gray.7">
          Nothing here
        </Text>
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`, gap: GAP }}>
          {line.items.map((it) => (
            <ItemCard key={it.id} item={it} hiddenFields={hiddenFields} fields={fields} />
          ))}
        </div>
      )}
    </>
  );
});

/**
 * LIST and GRID: cards one per line or in a grid; with a grouping, a heading per group. Only the
 * lines in sight are drawn, in a scrolling area of their own, so ten thousand cards stay smooth.
 */
export function CardsLayout({
  view,
  items,
  total,
  fields,
  members,
  grid,
}: {
  view: ProjectViewData;
  items: ViewItem[];
  total: number;
  fields: Map<string, FieldInfo>;
  members: Map<string, string>;
  grid: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1200);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 1200));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const perRow = grid ? gridColumns(width) : 1;
  const grouped = Boolean(view.group);
  const lines = useMemo(
    () =>
      layoutLines(
        grouped ? boardColumns(view, items, fields, members) : [{ key: 'all', title: '', color: null, items }],
        grouped,
        perRow,
      ),
    [view, items, fields, members, grouped, perRow],
  );
  const rows = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => ESTIMATE[lines[i]!.kind] + (grid ? 0 : -40),
    getItemKey: (i) => lines[i]!.key,
    overscan: 4,
  });
  const what = view.objectType === 'HIGHLIGHT' ? 'highlights' : view.objectType === 'INSIGHT' ? 'insights' : 'notes';
  return (
    <Paper withBorder radius="md" p={0}>
      <div
        ref={scroller}
        role="region"
        aria-label={`${view.title}: ${total.toLocaleString()} ${what}, scroll to see more`}
        tabIndex={0}
        data-cards-scroller
        style={{ maxHeight: 'min(75vh, 900px)', overflowY: 'auto', padding: 12 }}
      >
        <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
          {rows.getVirtualItems().map((v) => {
            const line = lines[v.index]!;
            return (
              <div
                key={v.key}
                data-index={v.index}
                ref={rows.measureElement}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  transform: `translateY(${v.start}px)`,
                  paddingBottom: line.kind === 'heading' ? 8 : GAP,
                }}
              >
                <LineView
                  line={line}
                  first={v.index === 0}
                  perRow={perRow}
                  hiddenFields={view.hiddenFields}
                  fields={fields}
                />
              </div>
            );
          })}
        </div>
      </div>
      {items.length < total && (
        <Text size="xs" c="gray.7" p="xs" role="status">
          Loading {what}… {items.length.toLocaleString()} of {total.toLocaleString()}
        </Text>
      )}
    </Paper>
  );
}
