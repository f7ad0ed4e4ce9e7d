import { z } from 'zod';
import { badInput } from '@fieldbook/core';
import { colorFromLabel } from '../../colors/colors.ts';
import { FIELD_LIMITS } from './field-types.ts';

/** An option label typed by a person: trimmed, 1..50 characters (000 §5). */
export const optionLabelSchema = z
  .string({ error: 'Give the option a label.' })
  .trim()
  .min(1, 'Give the option a label.')
  .max(FIELD_LIMITS.optionLabel, `An option label can be at most ${FIELD_LIMITS.optionLabel} characters long.`);

export interface OptionLike {
  id: string;
  label: string;
}

export interface NewOption {
  label: string;
  color: string;
}

export interface SelectValue {
  /** The chosen labels, in the order given, spelled as the existing options spell them. */
  labels: string[];
  /** Options to create first: the chosen labels no existing option matched. */
  newOptions: NewOption[];
}

const TOO_MANY_OPTIONS = `A select field can have at most ${FIELD_LIMITS.options} options.`;

/** The key options are matched by: labels match case-insensitively (000 §5). */
export const optionKey = (label: string): string => label.trim().toLowerCase();

/**
 * Reads a select value (000 §5): a comma-separated list whose items are trimmed, cut to 50
 * characters and matched case-insensitively to the existing options; unknown items become new
 * options coloured from their label. Repeats count once; blanks are skipped. A field keeps at most
 * 750 options: unknown items past that are dropped and the rest of the value still applies.
 */
export function parseSelectValue(text: string, existing: readonly OptionLike[]): SelectValue {
  const known = new Map(existing.map((o) => [optionKey(o.label), o.label]));
  const room = Math.max(0, FIELD_LIMITS.options - existing.length);
  const seen = new Set<string>();
  const labels: string[] = [];
  const newOptions: NewOption[] = [];
  for (const raw of text.split(',')) {
    const label = [...raw.trim()].slice(0, FIELD_LIMITS.optionLabel).join('').trim();
    const key = optionKey(label);
    if (!label || seen.has(key)) continue;
    seen.add(key);
    const match = known.get(key);
    if (match !== undefined) {
      labels.push(match);
    } else if (newOptions.length < room) {
      labels.push(label);
      newOptions.push({ label, color: colorFromLabel(label) });
    }
  }
  return { labels, newOptions };
}

/** Throws unless a field may hold `count` options in all. */
export function assertOptionCount(count: number): void {
  if (count > FIELD_LIMITS.options) throw badInput('options', TOO_MANY_OPTIONS);
}

/** Max selectable (000 §5): as configured, else 100, or 1 when the field has only one option. */
export function maxSelectable(configured: number | null | undefined, optionCount: number): number {
  if (configured != null) return configured;
  return optionCount === 1 ? 1 : FIELD_LIMITS.defaultMaxSelectable;
}

/** Throws unless `count` selections fit within `max`. */
export function assertSelectable(count: number, max: number): void {
  if (count > max) throw badInput('value', `This field accepts at most ${max} ${max === 1 ? 'option' : 'options'}.`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An option id list (000 §5): invalid uuids dropped, repeats removed, order kept, lower-cased. */
export function normalizeOptionIds(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const id = raw.trim().toLowerCase();
    if (UUID.test(id) && !out.includes(id)) out.push(id);
  }
  return out;
}

/**
 * Options as imports carry them (000 §5, 001 §3): one text split on semicolons, each trimmed;
 * blanks and case-insensitive repeats dropped, each held to the option-label limit.
 */
export function splitImportedOptions(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(';')) {
    const label = [...raw.trim()].slice(0, FIELD_LIMITS.optionLabel).join('').trim();
    if (!label || seen.has(optionKey(label))) continue;
    seen.add(optionKey(label));
    out.push(label);
  }
  return out;
}
