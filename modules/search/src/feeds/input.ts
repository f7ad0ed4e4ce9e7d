import { badInput } from '@fieldbook/core';
import {
  assertShareable,
  isUuid,
  normalizeFilter,
  parseFilter,
  SEARCH_LIMITS,
  SEARCH_RESULT_TYPES,
  validateQuery,
  type FilterForm,
  type SearchResultType,
} from '../filters/index.ts';
import { withFilterErrors } from '../filter-errors.ts';

/** Saved feed title limit (000 §9). */
export const FEED_LIMITS = { title: 200, perPerson: 500 } as const;

/** A feed's settings as stored, after validation. */
export interface FeedValues {
  title: string;
  query: string | null;
  filter: FilterForm | null;
  resultTypes: SearchResultType[];
  projectIds: string[];
  projectCategoryIds: string[];
  shared: boolean;
}

type Raw = Record<string, unknown>;
export const sent = (raw: Raw, key: string): boolean => Object.prototype.hasOwnProperty.call(raw, key);

export function parseTitle(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw badInput('input.title', 'Give the feed a title.');
  const title = raw.trim();
  if ([...title].length > FEED_LIMITS.title)
    throw badInput('input.title', `A saved feed title can be at most ${FEED_LIMITS.title} characters long.`);
  return title;
}

const parseQuery = (raw: unknown): string | null => withFilterErrors(() => validateQuery(raw, 'input.query')) ?? null;

/** Stored normalised (000 §5, 002 §5): what the feed searches by, without the blank forms. */
const parseFeedFilter = (raw: unknown): FilterForm | null =>
  withFilterErrors(() => normalizeFilter(parseFilter(raw, 'input.filter')));

function parseResultTypes(raw: unknown): SearchResultType[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw badInput('input.resultTypes', 'resultTypes must be a list of result types.');
  const out: SearchResultType[] = [];
  for (const type of raw) {
    if (!(SEARCH_RESULT_TYPES as readonly unknown[]).includes(type)) {
      throw badInput('input.resultTypes', `resultTypes holds result types only: ${SEARCH_RESULT_TYPES.join(', ')}.`);
    }
    if (!out.includes(type as SearchResultType)) out.push(type as SearchResultType);
  }
  return out;
}

function parseIds(raw: unknown, name: string): string[] {
  if (raw === null || raw === undefined) return [];
  const field = `input.${name}`;
  if (!Array.isArray(raw)) throw badInput(field, `${name} must be a list of ids.`);
  if (raw.length > SEARCH_LIMITS.scopeIds)
    throw badInput(field, `${name} can hold at most ${SEARCH_LIMITS.scopeIds} ids.`);
  const out: string[] = [];
  for (const id of raw) {
    if (typeof id !== 'string' || !isUuid(id.trim())) throw badInput(field, `${name} must hold valid ids.`);
    const clean = id.trim().toLowerCase();
    if (!out.includes(clean)) out.push(clean);
  }
  return out;
}

export function parseRank(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) throw badInput('input.rank', 'rank must be a finite number.');
  return raw;
}

/**
 * Applies the keys the client sent to `current` (a new feed's defaults on create). Each key is
 * checked on its own, then the rule across them: a shared feed's filter must have a value.
 */
export function applyFeedInput(current: FeedValues, raw: Raw): FeedValues {
  const next: FeedValues = { ...current };
  if (sent(raw, 'title')) next.title = parseTitle(raw.title);
  if (sent(raw, 'query')) next.query = parseQuery(raw.query);
  if (sent(raw, 'filter')) next.filter = parseFeedFilter(raw.filter);
  if (sent(raw, 'resultTypes')) next.resultTypes = parseResultTypes(raw.resultTypes);
  if (sent(raw, 'projectIds')) next.projectIds = parseIds(raw.projectIds, 'projectIds');
  if (sent(raw, 'projectCategoryIds')) next.projectCategoryIds = parseIds(raw.projectCategoryIds, 'projectCategoryIds');
  if (sent(raw, 'shared')) {
    if (raw.shared !== null && typeof raw.shared !== 'boolean')
      throw badInput('input.shared', 'shared must be true or false.');
    next.shared = raw.shared === true;
  }
  if (next.shared) next.filter = withFilterErrors(() => assertShareable(next.filter, 'input.filter'));
  return next;
}
