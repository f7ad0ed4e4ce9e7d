import { useCallback, useEffect, useRef, useState } from 'react';
import { useServices } from '../session/SessionProvider.tsx';
import type { RequestOptions } from './graphql-client.ts';

export interface QueryState<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

/** Runs a query now and whenever its variables change; `skip` holds it back. */
export function useQuery<T>(
  query: string,
  variables: Record<string, unknown> = {},
  options: RequestOptions & { skip?: boolean /** Re-runs the query when it changes. */; key?: string | null } = {},
): QueryState<T> {
  const { client } = useServices();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(!options.skip);
  const key = JSON.stringify(variables);
  const latest = useRef(0);
  const { skip, workspace, auth } = options;
  const extraKey = options.key;

  const reload = useCallback(async () => {
    if (skip) return;
    const call = ++latest.current;
    setLoading(true);
    try {
      const opts = { ...(workspace === undefined ? {} : { workspace }), ...(auth === undefined ? {} : { auth }) };
      const result = await client.request<T>(query, JSON.parse(key) as Record<string, unknown>, opts);
      if (call !== latest.current) return;
      setData(result);
      setError(null);
    } catch (err) {
      if (call === latest.current) setError(err);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  }, [client, query, key, skip, workspace, auth, extraKey]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { data, error, loading, reload };
}

/** A mutation (or one-off query) with its pending state and last error. */
export function useAction<T, A extends unknown[]>(fn: (...args: A) => Promise<T>) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A): Promise<T | undefined> => {
      setLoading(true);
      setError(null);
      try {
        return await fn(...args);
      } catch (err) {
        setError(err);
        return undefined;
      } finally {
        setLoading(false);
      }
    },
    [fn],
  );
  return { run, loading, error, setError };
}
