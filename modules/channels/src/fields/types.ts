import { CHANNEL_LIMITS } from '../limits.ts';

/** The custom field types of 001 §3.4 and 000 §3. */
export const FIELD_TYPES = [
  'ARR',
  'BOOLEAN',
  'CSAT',
  'DATETIME',
  'EMAIL',
  'NPS',
  'NUMBER',
  'PERSON',
  'PHONE',
  'RATING',
  'SELECT',
  'TEXT',
  'URL',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A field value as stored: field data maps a field id to a string or a boolean (000 §3). */
export type FieldValue = string | boolean;

/** A value that passed its type's rules, or why it did not. */
export type Checked = { ok: true; value: FieldValue; options?: string[] } | { ok: false; reason: string };

export const NPS_BANDS = [
  { band: 'Detractor', from: 0, to: 6 },
  { band: 'Passive', from: 7, to: 8 },
  { band: 'Promoter', from: 9, to: 10 },
] as const;
export type NpsBand = (typeof NPS_BANDS)[number]['band'];

/** The band of an NPS score (002 §9): 0 to 6 Detractor, 7 to 8 Passive, 9 to 10 Promoter. */
export function npsBand(score: number): NpsBand | null {
  return NPS_BANDS.find((b) => score >= b.from && score <= b.to)?.band ?? null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEANS: Record<string, boolean> = {
  true: true,
  yes: true,
  y: true,
  '1': true,
  false: false,
  no: false,
  n: false,
  '0': false,
};

const numberOf = (text: string): number | null => {
  const plain = text.replace(/[,_\s]/g, '').replace(/^\$/, '');
  if (!NUMBER.test(plain)) return null;
  const n = Number(plain);
  return Number.isFinite(n) ? n : null;
};

const integerIn = (label: string, text: string, min: number, max: number): Checked => {
  const n = numberOf(text);
  if (n === null || !Number.isInteger(n) || n < min || n > max)
    return { ok: false, reason: `${label} must be a whole number from ${min} to ${max}.` };
  return { ok: true, value: String(n) };
};

/** Splits imported select options on semicolons, trimmed (001 §3.4), each cut to the option limit. */
export function selectOptions(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(';')) {
    const label = [...part.trim()].slice(0, CHANNEL_LIMITS.optionLabel).join('').trim();
    if (label && !seen.has(label.toLowerCase())) {
      seen.add(label.toLowerCase());
      out.push(label);
    }
  }
  return out;
}

/**
 * Checks one value against its field's type and gives it in stored form: numbers as their
 * decimal text, booleans as booleans, dates as ISO 8601 in UTC, select values as their option
 * labels joined by semicolons. A PERSON value is an email address; the data point links it.
 */
export function checkFieldValue(type: FieldType, label: string, input: string | number | boolean): Checked {
  if (typeof input === 'boolean') {
    return type === 'BOOLEAN'
      ? { ok: true, value: input }
      : { ok: false, reason: `${label} must be ${describe(type)}, not true or false.` };
  }
  const text = String(input).trim();
  switch (type) {
    case 'BOOLEAN': {
      const b = BOOLEANS[text.toLowerCase()];
      return b === undefined
        ? { ok: false, reason: `${label} must be true or false (or yes or no).` }
        : { ok: true, value: b };
    }
    case 'NUMBER': {
      const n = numberOf(text);
      return n === null ? { ok: false, reason: `${label} must be a number.` } : { ok: true, value: String(n) };
    }
    case 'ARR': {
      const n = numberOf(text);
      return n === null || n < 0
        ? { ok: false, reason: `${label} must be an amount of at least 0.` }
        : { ok: true, value: String(n) };
    }
    case 'NPS':
      return integerIn(label, text, 0, 10);
    case 'CSAT':
    case 'RATING':
      return integerIn(label, text, 1, 5);
    case 'DATETIME': {
      const at = parseDate(text);
      return at
        ? { ok: true, value: at.toISOString() }
        : {
            ok: false,
            reason: `${label} must be a date in ISO 8601 form, such as 2026-03-01 or 2026-03-01T14:30:00Z.`,
          };
    }
    case 'EMAIL':
    case 'PERSON':
      if (text.length > CHANNEL_LIMITS.email || !EMAIL.test(text))
        return {
          ok: false,
          reason: `${label} must be an email address of at most ${CHANNEL_LIMITS.email} characters.`,
        };
      return { ok: true, value: text.toLowerCase() };
    case 'PHONE':
      return PHONE.test(text) && (text.match(/\d/g)?.length ?? 0) >= 3
        ? { ok: true, value: text }
        : { ok: false, reason: `${label} must be a phone number (digits, spaces, + ( ) - . /).` };
    case 'URL': {
      if (text.length > CHANNEL_LIMITS.url)
        return { ok: false, reason: `${label} can be at most ${CHANNEL_LIMITS.url} characters long.` };
      try {
        const url = new URL(text);
        if (url.protocol === 'http:' || url.protocol === 'https:') return { ok: true, value: url.href };
      } catch {
        // Falls through to the error below.
      }
      return { ok: false, reason: `${label} must be a web address starting with http:// or https://.` };
    }
    case 'SELECT': {
      const options = selectOptions(text);
      if (!options.length) return { ok: false, reason: `${label} must name at least one option.` };
      return { ok: true, value: options.join('; '), options };
    }
    case 'TEXT':
      if ([...text].length > CHANNEL_LIMITS.textValue)
        return { ok: false, reason: `${label} can be at most ${CHANNEL_LIMITS.textValue} characters long.` };
      return { ok: true, value: text };
  }
}

function describe(type: FieldType): string {
  return type === 'DATETIME' ? 'a date' : type === 'TEXT' || type === 'SELECT' ? 'text' : `a value of type ${type}`;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time (002 §5: dates must be ISO 8601); a date alone is midnight UTC. */
export function parseDate(text: string): Date | null {
  const t = text.trim();
  if (!ISO_DATE.test(t)) return null;
  const withZone = /[T ]\d{2}:\d{2}/.test(t) && !/(Z|[+-]\d{2}:?\d{2})$/.test(t) ? `${t}Z` : t;
  const at = new Date(withZone.replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? null : at;
}
