import { useFieldbook } from '@fieldbook/extensions-sdk/web';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

/** Runs a query now and whenever its variables change; `skip` waits (e.g. for an id). Keeps the last data while reloading. */
export function useLoad<T>(
  query: string,
  variables: Record<string, unknown> = {},
  opts: { skip?: boolean } = {},
): Loaded<T> {
  const { graphql } = useFieldbook();
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: !opts.skip,
  });
  const key = JSON.stringify(variables);
  const latest = useRef(0);
  const run = useCallback(async () => {
    if (opts.skip) return;
    const call = ++latest.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const data = await graphql<T>(query, JSON.parse(key) as Record<string, unknown>);
      if (call === latest.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (call === latest.current) setState((s) => ({ data: s.data, error, loading: false }));
    }
  }, [graphql, query, key, opts.skip]);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, reload: run };
}

/** Whether the viewer's workspace role grants a permission (002 §6), e.g. `projects:create`. */
export function useCan(): (permission: string) => boolean {
  const { permissions } = useFieldbook();
  return useCallback((p: string) => permissions.includes(p), [permissions]);
}

/** A mutation with its busy flag and last error, for forms and dialogs. */
export function useAction<A extends unknown[], R>(
  fn: (...args: A) => Promise<R>,
): { run: (...args: A) => Promise<R | undefined>; busy: boolean; error: unknown; reset(): void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const run = useCallback(async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      return await fnRef.current(...args);
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, reset: () => setError(null) };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

export const formatDate = (iso: string): string => dateFormat.format(new Date(iso));

/** "3 minutes ago", "yesterday", then the date. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  if (abs < 86400 * 7) return relative.format(Math.round(seconds / 86400), 'day');
  return formatDate(iso);
}
