import { useCallback, useEffect, useRef, useState } from 'react';

export type SaveState =
  | { status: 'saved' }
  | { status: 'pending' }
  | { status: 'saving' }
  | { status: 'error'; error: unknown };

/**
 * Saves edits a moment after the last keystroke. Changes made while a save is on its way are
 * merged and sent next, so every edit is saved once and in order; a failed save keeps its changes
 * for the next try, and whatever is left is sent when the page closes.
 */
export function useAutosave<P extends object>(save: (patch: P) => Promise<void>, delayMs = 700) {
  const [state, setState] = useState<SaveState>({ status: 'saved' });
  const pending = useRef<P | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inFlight.current) await inFlight.current;
    const patch = pending.current;
    if (!patch) return;
    pending.current = null;
    setState({ status: 'saving' });
    const run = saveRef
      .current(patch)
      .then(() => {
        setState(pending.current ? { status: 'pending' } : { status: 'saved' });
      })
      .catch((error: unknown) => {
        pending.current = { ...patch, ...(pending.current ?? {}) };
        setState({ status: 'error', error });
      })
      .finally(() => {
        inFlight.current = null;
      });
    inFlight.current = run;
    await run;
  }, []);

  const change = useCallback(
    (patch: P) => {
      pending.current = { ...(pending.current ?? {}), ...patch } as P;
      setState((s) => (s.status === 'saving' ? s : { status: 'pending' }));
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), delayMs);
    },
    [flush, delayMs],
  );

  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (pending.current || inFlight.current) {
        void flush();
        e.preventDefault();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      void flush();
    };
  }, [flush]);

  return { state, change, flush, retry: flush };
}
