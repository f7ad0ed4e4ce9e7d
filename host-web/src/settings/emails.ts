const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** Splits pasted addresses on commas, semicolons, spaces and new lines; de-duplicated, lower-cased. */
export function parseEmails(text: string): { valid: string[]; invalid: string[] } {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim().replace(/^<|>$/g, ''))
    .filter(Boolean);
  const valid = new Set<string>();
  const invalid: string[] = [];
  for (const p of parts) {
    if (EMAIL.test(p)) valid.add(p.toLowerCase());
    else invalid.push(p);
  }
  return { valid: [...valid], invalid };
}
