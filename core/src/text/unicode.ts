/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored as text, or null when it can: PostgreSQL refuses the NUL
 * character in text and jsonb, and a lone surrogate (half an emoji) in jsonb.
 */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'cannot contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode: it contains half of a surrogate pair (\\ud800–\\udfff)';
  return null;
}

/** Where in a value a string (or a key) cannot be stored, and why. */
export interface UnstorablePlace {
  /** From `root` down, dot-separated (`dataPoints[1].person.name`); a key's place ends in ` (a key)`. */
  path: string;
  problem: string;
}

/**
 * The first string or key of a JSON-like value that PostgreSQL would refuse, or that lies deeper
 * than `maxDepth` levels; null when all of it can be stored. Every way text comes in (GraphQL
 * variables, REST bodies) is checked with this before it reaches the database. Iterative, so a
 * deeply nested value cannot overflow the stack while it is being checked.
 */
export function findUnstorableText(value: unknown, root: string, maxDepth: number): UnstorablePlace | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: root, depth: 0 }];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = unstorableText(v);
      if (problem) return { path, problem };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth > maxDepth) return { path, problem: `is nested more than ${maxDepth} levels deep, the limit` };
    const entries = Array.isArray(v) ? v.map((child, i) => [String(i), child] as const) : Object.entries(v);
    for (const [key, child] of entries) {
      const problem = unstorableText(key);
      if (problem) return { path: path ? `${path} (a key)` : 'A key', problem };
      stack.push({ value: child, path: path ? `${path}.${key}` : key, depth: depth + 1 });
    }
  }
  return null;
}
