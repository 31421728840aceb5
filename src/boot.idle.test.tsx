import { describe, expect, it, vi } from 'vitest';
import { SCREEN_READY, settle, until, boot, rendered, bootPastFirstScreen, setServiceWorker, resetBetweenTests } from './boot.test-support';

/**
 * The work once the first screen is in: the other screens, the outbox, the catalogues and the
 * service worker when the page is idle; and the development mocks.
 */
const { h } = await vi.hoisted(() => import('./boot.test-support'));

vi.mock('react-dom/client', async (importOriginal) => {
  const actual = await importOriginal<typeof import('react-dom/client')>();
  // Recorded, and rendering for real: the test sees both the calls and the page.
  h.createRoot.mockImplementation(actual.createRoot);
  h.hydrateRoot.mockImplementation(actual.hydrateRoot);
  return { ...actual, createRoot: h.createRoot, hydrateRoot: h.hydrateRoot };
});
vi.mock('./app/App', () => ({ App: () => h.createElement('p', null, h.appText.current) }));
vi.mock('./app/AppRouter', () => ({ SCREEN_READY_EVENT: 'circle:first-screen' }));
vi.mock('./config/load', () => ({ config: h.config, loadConfig: h.loadConfig }));
vi.mock('./lib/logger', () => ({ setLogLevel: h.setLogLevel }));
vi.mock('./state/preference', () => ({
  activeThemeName: h.activeThemeName,
  colorScheme: h.colorScheme,
  language: h.language,
  applyConfiguredDefaults: h.applyConfiguredDefaults,
  followLanguagePreference: h.followLanguagePreference,
}));
vi.mock('./state/auth', () => ({ isLoggedIn: h.isLoggedIn }));
vi.mock('./ui/theme', () => ({ applyTheme: h.applyTheme }));
vi.mock('./i18n', () => ({ activeLanguage: h.activeLanguage, loadLanguage: h.loadLanguage, prefetchLanguages: h.prefetchLanguages }));
vi.mock('./app/lazy-routes', () => ({
  prefetchRoute: h.prefetchRoute,
  prefetchRoutes: h.prefetchRoutes,
  shouldPrefetch: h.shouldPrefetch,
}));
vi.mock('./app/hydration', () => ({ canHydrate: h.canHydrate, firstRouteAt: h.firstRouteAt, readPrerenderMark: h.readPrerenderMark }));
vi.mock('./state/render-mode', () => ({ setRenderMode: h.setRenderMode }));
vi.mock('./state/app', () => ({ canInstall: h.canInstall, isInstalled: h.isInstalled }));
vi.mock('./pwa/online', () => ({ watchOnlineStatus: h.watchOnlineStatus }));
vi.mock('./pwa/install', () => ({ watchInstallPrompt: h.watchInstallPrompt }));
vi.mock('./session', () => ({ loadSession: async () => ({ restoreSession: h.restoreSession }) }));
vi.mock('./app/layouts/member-shell', () => ({ loadMemberParts: h.loadMemberParts }));
vi.mock('./profile/outbox-watch', () => ({ watchProfileOutbox: h.watchProfileOutbox }));
vi.mock('./pwa/register', () => ({ registerServiceWorker: h.registerServiceWorker }));
vi.mock('./state/history', () => ({ stateHistory: h.stateHistory }));

resetBetweenTests();

describe('once the first screen is in', () => {
  it('when the page is idle: the other screens, the outbox; no worker outside a build', async () => {
    const idle = vi.fn();
    vi.stubGlobal('requestIdleCallback', idle);
    await boot();
    await rendered();
    expect(idle).not.toHaveBeenCalled();
    window.dispatchEvent(new Event(SCREEN_READY));
    expect(idle).toHaveBeenCalledWith(expect.any(Function), { timeout: 4000 });
    expect(h.prefetchRoutes).not.toHaveBeenCalled();
    idle.mock.calls[0]![0]();
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
    await until(() => expect(h.watchProfileOutbox).toHaveBeenCalledTimes(1));
    expect(h.registerServiceWorker).not.toHaveBeenCalled();
    // Without a worker in control, no catalogue is fetched ahead.
    expect(h.prefetchLanguages).not.toHaveBeenCalled();
    // The ten-second fallback finds the work done.
    vi.advanceTimersByTime(10_000);
    expect(idle).toHaveBeenCalledTimes(1);
  });

  it('where the browser has no idle callback: a second and a half after the first screen', async () => {
    await boot();
    await rendered();
    window.dispatchEvent(new Event(SCREEN_READY));
    vi.advanceTimersByTime(1499);
    expect(h.prefetchRoutes).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
    await until(() => expect(h.watchProfileOutbox).toHaveBeenCalledTimes(1));
  });

  it('a first screen that never says it rendered holds the work back ten seconds at most', async () => {
    await boot();
    await rendered();
    vi.advanceTimersByTime(9999 + 1500);
    expect(h.prefetchRoutes).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
    // The screen coming in late starts nothing again.
    window.dispatchEvent(new Event(SCREEN_READY));
    vi.advanceTimersByTime(10_000);
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
  });

  it("with the worker in control, every language's catalogue, for offline use", async () => {
    setServiceWorker({ controller: {} });
    await bootPastFirstScreen();
    expect(h.prefetchLanguages).toHaveBeenCalledTimes(1);
  });

  it('no catalogue ahead on a connection that should not prefetch', async () => {
    setServiceWorker({ controller: {} });
    h.shouldPrefetch.mockReturnValue(false);
    await bootPastFirstScreen();
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
    expect(h.prefetchLanguages).not.toHaveBeenCalled();
  });

  it('no catalogue ahead while no worker controls the page yet', async () => {
    setServiceWorker({ controller: null });
    await bootPastFirstScreen();
    expect(h.prefetchRoutes).toHaveBeenCalledTimes(1);
    expect(h.prefetchLanguages).not.toHaveBeenCalled();
  });

  it('a build registers the service worker, once the page is idle', async () => {
    vi.stubEnv('PROD', true);
    await boot();
    await rendered();
    window.dispatchEvent(new Event(SCREEN_READY));
    await settle();
    expect(h.registerServiceWorker).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1500);
    await until(() => expect(h.registerServiceWorker).toHaveBeenCalledTimes(1));
  });
});

describe('with the development mocks', () => {
  it('leave the worker out, and offer the state history in the console', async () => {
    vi.stubGlobal('__DEV_MOCKS__', true);
    vi.stubEnv('PROD', true);
    await boot();
    await rendered();
    expect((window as unknown as { circleStateHistory: unknown }).circleStateHistory).toBe(h.stateHistory);
    window.dispatchEvent(new Event(SCREEN_READY));
    vi.advanceTimersByTime(1500);
    await until(() => expect(h.watchProfileOutbox).toHaveBeenCalledTimes(1));
    expect(h.registerServiceWorker).not.toHaveBeenCalled();
  });

  it('are not started otherwise', async () => {
    await boot();
    await rendered();
    expect('circleStateHistory' in window).toBe(false);
  });
});
