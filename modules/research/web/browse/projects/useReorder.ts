import { useEffect, useState, type DragEvent, type KeyboardEvent } from 'react';
import { moveItem, type Move } from './reorder.ts';

/**
 * Drag-and-drop and keyboard reordering of a ranked list: the list shows the new order at once,
 * then `commit` saves it (with the neighbours); on failure the server's order comes back.
 */
export function useReorder<T extends { id: string; title: string }>(
  items: readonly T[],
  commit: (move: Move<T>) => Promise<boolean>,
) {
  const [order, setOrder] = useState<T[]>([...items]);
  const [dragging, setDragging] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => setOrder([...items]), [items]);

  async function apply(from: number, to: number) {
    const move = moveItem(order, from, to);
    if (!move) return;
    const before = order;
    setOrder(move.list);
    const title = move.list[to]!.title;
    setAnnouncement(`${title} moved to position ${to + 1} of ${move.list.length}.`);
    if (!(await commit(move))) setOrder(before);
  }

  const indexOf = (id: string) => order.findIndex((i) => i.id === id);

  return {
    order,
    announcement,
    dragging,
    /** Props for the element that can be dragged and dropped onto. */
    dragProps: (id: string, enabled: boolean) =>
      enabled
        ? {
            draggable: true,
            onDragStart: (e: DragEvent) => {
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', id);
              setDragging(id);
            },
            onDragEnd: () => setDragging(null),
            onDragOver: (e: DragEvent) => {
              if (dragging) e.preventDefault();
            },
            onDrop: (e: DragEvent) => {
              e.preventDefault();
              const from = dragging ? indexOf(dragging) : -1;
              setDragging(null);
              void apply(from, indexOf(id));
            },
          }
        : {},
    /** Arrow keys on the handle move the item up or down one place; Home and End to the ends. */
    onHandleKey: (id: string) => (e: KeyboardEvent) => {
      const from = indexOf(id);
      const to =
        e.key === 'ArrowUp'
          ? from - 1
          : e.key === 'ArrowDown'
            ? from + 1
            : e.key === 'Home'
              ? 0
              : e.key === 'End'
                ? order.length - 1
                : null;
      if (to === null) return;
      e.preventDefault();
      void apply(from, to);
    },
  };
}
