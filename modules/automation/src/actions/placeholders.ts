import { valueAt } from '../rules/rules.ts';

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/** Text with `{{project.title}}` replaced by the event's value (empty when it has none). */
export function fill(text: string, payload: unknown): string {
  return text.replace(PLACEHOLDER, (_m, path: string) => {
    const v = valueAt(payload, path);
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

/** Every string inside parameters, filled from the payload. */
export function fillParameters<T>(value: T, payload: unknown): T {
  if (typeof value === 'string') return fill(value, payload) as T;
  if (Array.isArray(value)) return value.map((v) => fillParameters(v, payload)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillParameters(v, payload)])) as T;
  return value;
}
