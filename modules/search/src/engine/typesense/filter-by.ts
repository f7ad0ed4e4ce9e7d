import type { Predicate, Scalar, SearchResultType } from '../../filters/index.ts';
import type { SearchAccess } from '../engine.ts';
import {
  FILLED,
  MAY_LACK_PROJECT,
  attributeKind,
  customField,
  customFieldId,
  customFilledName,
  systemField,
  type AttributeKind,
} from './schema.ts';

/**
 * Compiles the engine-neutral predicate tree into Typesense `filter_by` syntax.
 *
 * Typesense has `&&`, `||` and parentheses but no negation of a group, so `not` is pushed down to
 * the leaves (De Morgan), each of which has a negated form. Constants fold away: a filter that is
 * always true compiles to `true` (no filter), one that can never match to `false` (the type is
 * not searched at all), so no sentinel values are needed.
 *
 * Meanings kept from the filter model (see predicate.ts), and where Typesense differs:
 * - equalTo / in on text: `:=`, which Typesense compares after its own normalisation (case and
 *   accents ignored), as the model asks;
 * - contains: Typesense has no substring filter; it compiles to the word-level `:` match, so
 *   "contains interview" matches "Interview notes" but "contains view" does not. Its negation
 *   has no Typesense form, so "does not contain" reads as "is not exactly" (`:!=`): it may keep
 *   items that contain the text among other words;
 * - dates compare as epoch milliseconds (int64 fields);
 * - a negated comparison also holds for items without the attribute, as it does in PostgreSQL.
 */
export type FilterBy = string | boolean;

/** Typesense has no escape for a backtick inside a quoted value. It normalises punctuation away
 * when it compares strings, so an apostrophe in its place matches the same items. Ids never
 * hold one. */
export const quote = (value: string): string => `\`${value.replace(/`/g, "'")}\``;

const list = (values: readonly string[]): string => `[${values.map(quote).join(',')}]`;

