import { describe, expect, it } from 'vitest';
import { findPassage, formatNoteHash, parseNoteHash } from './hash.ts';

const ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

describe('the note hash', () => {
  it('reads a highlight id and drops one that is not a uuid', () => {
    expect(parseNoteHash(`#highlight=${ID}`).highlightId).toBe(ID);
    expect(parseNoteHash('#highlight=abc').highlightId).toBeNull();
  });

  it('reads a text snippet with its offsets, and drops offsets that are not a span', () => {
    expect(parseNoteHash('#text=gave%20up&start=10&end=17')).toMatchObject({ text: 'gave up', start: 10, end: 17 });
    expect(parseNoteHash('#text=gave%20up&start=17&end=10')).toMatchObject({ text: 'gave up', start: null, end: null });
    expect(parseNoteHash('#text=%20%20').text).toBeNull();
  });

  it('writes what it reads', () => {
    const hash = formatNoteHash({ text: 'asks for “my” address', start: 4, end: 25, highlightId: ID, shared: true });
    expect(parseNoteHash(hash)).toEqual({
      highlightId: ID,
      shared: true,
      fileId: null,
      page: null,
      text: 'asks for “my” address',
      start: 4,
      end: 25,
    });
    expect(formatNoteHash({})).toBe('');
  });
});

describe('finding a quoted passage in a note', () => {
  const note = 'Sam runs a bakery.\nThe checkout asks for my  address twice, so I gave up.';

  it('finds the words as quotes are checked: case, spacing and typographic marks aside', () => {
    const found = findPassage(note, 'ASKS for my address twice');
    expect(found).not.toBeNull();
    expect(note.slice(found!.start, found!.end)).toBe('asks for my  address twice');
    const curly = findPassage('He said “don’t”—then left.', '"don\'t"-then');
    // Quote marks around the words are not part of them.
    expect(curly).toEqual({ start: 9, end: 20 });
  });

  it('takes the offsets when the text there is the snippet, and searches when it is not', () => {
    const second = 'gave up. It gave up.';
    expect(findPassage(second, 'gave up', { start: 12, end: 19 })).toEqual({ start: 12, end: 19 });
    expect(findPassage(second, 'gave up', { start: 3, end: 9 })).toEqual({ start: 0, end: 7 });
  });

  it('finds nothing for words the note does not hold, or for a letter or two', () => {
    expect(findPassage(note, 'pays twice')).toBeNull();
    expect(findPassage(note, 'a')).toBeNull();
  });
});
