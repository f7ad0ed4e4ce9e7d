/** One paragraph of a note's change as a person reads it: kept, removed, added, or a run of kept ones left out. */
export interface DiffLine {
  kind: 'SAME' | 'REMOVED' | 'ADDED' | 'SKIPPED';
  text: string;
}

/** Unchanged paragraphs shown around a change; longer runs are folded into one SKIPPED line. */
const CONTEXT = 1;
/** Lines a card shows at most: a change longer than this says how much more there is. */
export const DIFF_LINES_MAX = 120;
/** A paragraph is shown up to this many characters. */
const LINE_MAX = 600;
/** Above this many cells the paragraphs are compared as two blocks instead (a full table would be slow). */
const TABLE_MAX = 2_000_000;

const cut = (s: string) => (s.length > LINE_MAX ? `${s.slice(0, LINE_MAX).trimEnd()}…` : s);
const paragraphs = (text: string) => (text === '' ? [] : text.split('\n'));

/** The paragraphs removed and added from `before` to `after`, longest common run kept (LCS). */
function compare(a: readonly string[], b: readonly string[]): DiffLine[] {
  // Common head and tail first: an append or a small edit compares only what changed.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle: DiffLine[] = [];
  if (x.length * y.length > TABLE_MAX) {
    middle.push(...x.map((text) => ({ kind: 'REMOVED' as const, text })));
    middle.push(...y.map((text) => ({ kind: 'ADDED' as const, text })));
  } else {
    // lcs[i][j]: the longest common run of x[i..] and y[j..].
    const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        middle.push({ kind: 'SAME', text: x[i]! });
        i++;
        j++;
      } else if (i < x.length && (j === y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
        // Removed before added, as diffs are read: the old paragraph, then what replaces it.
        middle.push({ kind: 'REMOVED', text: x[i++]! });
      } else {
        middle.push({ kind: 'ADDED', text: y[j++]! });
      }
    }
  }
  return [
    ...a.slice(0, head).map((text) => ({ kind: 'SAME' as const, text })),
    ...middle,
    ...a.slice(a.length - tail).map((text) => ({ kind: 'SAME' as const, text })),
  ];
}

/**
 * A note's text before and after a change, paragraph by paragraph: what is removed and added,
 * with one unchanged paragraph around each change and longer unchanged runs folded.
 */
export function textDiff(before: string, after: string): DiffLine[] {
  const lines = compare(paragraphs(before), paragraphs(after));
  const near = (i: number) => {
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++)
      if (lines[k]!.kind !== 'SAME') return true;
    return false;
  };
  const out: DiffLine[] = [];
  let folded = 0;
  const fold = () => {
    if (folded > 0) out.push({ kind: 'SKIPPED', text: `${folded} unchanged paragraph${folded === 1 ? '' : 's'}` });
    folded = 0;
  };
  lines.forEach((line, i) => {
    if (line.kind === 'SAME' && !near(i)) {
      folded++;
      return;
    }
    fold();
    out.push({ kind: line.kind, text: cut(line.text) });
  });
  fold();
  if (out.length <= DIFF_LINES_MAX) return out;
  const rest = out.length - DIFF_LINES_MAX;
  return [...out.slice(0, DIFF_LINES_MAX), { kind: 'SKIPPED', text: `${rest} more lines of the change` }];
}
