/** The password rule of 002 §5, as the server checks it, one requirement per line. */
export const PASSWORD_RULES: ReadonlyArray<{ label: string; test: (p: string) => boolean }> = [
  { label: 'At least 12 characters', test: (p) => p.length >= 12 },
  { label: 'An uppercase letter', test: (p) => /\p{Lu}/u.test(p) },
  { label: 'A lowercase letter', test: (p) => /\p{Ll}/u.test(p) },
  { label: 'A digit', test: (p) => /\p{Nd}/u.test(p) },
  { label: 'A symbol', test: (p) => /[^\p{L}\p{Nd}\s]/u.test(p) },
];

export const PASSWORD_MAX = 100;

/** What a password still lacks, in words; empty when it follows the rule. */
export function passwordProblems(password: string): string[] {
  const missing = PASSWORD_RULES.filter((r) => !r.test(password)).map((r) => r.label.toLowerCase());
  if (password.length > PASSWORD_MAX) missing.push(`at most ${PASSWORD_MAX} characters`);
  return missing;
}
