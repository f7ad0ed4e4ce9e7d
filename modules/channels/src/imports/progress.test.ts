import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../sources/contract.ts';
import { commitSpan, lastLine, notYetIn, progressCursor, readProgress, type LineSpan } from './progress.ts';

const at = (line: number) => ({ line, offset: line * 10, nextLine: line + 1 });
const span = (after: number, to: number): LineSpan => ({ after, to, end: at(to) });
const rows = (from: number, to: number): SourceItem[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({
    record: { externalId: `line-${from + i}`, content: 'x', createdAt: '2026-01-01T00:00:00Z' },
    line: from + i,
  }));

describe('the lines a run holds when its pages commit out of order', () => {
  it('moves on in order, and holds a page that committed before an earlier one until that one is in', () => {
    let p = readProgress(null);
    p = commitSpan(p, span(0, 200));
    expect(p).toEqual({ source: at(200), through: 200, ahead: [] });
    // The page of lines 401 to 800 commits first: the cursor stays at 200 and remembers it.
    p = commitSpan(p, span(400, 800));
    expect(p).toMatchObject({ through: 200, ahead: [span(400, 800)] });
    const saved = progressCursor(p);
    expect(saved).toMatchObject({ line: 200, offset: 2000, through: 200 });
    expect(readProgress(saved)).toEqual(p);
    // Then lines 201 to 400: both are in.
    p = commitSpan(readProgress(saved), span(200, 400));
    expect(p).toEqual({ source: at(800), through: 800, ahead: [] });
    expect(progressCursor(p)).not.toHaveProperty('ahead');
  });

  it('resumes after a crash with every row once: rows of a page already in are dropped', () => {
    // Crashed with lines up to 200 in, and 401 to 800 in ahead of 201 to 400.
    const resumed = readProgress(
      progressCursor(commitSpan(commitSpan(readProgress(null), span(0, 200)), span(400, 800))),
    );
    expect(resumed.source).toMatchObject({ line: 200 });
    // The resumed listing pages differently: 201 to 600, then 601 to 1000.
    const first = rows(201, 600);
    const kept = notYetIn(first, resumed.ahead);
    expect(kept.map((i) => ('record' in i ? i.line : 0))).toEqual(
      rows(201, 400).map((i) => ('record' in i ? i.line : 0)),
    );
    const second = rows(601, 1000);
    expect(notYetIn(second, resumed.ahead)).toHaveLength(200);
    // Whichever of the two commits first, the run ends with every line in.
    const a = span(resumed.through, lastLine(first, resumed.through));
    const b = span(a.to, lastLine(second, a.to));
    expect(commitSpan(commitSpan(resumed, a), b)).toEqual({ source: at(1000), through: 1000, ahead: [] });
    expect(commitSpan(commitSpan(resumed, b), a)).toEqual({ source: at(1000), through: 1000, ahead: [] });
  });
});
