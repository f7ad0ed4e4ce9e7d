import { badFilterInput } from './errors.ts';
import { isCustomFieldId, isSystemField, isUuid } from './fields.ts';
import type { FilterForm } from './form.ts';
import { parseFilter } from './parse.ts';
import { validateQuery } from './query.ts';
import { SEARCH_RESULT_TYPES, type SearchResultType } from './search-types.ts';

/** Search limits (000 §9, 002 §5). */
export const SEARCH_LIMITS = {
  maxLimit: 1000,
  /** How many results a search answers when not told; 002 names no default. */
  defaultLimit: 100,
  sorts: 10,
  /** Ids in one of the scope lists (projects, tags, folders). */
  scopeIds: 1000,
  minPeriods: 1,
  maxPeriods: 5,
} as const;

export const SORT_DIRECTIONS = ['ASC', 'DESC'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/** Besides the filter fields, results can be sorted by how well they match. */
export const RELEVANCE = 'Relevance';

export interface SearchSort {
  field: string;
  direction: SortDirection;
}

/** Search parameters (000 §3) after validation. */
export interface SearchParams {
  query?: string;
  /** Empty means every result type. */
  resultTypes: SearchResultType[];
  projectIds: string[];
  tagIds: string[];
  projectCategoryIds: string[];
  sort: SearchSort[];
  filter: FilterForm | null;
  selectedFilterId?: string;
  limit: number;
  offset: number;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validates raw search parameters; strings are trimmed and blank ones count as unset (002 §5). */
export function parseSearchParams(input: unknown): SearchParams {
  const raw: Json =
    input === undefined || input === null
      ? {}
      : isObject(input)
        ? input
        : fail('input', 'Search parameters must be an object.');
  const params: SearchParams = {
    resultTypes: parseResultTypes(
      raw.resultTypes ?? (raw.resultType === undefined || raw.resultType === null ? undefined : [raw.resultType]),
    ),
    projectIds: parseIds(raw.projectIds, 'projectIds'),
    tagIds: parseIds(raw.tagIds, 'tagIds'),
    projectCategoryIds: parseIds(raw.projectCategoryIds, 'projectCategoryIds'),
    sort: parseSort(raw.sort),
    filter: parseFilter(raw.filter),
    limit: parseLimit(raw.limit),
    offset: parseOffset(raw.offset),
  };
  const query = validateQuery(raw.query);
  if (query !== undefined) params.query = query;
  const selected = blankToUndefined(raw.selectedFilterId, 'selectedFilterId');
  if (selected !== undefined) {
    if (!isUuid(selected)) fail('selectedFilterId', 'selectedFilterId must be a valid id.');
    params.selectedFilterId = selected.toLowerCase();
  }
  return params;
}

function fail(field: string, message: string): never {
  throw badFilterInput(field, message);
}

function blankToUndefined(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') fail(field, `${field} must be text.`);
  const text = raw.trim();
  return text === '' ? undefined : text;
}

const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/** The search limit is a whole number from 0 to 1000 (002 §5). */
export function parseLimit(raw: unknown, field = 'limit'): number {
  if (raw === undefined || raw === null) return SEARCH_LIMITS.defaultLimit;
  if (!isWhole(raw) || raw < 0 || raw > SEARCH_LIMITS.maxLimit) {
    fail(field, `${field} must be a whole number from 0 to ${SEARCH_LIMITS.maxLimit}.`);
  }
  return raw;
}

/** The offset defaults to 0 (002 §5). */
export function parseOffset(raw: unknown, field = 'offset'): number {
  if (raw === undefined || raw === null) return 0;
  if (!isWhole(raw) || raw < 0) fail(field, `${field} must be a whole number of 0 or more.`);
  return raw;
}

/** Aggregation periods are 1 to 5 (002 §5). */
export function parseAggregationPeriods(raw: unknown, field = 'periods'): number {
  if (!isWhole(raw) || raw < SEARCH_LIMITS.minPeriods || raw > SEARCH_LIMITS.maxPeriods) {
    fail(field, `${field} must be a whole number from ${SEARCH_LIMITS.minPeriods} to ${SEARCH_LIMITS.maxPeriods}.`);
  }
  return raw;
}

function parseResultTypes(raw: unknown): SearchResultType[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) fail('resultTypes', 'resultTypes must be a list of result types.');
  const out: SearchResultType[] = [];
  for (const type of raw) {
    if (!(SEARCH_RESULT_TYPES as readonly unknown[]).includes(type)) {
      fail('resultTypes', `${String(type)} is not a result type; use one of ${SEARCH_RESULT_TYPES.join(', ')}.`);
    }
    if (!out.includes(type as SearchResultType)) out.push(type as SearchResultType);
  }
  return out;
}

/** Ids must be UUIDs (002 §5); repeats count once. */
function parseIds(raw: unknown, field: string): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) fail(field, `${field} must be a list of ids.`);
  if (raw.length > SEARCH_LIMITS.scopeIds) fail(field, `${field} can hold at most ${SEARCH_LIMITS.scopeIds} ids.`);
  const out: string[] = [];
  for (const id of raw) {
    if (typeof id !== 'string' || !isUuid(id.trim()))
      fail(field, `${field} must hold valid ids; ${JSON.stringify(id)} is not one.`);
    const clean = id.trim().toLowerCase();
    if (!out.includes(clean)) out.push(clean);
  }
  return out;
}

function parseSort(raw: unknown): SearchSort[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) fail('sort', 'sort must be a list of fields with a direction.');
  if (raw.length > SEARCH_LIMITS.sorts) fail('sort', `A search can sort by at most ${SEARCH_LIMITS.sorts} fields.`);
  const seen = new Set<string>();
  return raw.map((item: unknown, i) => {
    const path = `sort.${i}`;
    if (!isObject(item)) fail(path, `${path} must have a field and a direction.`);
    const { field, direction } = item;
    if (field !== RELEVANCE && !isSystemField(field) && !isCustomFieldId(field)) {
      fail(
        `${path}.field`,
        `${path}.field must be ${RELEVANCE}, a system field such as Created or Title, or a custom field id.`,
      );
    }
    const dir = direction ?? 'ASC';
    if (!(SORT_DIRECTIONS as readonly unknown[]).includes(dir))
      fail(`${path}.direction`, `${path}.direction must be ASC or DESC.`);
    if (seen.has(field as string)) fail(`${path}.field`, `The sort field ${String(field)} appears twice.`);
    seen.add(field as string);
    return { field: field as string, direction: dir as SortDirection };
  });
}
