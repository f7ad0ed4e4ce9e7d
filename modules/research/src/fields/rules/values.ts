import { badInput } from '@fieldbook/core';
import { FIELD_LIMITS, type FieldType } from './field-types.ts';
import { normalizeOptionIds } from './select-options.ts';

/** What a field value may arrive as: field data maps a field to a string or boolean (000 §3). */
export type RawFieldValue = string | number | boolean | readonly string[] | null | undefined;

/** A value as stored: text, number, boolean, or a list of ids (select options, people). */
export type StoredFieldValue = string | number | boolean | string[];

/**
 * Score ranges. The spec names NPS 0..10 (002 §9 bands); rating and CSAT are read as the usual
 * five-point scales, both 1..5 whole numbers.
 */
export const SCORE_RANGES = {
  NPS: { min: 0, max: 10, label: 'An NPS score' },
  RATING: { min: 1, max: 5, label: 'A rating' },
  CSAT: { min: 1, max: 5, label: 'A CSAT score' },
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators, an optional leading +, and 3 to 20 digits in all. */
const PHONE = /^\+?[0-9 ().\-/]+$/;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** True when there is nothing to store: setting such a value clears the field. */
export function isBlankValue(value: RawFieldValue): boolean {
  if (value == null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function text(value: RawFieldValue, what: string): string {
  if (typeof value !== 'string') throw badInput('value', `${what} must be text.`);
  return value.trim();
}

function finiteNumber(value: RawFieldValue): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && NUMBER.test(value.trim())
        ? Number(value.trim())
        : Number.NaN;
  if (!Number.isFinite(n)) throw badInput('value', 'A number field takes a finite number.');
  return n;
}

function score(type: keyof typeof SCORE_RANGES, value: RawFieldValue): number {
  const { min, max, label } = SCORE_RANGES[type];
  const n = finiteNumber(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw badInput('value', `${label} is a whole number from ${min} to ${max}.`);
  return n;
}

/** Round-trips a calendar date so 2024-02-30 is refused rather than rolled into March. */
function isCalendarDate(day: string): boolean {
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day;
}

function isoDate(value: RawFieldValue): string {
  const t = text(value, 'A date');
  if (ISO_DATE.test(t) && isCalendarDate(t)) return t;
  if (ISO_DATE_TIME.test(t) && isCalendarDate(t.slice(0, 10))) {
    const d = new Date(t);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  throw badInput('value', 'A date must be ISO 8601, e.g. 2024-05-31 or 2024-05-31T14:30:00Z.');
}

function bool(value: RawFieldValue): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['true', 'false'].includes(value.trim().toLowerCase()))
    return value.trim().toLowerCase() === 'true';
  throw badInput('value', 'A yes/no field takes true or false.');
}

function ids(value: RawFieldValue): string[] {
  const list = Array.isArray(value)
    ? (value as readonly string[])
    : typeof value === 'string'
      ? value.split(',')
      : null;
  if (!list) throw badInput('value', 'A person field takes a list of people ids.');
  return normalizeOptionIds(list);
}

function limited(t: string, what: string, max: number = FIELD_LIMITS.textValue): string {
  if (t.length > max) throw badInput('value', `${what} can be at most ${max} characters long.`);
  return t;
}

/**
 * Checks a value against its field type and answers the form to store. Select values are read
 * by `parseSelectValue` instead, since they may create options. Blank values clear the field and
 * are not passed here.
 */
export function validateFieldValue(type: Exclude<FieldType, 'SELECT'>, value: RawFieldValue): StoredFieldValue {
  switch (type) {
    case 'TEXT':
      return limited(text(value, 'A text field value'), 'A text field value');
    case 'EMAIL': {
      const t = limited(text(value, 'An email address'), 'An email address', FIELD_LIMITS.email);
      if (!EMAIL.test(t)) throw badInput('value', 'Enter a valid email address.');
      return t;
    }
    case 'URL': {
      const t = limited(text(value, 'A URL'), 'A URL');
      let url: URL | null = null;
      try {
        url = new URL(t);
      } catch {
        url = null;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
        throw badInput('value', 'Enter a valid URL starting with http:// or https://.');
      }
      return t;
    }
    case 'PHONE': {
      const t = text(value, 'A phone number');
      const digits = t.replace(/\D/g, '').length;
      if (!PHONE.test(t) || digits < 3 || digits > 20) throw badInput('value', 'Enter a valid phone number.');
      return t;
    }
    case 'NUMBER':
    case 'ARR':
      return finiteNumber(value);
    case 'NPS':
    case 'RATING':
    case 'CSAT':
      return score(type, value);
    case 'DATETIME':
      return isoDate(value);
    case 'BOOLEAN':
      return bool(value);
    case 'PERSON':
      return ids(value);
  }
}
