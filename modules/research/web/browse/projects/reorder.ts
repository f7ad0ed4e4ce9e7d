/**
 * Moving one item of a ranked list to another place: the new order, and the neighbours the server
 * needs (`moveProject(id, previousId, nextId)` ranks it between them).
 */
export interface Move<T> {
  list: T[];
  id: string;
  previousId: string | null;
  nextId: string | null;
}

export function moveItem<T extends { id: string }>(list: readonly T[], from: number, to: number): Move<T> | null {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return null;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return { list: next, id: item!.id, previousId: next[to - 1]?.id ?? null, nextId: next[to + 1]?.id ?? null };
}