/** A parsed ISO 8601 instant as epoch milliseconds, or null when it is none. */
export function toMillis(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** Compiles a type's predicate; `true` means no filter, `false` that nothing can match. */
export function compileFilterBy(predicate: Predicate, type: SearchResultType): FilterBy {
  return render(toNode(predicate, type, false), false);
}

type Node = boolean | { leaf: string } | { and: Node[] } | { or: Node[] };

function andNode(parts: Node[]): Node {
  const kept: Node[] = [];
  for (const part of parts) {
    if (part === false) return false;
    if (part === true) continue;
    if (typeof part === 'object' && 'and' in part) kept.push(...part.and);
    else kept.push(part);
  }
  return kept.length === 0 ? true : kept.length === 1 ? kept[0]! : { and: kept };
}

function orNode(parts: Node[]): Node {
  const kept: Node[] = [];
  for (const part of parts) {
    if (part === true) return true;
    if (part === false) continue;
    if (typeof part === 'object' && 'or' in part) kept.push(...part.or);
    else kept.push(part);
  }
  return kept.length === 0 ? false : kept.length === 1 ? kept[0]! : { or: kept };
}

/** `and` joins bare; an `or` is always parenthesised, so it binds right wherever it lands. */
function render(node: Node, inOr: boolean): FilterBy {
  if (typeof node === 'boolean') return node;
  if ('leaf' in node) return node.leaf;
  if ('and' in node) {
    const text = node.and.map((n) => render(n, false) as string).join(' && ');
    return inOr ? `(${text})` : text;
  }
  return `(${node.or.map((n) => render(n, true) as string).join(' || ')})`;
}

const leaf = (text: string): Node => ({ leaf: text });
const filled = (name: string): Node => leaf(`${FILLED}:=${quote(name)}`);
const unfilled = (name: string): Node => leaf(`${FILLED}:!=${quote(name)}`);

function toNode(p: Predicate, type: SearchResultType, negated: boolean): Node {
  switch (p.kind) {
    case 'and': {
      const parts = p.predicates.map((q) => toNode(q, type, negated));
      return negated ? orNode(parts) : andNode(parts);
    }
    case 'or': {
      const parts = p.predicates.map((q) => toNode(q, type, negated));
      return negated ? andNode(parts) : orNode(parts);
    }
    case 'not':
      return toNode(p.predicate, type, !negated);
    default: {
      const kind = attributeKind(type, p.attribute);
      // An attribute the type lacks is empty: only "empty" holds for it.
      if (kind === null) return (p.kind === 'empty') !== negated;
      const positive = kind === 'custom' ? customLeaf(p) : systemLeaf(p, kind);
      if (!negated) return positive.node;
      return positive.negated;
    }
  }
}

type LeafPredicate = Exclude<Predicate, { kind: 'and' | 'or' | 'not' }>;
/** A leaf and its negation; the negation also holds where the attribute is unset. */
interface Compiled {
  node: Node;
  negated: Node;
}

const constant = (value: boolean): Compiled => ({ node: value, negated: !value });

/** A comparison that fails on unset fields; its negation holds for them. */
function compared(field: string, filledName: string, op: string, negatedOp: string, value: string): Compiled {
  return {
    node: leaf(`${field}:${op}${value}`),
    negated: orNode([leaf(`${field}:${negatedOp}${value}`), unfilled(filledName)]),
  };
}

function systemLeaf(p: LeafPredicate, kind: AttributeKind): Compiled {
  const field = systemField(p.attribute);
  const name = p.attribute;
  switch (p.kind) {
    case 'empty':
      return { node: unfilled(name), negated: filled(name) };
    case 'contains':
      if (kind !== 'text') return constant(false);
      return {
        node: leaf(`${field}:${quote(p.value)}`),
        negated: orNode([leaf(`${field}:!=${quote(p.value)}`), unfilled(name)]),
      };
    case 'in':
    case 'overlaps': {
      if (p.kind === 'overlaps' && kind !== 'ids' && kind !== 'id') return constant(false);
      const values = kind === 'id' || kind === 'ids' ? p.values.map((v) => v.toLowerCase()) : p.values;
      if (kind === 'number' || kind === 'boolean' || kind === 'time') return constant(false);
      return compared(field, name, '=', '!=', list(values));
    }
    case 'equalTo':
      return equalTo(field, name, kind, p.value);
    case 'greaterThan':
    case 'lessThan':
      return comparison(field, name, kind, p.kind, p.value);
  }
}

function equalTo(field: string, name: string, kind: AttributeKind, value: Scalar): Compiled {
  switch (kind) {
    case 'text':
      return typeof value === 'string' ? compared(field, name, '=', '!=', quote(value)) : constant(false);
    case 'id':
    case 'ids':
      return typeof value === 'string' ? compared(field, name, '=', '!=', quote(value.toLowerCase())) : constant(false);
    case 'number':
      return typeof value === 'number' ? compared(field, name, '=', '!=', String(value)) : constant(false);
    case 'boolean':
      return typeof value === 'boolean' ? compared(field, name, '=', '!=', String(value)) : constant(false);
    case 'time': {
      const ms = typeof value === 'string' ? toMillis(value) : null;
      return ms === null ? constant(false) : compared(field, name, '=', '!=', String(ms));
    }
  }
}

const OPS = { greaterThan: ['>', '<='], lessThan: ['<', '>='] } as const;

function comparison(
  field: string,
  name: string,
  kind: AttributeKind,
  op: 'greaterThan' | 'lessThan',
  value: number | string,
): Compiled {
  const [yes, no] = OPS[op];
  if (kind === 'number' && typeof value === 'number') return compared(field, name, yes, no, String(value));
  if (kind === 'time' && typeof value === 'string') {
    const ms = toMillis(value);
    return ms === null ? constant(false) : compared(field, name, yes, no, String(ms));
  }
  // Typesense orders no strings in filters; the filter model compares only numbers and dates.
  return constant(false);
}

/** Custom fields: the predicate's value says which typed field holds what it compares. */
function customLeaf(p: LeafPredicate): Compiled {
  const id = customFieldId(p.attribute)!;
  const name = customFilledName(id);
  const f = (suffix: Parameters<typeof customField>[1]): string => customField(id, suffix);
  switch (p.kind) {
    case 'empty':
      return { node: unfilled(name), negated: filled(name) };
    case 'contains':
      return {
        node: leaf(`${f('s')}:${quote(p.value)}`),
        negated: orNode([leaf(`${f('s')}:!=${quote(p.value)}`), unfilled(name)]),
      };
    case 'in':
    case 'overlaps': {
      const values = list(p.values.map((v) => v.toLowerCase()));
      return either(name, [
        [f('l'), values],
        [f('s'), values],
      ]);
    }
    case 'equalTo':
      if (typeof p.value === 'number') return compared(f('n'), name, '=', '!=', String(p.value));
      if (typeof p.value === 'boolean') return compared(f('b'), name, '=', '!=', String(p.value));
      return either(name, [
        [f('s'), quote(p.value)],
        [f('l'), quote(p.value.toLowerCase())],
      ]);
    case 'greaterThan':
    case 'lessThan': {
      const [yes, no] = OPS[p.kind];
      if (typeof p.value === 'number') return compared(f('n'), name, yes, no, String(p.value));
      const ms = toMillis(p.value);
      return ms === null ? constant(false) : compared(f('t'), name, yes, no, String(ms));
    }
  }
}

/** Equal in one of several typed fields; unequal in all of them (a value has only one shape). */
function either(name: string, tests: Array<[string, string]>): Compiled {
  return {
    node: orNode(tests.map(([field, value]) => leaf(`${field}:=${value}`))),
    negated: orNode([andNode(tests.map(([field, value]) => leaf(`${field}:!=${value}`))), unfilled(name)]),
  };
}

/**
 * What the searcher may read, always AND-ed in: the workspace, and for items in projects, the
 * readable projects. Items outside every project (folders, people, workspace tags) are readable
 * by every member, as in the PostgreSQL engine.
 */
export function accessFilterBy(workspaceId: string, access: SearchAccess, type: SearchResultType): FilterBy {
  const workspace = leaf(`workspaceId:=${quote(workspaceId)}`);
  if (access.allProjects) return render(workspace, false);
  const readable: Node =
    access.projectIds.length === 0
      ? false
      : leaf(`projectId:=${list(access.projectIds.map((id) => id.toLowerCase()))}`);
  const projects = MAY_LACK_PROJECT.includes(type) ? orNode([readable, unfilled('projectId')]) : readable;
  return render(andNode([workspace, projects]), false);
}

/** The access filter and the type's own, AND-ed; `false` when nothing may match. */
export function searchFilterBy(
  workspaceId: string,
  access: SearchAccess,
  type: SearchResultType,
  where: Predicate,
): string | false {
  const accessPart = accessFilterBy(workspaceId, access, type);
  const wherePart = compileFilterBy(where, type);
  if (accessPart === false || wherePart === false) return false;
  const parts = [accessPart, wherePart].filter((p): p is string => typeof p === 'string');
  return parts.join(' && ');
}
