import type { Json, SourceItem } from '../sources/contract.ts';

/**
 * Where a run stands when its pages may commit out of order (a source whose items carry growing
 * line numbers, such as a CSV file). Every line up to `through` is in, and so is every span of
 * `ahead`: pages written side by side that committed before an earlier page. A listing resumed
 * from `source` (the cursor of the page that ends at `through`) drops the items of those spans,
 * so that after a crash every row is written and counted exactly once.
 */
export interface LineProgress {
  source: Json;
  through: number;
  ahead: LineSpan[];
}

/** A page: the lines after `after` up to `to`, whose listing continues from `end`. */
export interface LineSpan {
  after: number;
  to: number;
  end: Json;
}

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The progress a run's saved cursor holds (a cursor saved before pages ran side by side is all `source`). */
export function readProgress(cursor: Json): LineProgress {
  if (!isObject(cursor) || typeof cursor.through !== 'number') return { source: cursor, through: 0, ahead: [] };
  const { through, ahead, ...source } = cursor;
  const spans = Array.isArray(ahead)
    ? ahead.filter(isObject).map((s) => ({ after: Number(s.after), to: Number(s.to), end: s.end ?? null }))
    : [];
  return { source, through, ahead: spans };
}

/** The cursor saved for `progress`: the source's own keys, and where the lines stand. */
export function progressCursor(progress: LineProgress): Json {
  const source = isObject(progress.source) ? progress.source : {};
  return {
    ...source,
    through: progress.through,
    ...(progress.ahead.length ? { ahead: progress.ahead as unknown as Json[] } : {}),
  };
}

/** `progress` with one more page in: it extends `through` if no earlier line is missing, else waits in `ahead`. */
export function commitSpan(progress: LineProgress, span: LineSpan): LineProgress {
  let { source, through } = progress;
  const pending = [...progress.ahead, span].sort((a, b) => a.after - b.after);
  const ahead: LineSpan[] = [];
  for (const s of pending) {
    if (s.after > through) ahead.push(s);
    else if (s.to > through) {
      through = s.to;
      source = s.end;
    }
  }
  // In order of where they start, one pass joins every span that now follows on from what is in.
  return { source, through, ahead };
}

const lineOf = (item: SourceItem): number | undefined =>
  'record' in item ? item.line : 'rejected' in item ? item.rejected.line : item.line;

/** The last line of a page's items, or `after` when none has one. */
export const lastLine = (items: readonly SourceItem[], after: number): number =>
  items.reduce((to, item) => Math.max(to, lineOf(item) ?? to), after);

/** The items of a page that no committed span already holds. */
export function notYetIn(items: readonly SourceItem[], ahead: readonly LineSpan[]): SourceItem[] {
  if (!ahead.length) return [...items];
  return items.filter((item) => {
    const line = lineOf(item);
    return line === undefined || !ahead.some((s) => line > s.after && line <= s.to);
  });
}
