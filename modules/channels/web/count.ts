/** "1 data point", "2,345 data points": a count with its noun, as the channel screens show counts. */
export function dataPoints(n: number): string {
  return `${n.toLocaleString()} ${n === 1 ? 'data point' : 'data points'}`;
}
