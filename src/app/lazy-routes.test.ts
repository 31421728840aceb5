import { describe, expect, it, vi } from 'vitest';
import { signal } from '@preact/signals-core';
import { act, render, screen } from '@testing-library/react';
import { Component, createElement, Suspense, type ComponentType, type ReactNode } from 'react';
import { forget, lazyScreen, prefetchRoute, prefetchRoutes, shouldPrefetch } from './lazy-routes';
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

  it('leaves the screens that need a session until one starts, then loads them once', () => {
    const open = fakeRoute();
    const member = fakeRoute({ requiresAuth: true });
    const signedIn = signal(false);
    expect(prefetchRoutes([open, member], {}, signedIn)).toBe(1);
    expect(open.load).toHaveBeenCalledTimes(1);
    expect(member.load).not.toHaveBeenCalled();
    signedIn.value = true;
    expect(member.load).toHaveBeenCalledTimes(1);
    // Signed out and in again: nothing is asked twice.
    signedIn.value = false;
    signedIn.value = true;
    expect(member.load).toHaveBeenCalledTimes(1);
    expect(open.load).toHaveBeenCalledTimes(1);
  });

  it('loads the screens that need a session at once for a member signed in', () => {
    const open = fakeRoute();
    const member = fakeRoute({ requiresAuth: true });
    expect(prefetchRoutes([open, member], {}, signal(true))).toBe(2);
    expect(member.load).toHaveBeenCalledTimes(1);
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

  it('the 404 route of the app is not prefetched', () => {
    expect(ROUTES.find((r) => r.id === 'not-found')?.noPrefetch).toBe(true);
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

  it('gives the same lazy component however often it is asked while the code is not in', () => {
    const route = fakeRoute();
    expect(lazyScreen(route)).toBe(lazyScreen(route));
  });

  it("renders the route's screen once its code is in", async () => {
    const route = fakeRoute();
    route.load.mockResolvedValue({ default: () => createElement('p', null, 'Loaded screen') });
    render(createElement(Suspense, { fallback: 'loading' }, createElement(lazyScreen(route))));
    expect(await screen.findByText('Loaded screen')).toBeTruthy();
    expect(route.load).toHaveBeenCalledTimes(1);
  });

  it('forgets code that failed to load, so that the next render asks for it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const route = fakeRoute();
    route.load.mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    const failed = lazyScreen(route);
    render(createElement(Boundary, null, createElement(Suspense, { fallback: 'loading' }, createElement(failed))));
    expect(await screen.findByText('failed')).toBeTruthy();
    await act(async () => {});
    const next = lazyScreen(route);
    expect(next).not.toBe(failed);
  });
});

describe('forget', () => {
  it('drops a route whose code is in: the next render and the next prefetch load it again', async () => {
    const route = fakeRoute();
    await prefetchRoute(route);
    const loaded = lazyScreen(route);
    forget(route);
    const again = lazyScreen(route) as { $$typeof?: symbol };
    expect(again).not.toBe(loaded);
    expect(again.$$typeof).toBe(Symbol.for('react.lazy'));
    await prefetchRoute(route);
    expect(route.load).toHaveBeenCalledTimes(2);
  });

  it('drops the lazy component of a route still loading', () => {
    const route = fakeRoute();
    const first = lazyScreen(route);
    forget(route);
    expect(lazyScreen(route)).not.toBe(first);
  });
});

/** Shows "failed" in place of children that threw. */
class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? 'failed' : this.props.children;
  }
}
