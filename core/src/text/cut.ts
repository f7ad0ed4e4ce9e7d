const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The start of `text` in at most `maxLength` UTF-16 units, `suffix` included when the text had to
 * be cut. The cut falls between grapheme clusters: slicing on units can split an emoji into a lone
 * surrogate, which PostgreSQL refuses in jsonb and which shows as garbage where text is shown.
 */
export function cutText(text: string, maxLength: number, suffix = ''): string {
  if (text.length <= maxLength) return text;
  const room = Math.max(0, maxLength - suffix.length);
  let end = 0;
  // Only the clusters up to the cut are visited, so cutting megabytes costs what the result costs.
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > room) break;
    end = index + segment.length;
  }
  return `${text.slice(0, end)}${suffix}`;
}

/**
 * The first `max` characters of `text` as people see them (grapheme clusters: a flag, a family
 * emoji or a letter with its accents counts once), `suffix` added when it had to be cut.
 */
export function cutGraphemes(text: string, max: number, suffix = ''): string {
  let count = 0;
  for (const { index } of graphemes.segment(text)) {
    if (count === max) return `${text.slice(0, index)}${suffix}`;
    count += 1;
  }
  return text;
}
