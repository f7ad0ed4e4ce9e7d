/**
 * Personal data found by patterns, with no model: email addresses, phone numbers, payment card
 * numbers (checked with the Luhn sum, so order numbers are left alone) and US social security
 * numbers. Redaction replaces each character with a block of the same length, so every offset
 * into the note's text (its highlights) stays where it was.
 */
export const PERSONAL_DATA_KINDS = ['email', 'phone', 'card', 'ssn'] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

export interface PersonalDataMatch {
  kind: PersonalDataKind;
  start: number;
  end: number;
  text: string;
}

export const REDACTION_MARK = '█';

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;
const SSN = /(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)/g;
/** International (+), bracketed area codes, or groups of digits split by spaces, dots or dashes. */
const PHONE =
  /(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w-])|(?<![\w+])\+\d{7,15}(?!\w)/g;
const DATE = /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$|^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/;

const digits = (s: string) => s.replace(/\D/g, '');

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The personal data in `text`, in order, none overlapping (the first kind found wins). */
export function findPersonalData(text: string): PersonalDataMatch[] {
  const found: PersonalDataMatch[] = [];
  const taken = (s: number, e: number) => found.some((m) => s < m.end && m.start < e);
  const add = (kind: PersonalDataKind, re: RegExp, keep: (t: string) => boolean = () => true) => {
    for (const m of text.matchAll(re)) {
      const start = m.index;
      const end = start + m[0].length;
      if (!taken(start, end) && keep(m[0])) found.push({ kind, start, end, text: m[0] });
    }
  };
  add('email', EMAIL);
  add('card', CARD, (t) => {
    const d = digits(t);
    return d.length >= 13 && d.length <= 19 && luhn(d);
  });
  add('ssn', SSN);
  add('phone', PHONE, (t) => {
    const n = digits(t).length;
    // Seven digits is the shortest local number; dates and short figures are not phones.
    return n >= 7 && n <= 15 && !DATE.test(t.trim());
  });
  return found.sort((a, b) => a.start - b.start);
}

/** `text` with the given spans blanked out, same length. */
export function maskSpans(text: string, spans: ReadonlyArray<{ start: number; end: number }>): string {
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + REDACTION_MARK.repeat(s.end - s.start) + out.slice(s.end);
  return out;
}

export const KIND_LABEL: Record<PersonalDataKind, string> = {
  email: 'email address',
  phone: 'phone number',
  card: 'card number',
  ssn: 'social security number',
};

/** "2 email addresses and 1 phone number". */
export function describeFindings(matches: ReadonlyArray<{ kind: PersonalDataKind }>): string {
  const counts = new Map<PersonalDataKind, number>();
  for (const m of matches) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const plural = (label: string) => (label.endsWith('s') ? `${label}es` : `${label}s`);
  const parts = [...counts].map(([k, n]) => `${n} ${n === 1 ? KIND_LABEL[k] : plural(KIND_LABEL[k])}`);
  return parts.length <= 1 ? (parts[0] ?? 'nothing') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}
