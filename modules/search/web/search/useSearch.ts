import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useCallback, useEffect, useRef, useState } from 'react';
import { FilterError, normalizeFilter, validateQuery } from '../../src/filters/index.ts';
import { Q, type SearchAnswer } from '../api.ts';
import { resultTypesOf, type SearchState } from '../state.ts';

/** Hits per page; "Show more" adds another page, up to the search result limit (000 §9). */
export const PAGE = 50;
const MAX = 1000;

/** A filter-model problem dressed as the server's error, so it reads the same on screen. */
const asServerError = (error: FilterError) => ({
  errors: [
    { message: error.message, extensions: { errorCode: error.errorCode, humanReadable: true, field: error.field } },
  ],
});

/** The search input for a state: every tab's counts, and the page of the tab shown. */
export function searchVariables(
  state: SearchState,
  limit: number,
): { counts: Record<string, unknown>; input: Record<string, unknown> } {
  const query = validateQuery(state.query);
  const base: Record<string, unknown> = {
    projectIds: state.projectIds,
    projectCategoryIds: state.projectCategoryIds,
    filter: normalizeFilter(state.filter),
  };
  if (query) base.query = query;
  return { counts: { ...base, limit: 0 }, input: { ...base, resultTypes: resultTypesOf(state.tab), limit } };
}

/** Runs the search a little after the state settles, keeping the last answer while the next loads. */
export function useSearch(state: SearchState): {
  answer: SearchAnswer | null;
  loading: boolean;
  error: unknown;
  retry(): void;
  more(): void;
} {
  const { graphql } = useFieldbook();
  const [limit, setLimit] = useState(PAGE);
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);

  let variables: ReturnType<typeof searchVariables> | null = null;
  let invalid: unknown = null;
  try {
    variables = searchVariables(state, limit);
  } catch (err) {
    invalid = err instanceof FilterError ? asServerError(err) : err;
  }
  const key = variables ? JSON.stringify(variables) : null;
  const scopeKey = variables ? JSON.stringify({ ...variables, input: { ...variables.input, limit: 0 } }) : null;

  // A new search starts again from the first page.
  const lastScope = useRef(scopeKey);
  useEffect(() => {
    if (lastScope.current !== scopeKey) {
      lastScope.current = scopeKey;
      setLimit(PAGE);
    }
  }, [scopeKey]);

  useEffect(() => {
    const call = ++latest.current;
    if (!key) {
      setError(invalid);
      setLoading(false);
      return;
    }
    setLoading(true);
    const timer = setTimeout(() => {
      graphql<SearchAnswer>(Q.search, JSON.parse(key) as Record<string, unknown>).then(
        (data) => {
          if (call !== latest.current) return;
          setAnswer(data);
          setError(null);
          setLoading(false);
        },
        (err: unknown) => {
          if (call !== latest.current) return;
          setError(err);
          setLoading(false);
        },
      );
    }, 250);
    return () => clearTimeout(timer);
    // `invalid` follows from `key`; the attempt counter reruns the same search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [graphql, key, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const more = useCallback(() => setLimit((n) => Math.min(n + PAGE, MAX)), []);
  return { answer, loading, error, retry, more };
}
