import { badFilterInput } from './errors.ts';
import { isUuid } from './fields.ts';

/** Option labels are at most 50 characters (000 §5, §9). */
export const OPTION_LABEL_MAX = 50;

const cut = (text: string, max: number): string => [...text].slice(0, max).join('');

/** Option text as typed (000 §5): trimmed and held to the label limit; null when nothing is left. */
export function cleanOptionText(raw: string): string | null {
  const text = cut(raw.trim(), OPTION_LABEL_MAX).trim();
  return text.length > 0 ? text : null;
}

/** Option text that must be valid as given: non-empty after trimming and within the limit. */
export function assertOptionText(raw: string, field = 'label'): string {
  const text = raw.trim();
  if (text.length === 0) throw badFilterInput(field, 'Give the option a label.');
  if ([...text].length > OPTION_LABEL_MAX) {
    throw badFilterInput(field, `An option label can be at most ${OPTION_LABEL_MAX} characters long.`);
  }
  return text;
}

/** Option texts as a list: cleaned, blanks dropped, case-insensitive repeats dropped, order kept. */
export function normalizeOptionTexts(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of texts) {
    const text = cleanOptionText(raw);
    if (text === null || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push(text);
  }
  return out;
}

/** Imported options arrive as one text split on semicolons (000 §5). */
export const splitImportedOptions = (text: string): string[] => normalizeOptionTexts(text.split(';'));

/** An id list (000 §5): invalid uuids dropped, repeats removed, order kept, lower-cased. */
export function normalizeOptionIds(ids: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of ids) {
    const id = raw.trim().toLowerCase();
    if (isUuid(id) && !out.includes(id)) out.push(id);
  }
  return out;
}
