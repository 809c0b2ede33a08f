/**
 * Loads a page's data, then again every few seconds while the tab is visible, so the page follows
 * fills without a reload. Says when the data is stale (the last attempt failed) and why.
 */
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { AppContext } from '../app-context.ts';
import { ApiError } from '../api/errors.ts';

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** When the data shown was loaded. */
  loadedAt: Date | undefined;
  loading: boolean;
  reload(): Promise<void>;
}

export const REFRESH_CHOICES = [2_000, 5_000, 10_000, 30_000];
export const DEFAULT_REFRESH_MS = 10_000;

/** Every `refreshMs` of the session (the person's choice in the top bar). */
export function usePoll<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Polled<T> {
  const intervalMs = useContext(AppContext)?.session.refreshMs ?? DEFAULT_REFRESH_MS;
  const [state, setState] = useState<Omit<Polled<T>, 'reload'>>({ data: undefined, error: undefined, loadedAt: undefined, loading: true });
  const loadRef = useRef(load);
  loadRef.current = load;
  const running = useRef<AbortController | undefined>(undefined);

  const reload = useCallback(async () => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    try {
      const data = await loadRef.current(controller.signal);
      if (!controller.signal.aborted) setState({ data, error: undefined, loadedAt: new Date(), loading: false });
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = error instanceof ApiError ? error : new ApiError(String(error instanceof Error ? error.message : error), 0, 'client_error');
      setState((previous) => ({ ...previous, error: failure, loading: false }));
    }
  }, []);

  // New deps mean other data: forget what was shown and load it.
  useEffect(() => {
    setState({ data: undefined, error: undefined, loadedAt: undefined, loading: true });
    void reload();
    return () => running.current?.abort();
  }, deps);

  // A new refresh choice only changes the pace; what is shown stays until the next load.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);

  return { ...state, reload };
}
