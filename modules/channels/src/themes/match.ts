/**
 * Matches a new clustering's groups to the themes (or topics) before it by shared members, so a
 * theme that is still there keeps its id, its manual title and what cites it. Greedy on overlap:
 * a pair matches when they share at least a third of the smaller group.
 */
export function matchGroups(
  next: ReadonlyArray<ReadonlySet<string> | readonly string[]>,
  previous: ReadonlyMap<string, ReadonlySet<string>>,
): Map<number, string> {
  const pairs: Array<{ i: number; id: string; overlap: number; share: number }> = [];
  next.forEach((group, i) => {
    const members = [...group];
    for (const [id, old] of previous) {
      let overlap = 0;
      for (const m of members) if (old.has(m)) overlap++;
      const share = overlap / Math.max(1, Math.min(members.length, old.size));
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
