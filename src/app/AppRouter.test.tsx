import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubSilentNetwork } from '../test/silent-network';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { App } from './App';
import { routerState } from '../state/router';
import { sessionEnded, sessionStarted } from '../state/auth';
import { renderMode, setRenderMode } from '../state/render-mode';
import { SCREEN_READY_EVENT } from './AppRouter';
import { forget } from './lazy-routes';
import { routeById, type RouteDef } from './routes';

// The screens shown ask the API for their data, which never comes here: the router's state is the
// subject, not what the screens show.
beforeEach(stubSilentNetwork);

afterEach(() => {
  act(() => sessionEnded('signed-out'));
  window.history.replaceState(null, '', '/');
});

describe('<AppRouter> keeps the router state', () => {
  it('holds the url, params, query parameters and breadcrumbs of the route shown, and follows navigation', async () => {
    act(() => sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null }));
    window.history.replaceState(null, '', '/admin/symbols?page=2&q=ms%20ft');
    render(<App />);
    await waitFor(() => expect(routerState.value.url).toBe('/admin/symbols'));
    expect(routerState.value).toEqual({
      url: '/admin/symbols',
      params: { collection: 'symbols' },
      queryParams: { page: '2', q: 'ms ft' },
      breadcrumbs: [
        { title: 'Admin', path: '/admin' },
        { title: 'symbols', path: '/admin/symbols' },
      ],
      data: {},
    });
    expect(document.title).toBe('Admin | symbols | Circle');

    act(() => navigate('/settings'));
    await waitFor(() => expect(routerState.value.url).toBe('/settings'));
    expect(routerState.value).toMatchObject({ params: {}, queryParams: {}, breadcrumbs: [{ title: 'Settings', path: '/settings' }] });
  });

  it('a guarded route seen signed out is not the router state: the sign-in route is', async () => {
    window.history.replaceState(null, '', '/admin');
    render(<App />);
    await waitFor(() => expect(routerState.value.url).toBe('/sign-in'));
    expect(routerState.value.queryParams).toEqual({ next: '/admin' });
  });
});

const notFound = routeById('not-found') as RouteDef;
const settings = routeById('settings') as RouteDef;

