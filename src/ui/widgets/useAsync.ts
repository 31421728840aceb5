import { useCallback, useEffect, useRef, useState } from 'react';

export type AsyncState<T> =
  | { status: 'loading'; data?: T }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown; data?: T };

/**
 * Runs a cancellable load when the component mounts (and again on reload()). A newer load
 * cancels the running one; an unmounted component is never updated.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): AsyncState<T> & { reload: () => void } {
  const [state, setState] = useState<AsyncState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps and the reload counter decide when to load again; the loader itself is read through a ref.
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ status: 'success', data }),
      (error: unknown) => !controller.signal.aborted && setState((s) => ({ status: 'error', error, data: s.data })),
    );
    return () => controller.abort();
  }, [...deps, attempt]);

  // Stryker disable next-line ArithmeticOperator,ArrayDeclaration: any change of the counter loads again, counting down as well as up; and the callback has no inputs, so any fixed deps keep it the same function
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
