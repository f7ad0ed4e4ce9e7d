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
