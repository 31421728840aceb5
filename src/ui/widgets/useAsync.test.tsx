import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useAsync } from './useAsync';

/** A loader whose calls the test settles one by one, each seeing its own signal. */
function controlledLoader<T>() {
  const calls: { signal: AbortSignal; resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const load = vi.fn(
    (signal: AbortSignal) =>
      new Promise<T>((resolve, reject) => {
        calls.push({ signal, resolve, reject });
      }),
  );
  return { load, calls };
}

describe('useAsync', () => {
  it('is loading on mount, then holds what the load gave', async () => {
    const { load, calls } = controlledLoader<string>();
    const { result } = renderHook(() => useAsync(load, []));
    expect(result.current.status).toBe('loading');
    expect(result.current.data).toBeUndefined();
    expect(load).toHaveBeenCalledOnce();
    await act(async () => calls[0]!.resolve('profile'));
    expect(result.current).toMatchObject({ status: 'success', data: 'profile' });
    expect(typeof result.current.reload).toBe('function');
  });

  it('is loading from its very first render, before any effect ran (as a prerendered page shows it)', () => {
    const { load } = controlledLoader<string>();
    const seen: string[] = [];
    renderHook(() => {
      const state = useAsync(load, []);
      seen.push(state.status);
      return state;
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((status) => status === 'loading')).toBe(true);
  });

  it('tells a failed load with its error', async () => {
    const { load, calls } = controlledLoader<string>();
    const { result } = renderHook(() => useAsync(load, []));
    const failure = new Error('offline');
    await act(async () => calls[0]!.reject(failure));
    expect(result.current.status).toBe('error');
    expect(result.current.status === 'error' && result.current.error).toBe(failure);
  });

  it('reload runs the load again, keeping the data shown meanwhile and after a failure', async () => {
    const { load, calls } = controlledLoader<string>();
    const { result } = renderHook(() => useAsync(load, []));
    await act(async () => calls[0]!.resolve('first'));

    act(() => result.current.reload());
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current).toMatchObject({ status: 'loading', data: 'first' });
    const failure = new Error('server error');
    await act(async () => calls[1]!.reject(failure));
    expect(result.current).toMatchObject({ status: 'error', error: failure, data: 'first' });

    act(() => result.current.reload());
    expect(load).toHaveBeenCalledTimes(3);
    await act(async () => calls[2]!.resolve('second'));
    expect(result.current).toMatchObject({ status: 'success', data: 'second' });
  });

  it('loads again when a dependency changes, and no answer of the cancelled load is shown', async () => {
    const { load, calls } = controlledLoader<string>();
    const { result, rerender } = renderHook(({ id }) => useAsync((signal) => load(signal), [id]), { initialProps: { id: 'a' } });
    rerender({ id: 'a' });
    expect(load).toHaveBeenCalledOnce();

    rerender({ id: 'b' });
    expect(load).toHaveBeenCalledTimes(2);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.aborted).toBe(false);

    await act(async () => calls[1]!.resolve('b'));
    expect(result.current).toMatchObject({ status: 'success', data: 'b' });
    // The older load answers late, by success or failure: neither replaces the newer one.
    await act(async () => calls[0]!.resolve('a'));
    expect(result.current).toMatchObject({ status: 'success', data: 'b' });

    rerender({ id: 'c' });
    rerender({ id: 'd' });
    await act(async () => calls[2]!.reject(new Error('late')));
    expect(result.current).toMatchObject({ status: 'loading', data: 'b' });
    await act(async () => calls[3]!.resolve('d'));
    expect(result.current).toMatchObject({ status: 'success', data: 'd' });
  });

  it('a load failing after a newer one started shows no error', async () => {
    const { load, calls } = controlledLoader<string>();
    const { result } = renderHook(() => useAsync(load, []));
    act(() => result.current.reload());
    await act(async () => calls[0]!.reject(new Error('stale')));
    expect(result.current.status).toBe('loading');
    await act(async () => calls[1]!.resolve('fresh'));
    expect(result.current).toMatchObject({ status: 'success', data: 'fresh' });
  });

  it('cancels the load under way on unmount', async () => {
    const { load, calls } = controlledLoader<string>();
    const { unmount } = renderHook(() => useAsync(load, []));
    unmount();
    await waitFor(() => expect(calls[0]!.signal.aborted).toBe(true));
  });

  it('reload uses the loader of the latest render', async () => {
    const first = vi.fn(async () => 'old');
    const second = vi.fn(async () => 'new');
    const { result, rerender } = renderHook(({ load }) => useAsync(load, []), { initialProps: { load: first } });
    await waitFor(() => expect(result.current.status).toBe('success'));
    rerender({ load: second });
    expect(second).not.toHaveBeenCalled();
    act(() => result.current.reload());
    await waitFor(() => expect(result.current).toMatchObject({ status: 'success', data: 'new' }));
    expect(first).toHaveBeenCalledOnce();
  });
});

describe('useAsync keeping the last list', () => {
  it('shows the list of the last visit at once, reads it again, and keeps the new one', async () => {
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: '1', code: 'MSFT' }]));
    const { load, calls } = controlledLoader<{ id: string; code: string }[]>();
    const { result } = renderHook(() => useAsync(load, [], { key: 'symbols', atOnce: true }));
    expect(result.current).toMatchObject({ status: 'loading', data: [{ id: '1', code: 'MSFT' }] });
    await act(async () => calls[0]!.resolve([{ id: '2', code: 'AAPL' }]));
    expect(result.current).toMatchObject({ status: 'success', data: [{ id: '2', code: 'AAPL' }] });
    expect(JSON.parse(localStorage.getItem('cache.symbols') ?? 'null')).toEqual([{ id: '2', code: 'AAPL' }]);
  });

  it('keeps showing it when the read fails (offline), with the error to tell', async () => {
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: '1' }]));
    const { load, calls } = controlledLoader<{ id: string }[]>();
    const { result } = renderHook(() => useAsync(load, [], { key: 'symbols', atOnce: true }));
    await act(async () => calls[0]!.reject(new TypeError('Failed to fetch')));
    expect(result.current).toMatchObject({ status: 'error', data: [{ id: '1' }] });
  });

  it('on a prerendered page, takes it only after the first render, which stays the one the HTML has', async () => {
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: '1' }]));
    const { load } = controlledLoader<{ id: string }[]>();
    const seen: unknown[] = [];
    const { result } = renderHook(() => {
      const state = useAsync(load, [], { key: 'symbols', atOnce: false });
      seen.push(state.data);
      return state;
    });
    expect(seen[0]).toBeUndefined();
    await waitFor(() => expect(result.current.data).toEqual([{ id: '1' }]));
  });

  it('a first visit, or something kept that is no list, has nothing to show yet', () => {
    localStorage.setItem('cache.symbols', JSON.stringify({ not: 'a list' }));
    const { load } = controlledLoader<unknown[]>();
    const { result } = renderHook(() => useAsync(load, [], { key: 'symbols', atOnce: true }));
    expect(result.current.data).toBeUndefined();
  });
});
