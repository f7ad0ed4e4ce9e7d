/** Quote marks and spaces a model may wrap a passage in; they are not part of the note. */
const WRAPPING = /^[\s"'“”‘’«»]+|[\s"'“”‘’«»]+$/g;

/**
 * Where a passage a model chose stands in the note's text, word for word: exactly, or with the
 * spacing changed (a line break read as a space). Null when the note does not contain it, which
 * is how an invented or altered passage is caught before anyone sees it.
 */
export function locatePassage(passage: string, text: string): { start: number; end: number } | null {
  const wanted = passage.replace(WRAPPING, '');
  if (wanted.length < 3) return null;
  const exact = text.indexOf(wanted);
  if (exact >= 0) return { start: exact, end: exact + wanted.length };
  const words = wanted.split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'));
  const found = pattern.exec(text);
  return found ? { start: found.index, end: found.index + found[0].length } : null;
}
