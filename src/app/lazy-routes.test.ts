import { describe, expect, it, vi } from 'vitest';
import type { ComponentType } from 'react';
import { lazyScreen, prefetchRoute, prefetchRoutes, shouldPrefetch } from './lazy-routes';
import { ROUTES, type RouteDef } from './routes';

let seq = 0;
const emptyScreen = () => null;
function fakeRoute(extra: Partial<RouteDef> = {}): RouteDef & { load: ReturnType<typeof vi.fn> } {
  const Screen: ComponentType = emptyScreen;
  return {
    id: `fake-${++seq}`,
    path: `/fake-${seq}`,
    title: 'nav.home',
    layout: 'home',
    load: vi.fn(() => Promise.resolve({ default: Screen })),
    ...extra,
  } as RouteDef & { load: ReturnType<typeof vi.fn> };
}

describe('shouldPrefetch', () => {
  it('is false when the user asked to save data', () => {
    expect(shouldPrefetch({ saveData: true })).toBe(false);
    expect(shouldPrefetch({ saveData: true, effectiveType: '4g' })).toBe(false);
  });

  it("is false on '2g' and 'slow-2g'", () => {
    expect(shouldPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(shouldPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
  });

  it('is true otherwise', () => {
    expect(shouldPrefetch({ effectiveType: '3g' })).toBe(true);
    expect(shouldPrefetch({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(shouldPrefetch({})).toBe(true);
    // No Network Information API (Safari, Firefox): prefetch.
    expect(shouldPrefetch(undefined)).toBe(true);
  });

  it("reads the browser's connection by default", () => {
    const nav = navigator as { connection?: unknown };
    const had = Object.getOwnPropertyDescriptor(nav, 'connection');
    Object.defineProperty(nav, 'connection', { value: { effectiveType: 'slow-2g' }, configurable: true });
    try {
      expect(shouldPrefetch()).toBe(false);
    } finally {
      if (had) Object.defineProperty(nav, 'connection', had);
      else delete nav.connection;
    }
  });
});

describe('prefetchRoutes', () => {
  it('loads every route except those marked noPrefetch', () => {
    const a = fakeRoute();
    const b = fakeRoute({ noPrefetch: true });
    const c = fakeRoute();
    expect(prefetchRoutes([a, b, c], { effectiveType: '4g' })).toBe(2);
    expect(a.load).toHaveBeenCalledTimes(1);
    expect(b.load).not.toHaveBeenCalled();
    expect(c.load).toHaveBeenCalledTimes(1);
  });

  it('loads nothing on a 2g or data-saver connection', () => {
    const a = fakeRoute();
    expect(prefetchRoutes([a], { effectiveType: '2g' })).toBe(0);
    expect(prefetchRoutes([a], { saveData: true })).toBe(0);
    expect(a.load).not.toHaveBeenCalled();
  });

  it('loads a route once however often it is prefetched', async () => {
    const a = fakeRoute();
    await prefetchRoute(a);
    await prefetchRoute(a);
    prefetchRoutes([a], {});
    expect(a.load).toHaveBeenCalledTimes(1);
  });

  it('tries again after a failed load', async () => {
    const a = fakeRoute();
    a.load.mockImplementationOnce(() => Promise.reject(new Error('chunk failed')));
    await prefetchRoute(a);
    await prefetchRoute(a);
    expect(a.load).toHaveBeenCalledTimes(2);
  });

  it('the 404 route of the app is not prefetched, the home route is preloaded', () => {
    expect(ROUTES.find((r) => r.id === 'not-found')?.noPrefetch).toBe(true);
    expect(ROUTES.find((r) => r.id === 'home')?.preload).toBe(true);
  });
});

describe('lazyScreen', () => {
  it('gives the screen itself once its code is in, so a first render (or a hydration) does not suspend', async () => {
    const route = fakeRoute();
    await prefetchRoute(route);
    const { default: loaded } = (await route.load.mock.results[0]!.value) as { default: ComponentType };
    expect(lazyScreen(route)).toBe(loaded);
  });

  it('gives a lazy component while the code is not in', () => {
    const route = fakeRoute();
    const screen = lazyScreen(route) as { $$typeof?: symbol };
    expect(screen.$$typeof).toBe(Symbol.for('react.lazy'));
  });
});
