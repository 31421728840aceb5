import { useCallback, useEffect, useRef, useState } from 'react';
import { readPersisted, writePersisted } from '../../lib/persist';

export type AsyncState<T> =
  | { status: 'loading'; data?: T }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown; data?: T };

/**
 * A list kept from the last visit (in localStorage, `cache.<key>`), shown while it is read again.
 * `atOnce`: in the first render already; a page the build prerendered takes it after hydrating
 * instead, so that its first render is the one its HTML has.
 */
export interface KeepLast {
  key: string;
  atOnce: boolean;
}

const keptList = (keep: KeepLast | undefined): unknown[] | undefined =>
  keep ? (readPersisted(`cache.${keep.key}`, (raw) => (Array.isArray(raw) ? raw : null), null) ?? undefined) : undefined;

/**
 * Runs a cancellable load when the component mounts (and again on reload()). A newer load
 * cancels the running one; an unmounted component is never updated. With `keep`, a list it loads
 * is kept for the next visit, which shows it at once and reads it again (placeholders only on a
 * first visit).
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  keep?: KeepLast,
): AsyncState<T> & { reload: () => void } {
  // Only lists are kept: what comes back is checked to be one, the rest is the loader's type.
  const [state, setState] = useState<AsyncState<T>>(() => ({ status: 'loading', data: keep?.atOnce ? (keptList(keep) as T) : undefined }));
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const keepRef = useRef(keep);
  keepRef.current = keep;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps and the reload counter decide when to load again; the loader itself is read through a ref.
  useEffect(() => {
    const controller = new AbortController();
    const kept = keepRef.current;
    setState((s) => ({ status: 'loading', data: s.data ?? (keptList(kept) as T | undefined) }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        if (kept && Array.isArray(data)) writePersisted(`cache.${kept.key}`, data);
        setState({ status: 'success', data });
      },
      (error: unknown) => !controller.signal.aborted && setState((s) => ({ status: 'error', error, data: s.data })),
    );
    return () => controller.abort();
  }, [...deps, attempt]);

  // Stryker disable next-line ArithmeticOperator,ArrayDeclaration: any change of the counter loads again, counting down as well as up; and the callback has no inputs, so any fixed deps keep it the same function
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
