import { describe, expect, it } from 'vitest';
import { locatePassage } from './locate.ts';

const note = 'We export every Friday.\nThe export times out on big projects, so we split them by hand.';

describe('locating a suggested passage in its note', () => {
  it('finds a passage written exactly, and one whose line break became a space', () => {
    expect(locatePassage('The export times out on big projects', note)).toEqual({ start: 24, end: 60 });
    const across = locatePassage('every Friday. The export', note)!;
    expect(note.slice(across.start, across.end)).toBe('every Friday.\nThe export');
  });

  it('ignores the quote marks a model wraps a passage in', () => {
    const found = locatePassage('“we split them by hand.”', note)!;
    expect(note.slice(found.start, found.end)).toBe('we split them by hand.');
  });

  it('refuses an altered or invented passage, and one too short to mean anything', () => {
    expect(locatePassage('The export always times out on big projects', note)).toBeNull();
    expect(locatePassage('Customers love the new dashboard', note)).toBeNull();
    expect(locatePassage('We', note)).toBeNull();
  });
});