/** A screen module as a route loads it: a heading that can take focus, as the app's screens have. */
function screenModule(heading: string | null): { default: ComponentType } {
  return {
    default: () => <div className="screen">{heading === null ? <p>A screen without a heading</p> : <h1 tabIndex={-1}>{heading}</h1>}</div>,
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('<AppRouter> shows screens', () => {
  // The screens' code is kept once in: each test starts with none, and leaves none of its own behind.
  beforeEach(() => {
    forget(notFound);
    forget(settings);
  });
  afterEach(() => {
    forget(notFound);
    forget(settings);
    act(() => setRenderMode('live'));
  });

  it('an unknown address shows the not-found screen, and stays as it was typed', async () => {
    vi.spyOn(notFound, 'load').mockResolvedValue(screenModule('Nothing here'));
    window.history.replaceState(null, '', '/no/such/page');
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(window.location.pathname).toBe('/no/such/page');
  });

  it('says it is loading while the screen code comes, then shows the screen', async () => {
    const load = deferred<{ default: ComponentType }>();
    vi.spyOn(notFound, 'load').mockReturnValue(load.promise);
    window.history.replaceState(null, '', '/404');
    render(<App />);
    expect(screen.getByText('Loading…').closest('[role="status"]')).not.toBeNull();
    await act(async () => load.resolve(screenModule('Nothing here')));
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('once the first screen is in: the app goes live, says so once, and starts the page at the top with a scroll key', async () => {
    vi.spyOn(notFound, 'load').mockResolvedValue(screenModule('Nothing here'));
    vi.spyOn(settings, 'load').mockResolvedValue(screenModule('Settings here'));
    const ready = vi.fn();
    window.addEventListener(SCREEN_READY_EVENT, ready);
    try {
      window.history.replaceState(null, '', '/404');
      window.scrollTo(0, 400);
      setRenderMode('static');
      render(<App />);
      await screen.findByRole('heading', { name: 'Nothing here' });
      await waitFor(() => expect(ready).toHaveBeenCalledTimes(1));
      expect(renderMode.value).toBe('live');
      expect(window.scrollY).toBe(0);
      expect((window.history.state as { scrollKey?: string } | null)?.scrollKey).toBeTruthy();

      act(() => navigate('/settings'));
      await screen.findByRole('heading', { name: 'Settings here' });
      expect(ready).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(SCREEN_READY_EVENT, ready);
    }
  });

  it("keeps the focus where it is on the page opened, and moves it to each new screen's heading after a navigation, back to the first one too", async () => {
    vi.spyOn(notFound, 'load').mockResolvedValue(screenModule('Nothing here'));
    vi.spyOn(settings, 'load').mockResolvedValue(screenModule('Settings here'));
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    window.history.replaceState(null, '', '/404');
    render(<App />);
    await screen.findByRole('heading', { name: 'Nothing here' });
    await act(async () => {});
    expect(focus).not.toHaveBeenCalled();

    act(() => navigate('/settings'));
    const heading = await screen.findByRole('heading', { name: 'Settings here' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // Focusing must not undo the scroll position the screen was given.
    expect(focus).toHaveBeenLastCalledWith({ preventScroll: true });
    expect(document.title).toBe('Settings | Circle');

    act(() => navigate('/404'));
    const first = await screen.findByRole('heading', { name: 'Nothing here' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(document.title).toBe('Page not found | Circle');
  });

  it('a screen without a heading is shown all the same after a navigation', async () => {
    vi.spyOn(notFound, 'load').mockResolvedValue(screenModule(null));
    vi.spyOn(settings, 'load').mockResolvedValue(screenModule('Settings here'));
    window.history.replaceState(null, '', '/settings');
    render(<App />);
    await screen.findByRole('heading', { name: 'Settings here' });
    act(() => navigate('/404'));
    expect(await screen.findByText('A screen without a heading')).toBeTruthy();
    expect(screen.queryByText('This screen stopped working')).toBeNull();
  });
});

/** A screen that throws while it renders, until told otherwise. */
const flaky = { broken: true };
function FlakyScreen() {
  if (flaky.broken) throw new Error('Cannot read properties of undefined');
  return <h1>Nothing here</h1>;
}

describe('<AppRouter> when a screen fails', () => {
  beforeEach(() => {
    forget(notFound);
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => {
    forget(notFound);
    act(() => setRenderMode('live'));
  });

  const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/NotFoundScreen-1a2b.js');

  it('code that could not be loaded: says to check the connection, goes live, and "Try again" loads it anew, however many times', async () => {
    const load = vi
      .spyOn(notFound, 'load')
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValue(screenModule('Nothing here'));
    window.history.replaceState(null, '', '/404');
    setRenderMode('static');
    render(<App />);

    expect(await screen.findByRole('heading', { name: 'This screen stopped working' })).toBeTruthy();
    expect(screen.getByText('This screen could not be loaded. Check your connection and try again.')).toBeTruthy();
    expect(renderMode.value).toBe('live');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('This screen could not be loaded. Check your connection and try again.');
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('a screen that broke while showing: says the other screens are safe, and "Try again" requests its code anew', async () => {
    flaky.broken = true;
    const load = vi.spyOn(notFound, 'load').mockResolvedValue({ default: FlakyScreen });
    window.history.replaceState(null, '', '/404');
    render(<App />);

    expect(await screen.findByRole('heading', { name: 'This screen stopped working' })).toBeTruthy();
    expect(screen.getByText('Something went wrong while showing this screen. Your other screens and saved drafts are safe.')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);

    flaky.broken = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Nothing here' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
