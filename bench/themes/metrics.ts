/** Agreement of a clustering with reference labels: normalised mutual information and adjusted Rand index. */

function contingency(
  a: readonly (string | number)[],
  b: readonly (string | number)[],
): { table: Map<string, number>; rows: Map<string, number>; cols: Map<string, number> } {
  const table = new Map<string, number>();
  const rows = new Map<string, number>();
  const cols = new Map<string, number>();
  a.forEach((label, i) => {
    const x = String(label);
    const y = String(b[i]!);
    const key = `${x}\u0000${y}`;
    table.set(key, (table.get(key) ?? 0) + 1);
    rows.set(x, (rows.get(x) ?? 0) + 1);
    cols.set(y, (cols.get(y) ?? 0) + 1);
  });
  return { table, rows, cols };
}

const entropy = (counts: Iterable<number>, n: number): number => {
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log(c / n);
  return h;
};

/** NMI with the arithmetic mean of the entropies (scikit-learn's default). */
export function nmi(labels: readonly (string | number)[], clusters: readonly (string | number)[]): number {
  const n = labels.length;
  const { table, rows, cols } = contingency(labels, clusters);
  let mi = 0;
  for (const [key, c] of table) {
    const [x, y] = key.split('\u0000');
    const rx = rows.get(x!)!;
    const cy = cols.get(y!)!;
    mi += (c / n) * Math.log((n * c) / (rx * cy));
  }
  const h = (entropy(rows.values(), n) + entropy(cols.values(), n)) / 2;
  return h === 0 ? 1 : mi / h;
}

const choose2 = (x: number): number => (x * (x - 1)) / 2;

export function ari(labels: readonly (string | number)[], clusters: readonly (string | number)[]): number {
  const n = labels.length;
  const { table, rows, cols } = contingency(labels, clusters);
  let index = 0;
  for (const c of table.values()) index += choose2(c);
  let a = 0;
  for (const c of rows.values()) a += choose2(c);
  let b = 0;
  for (const c of cols.values()) b += choose2(c);
  const expected = (a * b) / choose2(n);
  const max = (a + b) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
