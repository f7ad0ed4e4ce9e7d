import type { Predicate, Scalar } from '../../filters/index.ts';
import { ANY_OF_IDS, type AttributeKind, type AttributeSql, type Source } from './sources.ts';
import { join, raw, sql, type Sql } from './sql.ts';

/** An attribute as SQL: a known kind, a custom field value (jsonb), or one the type lacks. */
type Resolved = { kind: AttributeKind; sql: Sql; anyOf?: string } | { kind: 'json'; sql: Sql } | { kind: 'none' };

const CUSTOM_ATTRIBUTE =
  /^(?:field|question|personField)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function resolveAttribute(source: Source, name: string): Resolved {
  const known = source.attributes[name];
  if (known) return resolvedKnown(known);
  const custom = CUSTOM_ATTRIBUTE.exec(name);
  if (custom && source.valuesOf !== null) {
    return {
      kind: 'json',
      sql: sql`(select v.value from field_values v where v.field_id = ${custom[1]!.toLowerCase()}::uuid and v.object_type = ${source.valuesOf} and v.object_id = t.id)`,
    };
  }
  return { kind: 'none' };
}

function resolvedKnown(known: AttributeSql): Resolved {
  return known.anyOf === undefined
    ? { kind: known.kind, sql: raw(known.sql) }
    : { kind: known.kind, sql: raw(known.sql), anyOf: known.anyOf };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * "One of these ids is in the list" as the attribute's indexable `anyOf` condition. The list holds
 * uuids as PostgreSQL writes them (lower case), so a value of any other shape can match nothing:
 * leaving it out keeps the answer and lets the ids bind as uuid[].
 */
function anyOfSql(template: string, values: readonly string[]): Sql {
  const uuids = values.filter((v) => UUID.test(v));
  if (uuids.length === 0) return FALSE;
  // Written out as a constant, not bound: the ids are checked uuids (nothing else can be in the
  // text), and the planner then knows how many and which, so it can price an index on the list
  // (a highlight's tags, say) instead of guessing and scanning the table.
  const bound = raw(`'{${uuids.join(',')}}'::uuid[]`);
  const parts = template.split(ANY_OF_IDS);
  return sql`(${join(
    parts.flatMap((part, i) => (i === 0 ? [raw(part)] : [bound, raw(part)])),
    '',
  )})`;
}

const TRUE = raw('true');
const FALSE = raw('false');

/**
 * The predicate tree as a SQL condition over `t` (and `p`). Each leaf is made strictly true or
 * false (never null), so `not` means what the filter model says: "is not X" holds for an item
 * without X.
 */
export function predicateSql(predicate: Predicate, source: Source): Sql {
  switch (predicate.kind) {
    case 'and':
      return predicate.predicates.length === 0
        ? TRUE
        : sql`(${join(
            predicate.predicates.map((p) => predicateSql(p, source)),
            ' and ',
          )})`;
    case 'or':
      return predicate.predicates.length === 0
        ? FALSE
        : sql`(${join(
            predicate.predicates.map((p) => predicateSql(p, source)),
            ' or ',
          )})`;
    case 'not':
      return sql`(not ${predicateSql(predicate.predicate, source)})`;
    default: {
      const attribute = resolveAttribute(source, predicate.attribute);
      if (attribute.kind === 'none') return predicate.kind === 'empty' ? TRUE : FALSE;
      // anyOf conditions are never null (see AttributeSql): bare, they stay index scans and semi-joins.
      const strict =
        attribute.kind !== 'json' && attribute.anyOf !== undefined ? anyOfLeaf(predicate, attribute.anyOf) : null;
      if (strict) return strict;
      const leaf =
        attribute.kind === 'json'
          ? jsonLeaf(predicate, attribute.sql)
          : typedLeaf(predicate, attribute.kind, attribute.sql);
      return sql`coalesce(${leaf}, false)`;
    }
  }
}

type Leaf = Exclude<Predicate, { kind: 'and' | 'or' | 'not' }>;

/** `%`, `_` and the escape character itself match literally in a "contains". */
const likeEscape = (value: string): string => value.replace(/[\\%_]/g, '\\$&');

function typedLeaf(p: Leaf, kind: AttributeKind, x: Sql): Sql {
  switch (p.kind) {
    case 'contains':
      return kind === 'text'
        ? sql`(fb_search_text(${x}) like '%' || fb_search_text(${likeEscape(p.value)}) || '%')`
        : FALSE;
    case 'empty':
      if (kind === 'text') return sql`(coalesce(btrim(${x}), '') = '')`;
      if (kind === 'ids') return sql`(cardinality(${x}) = 0)`;
      return sql`(${x} is null)`;
    case 'in':
      if (kind === 'ids') return sql`(${x} && ${p.values}::text[])`;
      if (kind === 'id') return sql`(${x} = any(${lowerIds(p.values)}::text[]))`;
      return sql`(${x}::text = any(${p.values}::text[]))`;
    case 'overlaps':
      if (kind === 'ids') return sql`(${x} && ${lowerIds(p.values)}::text[])`;
      if (kind === 'id') return sql`(${x} = any(${lowerIds(p.values)}::text[]))`;
      return FALSE;
    case 'equalTo':
      return equalTo(kind, x, p.value);
    case 'greaterThan':
    case 'lessThan':
      return compare(kind, x, p.kind === 'greaterThan' ? raw('>') : raw('<'), p.value);
  }
}

/** Membership leaves of a list attribute through its `anyOf` condition; null for the others. */
function anyOfLeaf(p: Leaf, template: string): Sql | null {
  switch (p.kind) {
    case 'in':
      // As typedLeaf: `in` compares the values as given.
      return anyOfSql(template, p.values);
    case 'overlaps':
      return anyOfSql(template, lowerIds(p.values));
    case 'equalTo':
      return typeof p.value === 'string' ? anyOfSql(template, [p.value.toLowerCase()]) : FALSE;
    default:
      return null;
  }
}

const lowerIds = (values: readonly string[]): string[] => values.map((v) => v.toLowerCase());

function equalTo(kind: AttributeKind, x: Sql, value: Scalar): Sql {
  switch (kind) {
    case 'text':
      return typeof value === 'string' ? sql`(fb_search_text(${x}) = fb_search_text(${value}))` : FALSE;
    case 'id':
      return typeof value === 'string' ? sql`(${x} = ${value.toLowerCase()})` : FALSE;
    case 'ids':
      return typeof value === 'string' ? sql`(${value.toLowerCase()} = any(${x}))` : FALSE;
    case 'number':
      return typeof value === 'number' ? sql`(${x} = ${value}::numeric)` : FALSE;
    case 'boolean':
      return typeof value === 'boolean' ? sql`(${x} = ${value}::boolean)` : FALSE;
    case 'time':
      return typeof value === 'string' ? sql`(${x} = (select fb_to_timestamptz(${value})))` : FALSE;
  }
}

function compare(kind: AttributeKind, x: Sql, op: Sql, value: number | string): Sql {
  if (kind === 'number' && typeof value === 'number') return sql`(${x} ${op} ${value}::numeric)`;
  // A sub-select is computed once per statement; the function itself is plpgsql, costly per row.
  if (kind === 'time' && typeof value === 'string') return sql`(${x} ${op} (select fb_to_timestamptz(${value})))`;
  if (kind === 'text' && typeof value === 'string') return sql`(${x} ${op} ${value})`;
  return FALSE;
}

/**
 * Custom field values are jsonb: text, number, boolean, an ISO date, or a list of ids (select
 * options, people). The predicate's value says which comparison is meant; CASE guards each cast
 * so a value of another shape reads as not matching rather than failing the search.
 */
function jsonLeaf(p: Leaf, v: Sql): Sql {
  const str = sql`(case when jsonb_typeof(${v}) = 'string' then ${v} #>> '{}' end)`;
  const num = sql`(case when jsonb_typeof(${v}) = 'number' then (${v})::numeric end)`;
  const list = sql`(case when jsonb_typeof(${v}) = 'array' then array(select jsonb_array_elements_text(${v})) end)`;
  switch (p.kind) {
    case 'contains':
      return sql`(fb_search_text(${str}) like '%' || fb_search_text(${likeEscape(p.value)}) || '%')`;
    case 'empty':
      return sql`(${v} is null or jsonb_typeof(${v}) = 'null' or coalesce(btrim(${str}), 'x') = '' or ${v} = '[]'::jsonb)`;
    case 'in':
    case 'overlaps':
      return sql`(${list} && ${lowerIds(p.values)}::text[] or ${str} = any(${lowerIds(p.values)}::text[]))`;
    case 'equalTo':
      if (typeof p.value === 'number') return sql`(${num} = ${p.value}::numeric)`;
      if (typeof p.value === 'boolean') return sql`(${v} = to_jsonb(${p.value}::boolean))`;
      return sql`(fb_search_text(${str}) = fb_search_text(${p.value}) or ${p.value.toLowerCase()} = any(${list}))`;
    case 'greaterThan':
    case 'lessThan': {
      const op = p.kind === 'greaterThan' ? raw('>') : raw('<');
      if (typeof p.value === 'number') return sql`(${num} ${op} ${p.value}::numeric)`;
      return sql`(fb_to_timestamptz(${str}) ${op} fb_to_timestamptz(${p.value}))`;
    }
  }
}
