/**
 * A count as shown, in the reader's locale unless one is given: large ones the server estimated
 * read "about 410,000", so nobody takes them for a tally.
 */
export function countText(count: number, isEstimate: boolean, locale?: string): string {
  const n = count.toLocaleString(locale);
  return isEstimate ? `about ${n}` : n;
}

/** "1 result", "12 results", "about 410,000 results". */
export function resultsText(count: number, isEstimate: boolean, locale?: string): string {
  return `${countText(count, isEstimate, locale)} ${count === 1 && !isEstimate ? 'result' : 'results'}`;
}
