/**
 * Matches a new clustering's groups to the themes (or topics) before it by shared members, so a
 * theme that is still there keeps its id, its manual title and what cites it. Greedy on overlap:
 * a pair matches when they share at least a third of the smaller group. Overlaps are counted from
 * each member's old groups, once per member: comparing every pair of groups member by member took
 * about a second at 200,000 points.
 */
export function matchGroups(
  next: ReadonlyArray<ReadonlySet<string> | readonly string[]>,
  previous: ReadonlyMap<string, ReadonlySet<string>>,
): Map<number, string> {
  const groupsOf = new Map<string, string[]>();
  for (const [id, old] of previous)
    for (const m of old) {
      const ids = groupsOf.get(m);
      if (ids) ids.push(id);
      else groupsOf.set(m, [id]);
    }
  const pairs: Array<{ i: number; id: string; overlap: number; share: number }> = [];
  next.forEach((group, i) => {
    const shared = new Map<string, number>();
    let size = 0;
    for (const m of group) {
      size++;
      for (const id of groupsOf.get(m) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    // In the old groups' order, as ties were broken before.
    for (const [id, old] of previous) {
      const overlap = shared.get(id);
      if (!overlap) continue;
      const share = overlap / Math.max(1, Math.min(size, old.size));
      if (share >= 1 / 3) pairs.push({ i, id, overlap, share });
    }
  });
  pairs.sort((a, b) => b.overlap - a.overlap || b.share - a.share);
  const matched = new Map<number, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    if (matched.has(p.i) || taken.has(p.id)) continue;
    matched.set(p.i, p.id);
    taken.add(p.id);
  }
  return matched;
}
