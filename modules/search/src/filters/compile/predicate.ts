/**
 * The engine-neutral form of a search filter (000 §7): predicates over named attributes of a
 * result, combined with and, or and not. The PostgreSQL engine and the Typesense `filter_by`
 * compiler each translate this tree; neither sees filter forms.
 *
 * Meanings an engine must keep:
 * - contains: the text attribute holds the value as a substring, ignoring case;
 * - equalTo: the attribute equals the value (text ignoring case);
 * - greaterThan / lessThan: strictly, numbers or ISO 8601 instants;
 * - in: a single-valued attribute is one of the values;
 * - overlaps: a list attribute shares at least one item with the values;
 * - empty: the attribute is missing, null, blank text or an empty list;
 * - and of nothing is true, or of nothing is false.
 */
export type Scalar = string | number | boolean;

export type Predicate =
  | { kind: 'contains'; attribute: string; value: string }
  | { kind: 'equalTo'; attribute: string; value: Scalar }
  | { kind: 'greaterThan'; attribute: string; value: number | string }
  | { kind: 'lessThan'; attribute: string; value: number | string }
  | { kind: 'in'; attribute: string; values: string[] }
  | { kind: 'overlaps'; attribute: string; values: string[] }
  | { kind: 'empty'; attribute: string }
  | { kind: 'and'; predicates: Predicate[] }
  | { kind: 'or'; predicates: Predicate[] }
  | { kind: 'not'; predicate: Predicate };

export const TRUE: Predicate = { kind: 'and', predicates: [] };
export const FALSE: Predicate = { kind: 'or', predicates: [] };

export const isTrue = (p: Predicate): boolean => p.kind === 'and' && p.predicates.length === 0;
export const isFalse = (p: Predicate): boolean => p.kind === 'or' && p.predicates.length === 0;

// The builders fold constants as they go, so a result type no filter can match shows up as FALSE.

export function and(...predicates: Predicate[]): Predicate {
  const parts: Predicate[] = [];
  for (const p of predicates) {
    if (isFalse(p)) return FALSE;
    if (p.kind === 'and') parts.push(...p.predicates);
    else parts.push(p);
  }
  return parts.length === 1 ? parts[0]! : { kind: 'and', predicates: parts };
}

export function or(...predicates: Predicate[]): Predicate {
  const parts: Predicate[] = [];
  for (const p of predicates) {
    if (isTrue(p)) return TRUE;
    if (p.kind === 'or') parts.push(...p.predicates);
    else parts.push(p);
  }
  return parts.length === 1 ? parts[0]! : { kind: 'or', predicates: parts };
}

export function not(predicate: Predicate): Predicate {
  if (isTrue(predicate)) return FALSE;
  if (isFalse(predicate)) return TRUE;
  if (predicate.kind === 'not') return predicate.predicate;
  return { kind: 'not', predicate };
}

export const contains = (attribute: string, value: string): Predicate => ({ kind: 'contains', attribute, value });
export const equalTo = (attribute: string, value: Scalar): Predicate => ({ kind: 'equalTo', attribute, value });
export const greaterThan = (attribute: string, value: number | string): Predicate => ({
  kind: 'greaterThan',
  attribute,
  value,
});
export const lessThan = (attribute: string, value: number | string): Predicate => ({
  kind: 'lessThan',
  attribute,
  value,
});
export const empty = (attribute: string): Predicate => ({ kind: 'empty', attribute });
export const isIn = (attribute: string, values: readonly string[]): Predicate =>
  values.length === 0 ? FALSE : { kind: 'in', attribute, values: [...values] };
export const overlaps = (attribute: string, values: readonly string[]): Predicate =>
  values.length === 0 ? FALSE : { kind: 'overlaps', attribute, values: [...values] };
