import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { RouteDef } from './app/routes';

/**
 * boot.tsx starts the app as it is imported: each test sets the scene (the page, the stored
 * preferences, what the modules it calls answer), then imports it afresh and watches what it does.
 * React renders for real into the page; the modules around it are stand-ins that record their calls.
 */
const h = await vi.hoisted(async () => {
  const { signal } = await import('@preact/signals-core');
  const react = await import('react');
  return {
    // The first screen's text, rendered by the stand-in App.
    appText: { current: 'Welcome to Circle' },
    createElement: react.createElement,
    // state/preference and i18n: what is stored, and the language shown.
    activeThemeName: signal('PURPLE_GREEN'),
    colorScheme: signal('system'),
    language: signal('de'),
    activeLanguage: signal('de'),
    isLoggedIn: signal(false),
    isInstalled: signal(false),
    canInstall: signal(false),
    appConfig: { logLevel: 1, defaultTheme: 'INDIGO_PINK' },
    loadConfig: vi.fn<() => Promise<unknown>>(),
    config: vi.fn(),
    setLogLevel: vi.fn(),
    applyConfiguredDefaults: vi.fn(),
    followLanguagePreference: vi.fn(),
    applyTheme: vi.fn(),
    loadLanguage: vi.fn<(lang: string) => Promise<void>>(),
    prefetchLanguages: vi.fn<() => Promise<unknown>>(),
    prefetchRoute: vi.fn<(route: unknown) => Promise<unknown>>(),
    prefetchRoutes: vi.fn(),
    shouldPrefetch: vi.fn<() => boolean>(),
    canHydrate: vi.fn<(mark: unknown, state: unknown) => boolean>(),
    firstRouteAt: vi.fn<(path: string, signedIn: boolean) => string | null>(),
    readPrerenderMark: vi.fn<(root: HTMLElement) => unknown>(),
    setRenderMode: vi.fn(),
    watchOnlineStatus: vi.fn(),
    watchInstallPrompt: vi.fn(),
    restoreSession: vi.fn(),
    loadMemberParts: vi.fn<() => Promise<void>>(),
    watchProfileOutbox: vi.fn(),
    registerServiceWorker: vi.fn(),
    stateHistory: vi.fn(),
    createRoot: vi.fn(),
    hydrateRoot: vi.fn(),
  };
});

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

const SCREEN_READY = 'circle:first-screen';
const MARK = { route: 'settings', language: 'en', theme: 'INDIGO_PINK', colorScheme: 'system' };

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

// The page's timers are fake in every test (the start's own delays are ten seconds long); the
// test's waiting is not.
const realSetTimeout = globalThis.setTimeout;

/** Lets pending promises and dynamic imports settle. */
const settle = () => new Promise((resolve) => realSetTimeout(resolve, 0));

/** Retries a check until it passes, on real time (vi.waitFor would move the fake clock on). */
async function until(check: () => void, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (failure) {
      if (Date.now() > end) throw failure;
      await new Promise((resolve) => realSetTimeout(resolve, 5));
    }
  }
}

let root: HTMLElement;
let error: MockInstance<typeof console.error>;

let started: Promise<void> | null = null;

/** main.tsx loads boot.tsx and starts it (and reports a failure: main.test.tsx). */
async function boot() {
  vi.resetModules();
  const { boot: start } = await import('./boot');
  started = start();
  // Whether it ends well is the test's to check; a failure is not left unhandled.
  started.catch(() => undefined);
}

/** Resolves once the app has started rendering into the page. */
async function rendered() {
  await until(() => expect(h.createRoot.mock.calls.length + h.hydrateRoot.mock.calls.length).toBe(1));
}

/** Starts the app and lets its work after the first screen run (the 1.5 s wait where there is no idle callback). */
async function bootPastFirstScreen() {
  await boot();
  await rendered();
  window.dispatchEvent(new Event(SCREEN_READY));
  vi.advanceTimersByTime(1500);
}

/** The screens whose code was asked for, in order. */
function prefetched() {
  return h.prefetchRoute.mock.calls.map(([route]) => (route as RouteDef).id);
}

function setPath(url: string) {
  window.history.replaceState(null, '', url);
}

function setServiceWorker(value: unknown) {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  for (const fn of Object.values(h)) if (vi.isMockFunction(fn)) fn.mockClear();
  h.appText.current = 'Welcome to Circle';
  h.activeThemeName.value = 'PURPLE_GREEN';
  h.colorScheme.value = 'system';
  h.language.value = 'de';
  h.activeLanguage.value = 'de';
  h.isLoggedIn.value = false;
  h.isInstalled.value = false;
  h.canInstall.value = false;
  h.config.mockReturnValue(h.appConfig);
  h.loadConfig.mockResolvedValue(h.appConfig);
  h.loadLanguage.mockResolvedValue(undefined);
  h.prefetchLanguages.mockResolvedValue(undefined);
  h.prefetchRoute.mockResolvedValue(undefined);
  h.loadMemberParts.mockResolvedValue(undefined);
  h.shouldPrefetch.mockReturnValue(true);
  h.canHydrate.mockReturnValue(false);
  h.firstRouteAt.mockReturnValue(null);
  h.readPrerenderMark.mockReturnValue(MARK);
  setPath('/settings');
  root = document.createElement('div');
  root.id = 'root';
  document.body.append(root);
  error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  // Each start ends its work after the first screen here, so none of it spills into the next test.
  window.dispatchEvent(new Event(SCREEN_READY));
  vi.runAllTimers();
  vi.useRealTimers();
  await settle();
  Reflect.deleteProperty(window, 'circleStateHistory');
  vi.unstubAllEnvs();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(window, 'requestIdleCallback');
  document.documentElement.removeAttribute('data-l10n-pending');
  document.documentElement.removeAttribute('data-account-pending');
});

describe('before anything renders', () => {
  it("applies the member's theme, colour scheme and language to the page, and follows them", async () => {
    document.documentElement.lang = 'en';
    await boot();
    expect(h.applyTheme).toHaveBeenLastCalledWith('PURPLE_GREEN', 'system');
    expect(document.documentElement.lang).toBe('de');
    h.activeThemeName.value = 'PINK_BLUEGREY';
    h.activeLanguage.value = 'fr';
    expect(h.applyTheme).toHaveBeenLastCalledWith('PINK_BLUEGREY', 'system');
    h.colorScheme.value = 'dark';
    expect(h.applyTheme).toHaveBeenLastCalledWith('PINK_BLUEGREY', 'dark');
    expect(document.documentElement.lang).toBe('fr');
    await rendered();
  });

  it("asks for the first screen's code at once, before the configuration is in, and for no other screen's", async () => {
    h.firstRouteAt.mockReturnValue('settings');
    const configured = deferred<unknown>();
    h.loadConfig.mockReturnValueOnce(configured.promise);
    await boot();
    expect(prefetched()).toEqual(['settings']);
    configured.resolve(h.appConfig);
    await rendered();
    expect(prefetched()).toEqual(['settings']);
  });

  it('asks for no screen when the path is none of the routes', async () => {
    await boot();
    await rendered();
    expect(h.prefetchRoute).not.toHaveBeenCalled();
  });

  it('watches the connection and the install offer, reads the configuration, then the language it leads to, once', async () => {
    const configured = deferred<unknown>();
    h.loadConfig.mockReturnValueOnce(configured.promise);
    await boot();
    expect(h.watchOnlineStatus).toHaveBeenCalledTimes(1);
    expect(h.watchInstallPrompt).toHaveBeenCalledTimes(1);
    expect(h.loadConfig).toHaveBeenCalledTimes(1);
    await settle();
    // The log level, the defaults and the language come from the configuration: nothing reads it before it is in.
    expect(h.setLogLevel).not.toHaveBeenCalled();
    expect(h.applyConfiguredDefaults).not.toHaveBeenCalled();
    expect(h.loadLanguage).not.toHaveBeenCalled();
    configured.resolve(h.appConfig);
    await rendered();
    expect(h.setLogLevel).toHaveBeenCalledWith(1);
    expect(h.applyConfiguredDefaults).toHaveBeenCalledWith(h.appConfig, navigator.languages);
    expect(h.loadLanguage.mock.calls).toEqual([['de']]);
  });

  it("waits for the language the defaults chose before the first render, then follows the member's choices", async () => {
    h.applyConfiguredDefaults.mockImplementation(() => {
      h.language.value = 'es';
    });
    const spanish = deferred();
    h.loadLanguage.mockImplementation((lang) => (lang === 'es' ? spanish.promise : Promise.resolve()));
    await boot();
    await until(() => expect(h.loadLanguage).toHaveBeenLastCalledWith('es'));
    await settle();
    expect(h.followLanguagePreference).not.toHaveBeenCalled();
    expect(h.createRoot).not.toHaveBeenCalled();
    spanish.resolve();
    await rendered();
    expect(h.followLanguagePreference).toHaveBeenCalledTimes(1);
    const order = (fn: { mock: { invocationCallOrder: number[] } }) => fn.mock.invocationCallOrder.at(-1) ?? 0;
    expect(order(h.applyConfiguredDefaults)).toBeLessThan(order(h.loadLanguage));
    expect(order(h.loadLanguage)).toBeLessThan(order(h.followLanguagePreference));
  });

  it('starts in the stored language when a catalogue cannot be loaded', async () => {
    h.loadLanguage.mockRejectedValue(new Error('offline'));
    await boot();
    await rendered();
    await until(() => expect(root.textContent).toBe('Welcome to Circle'));
    expect(h.loadLanguage).toHaveBeenCalledTimes(1);
    expect(error).not.toHaveBeenCalled();
  });

  it("restores a signed-in member's session beside the first render", async () => {
    h.isLoggedIn.value = true;
    await boot();
    await until(() => expect(h.restoreSession).toHaveBeenCalledTimes(1));
    await rendered();
  });

  it('restores no session for a visitor signed out', async () => {
    await boot();
    await rendered();
    await settle();
    expect(h.restoreSession).not.toHaveBeenCalled();
  });

  it("asks for a signed-in member's parts of the shell beside the first screen, and renders once they are in", async () => {
    h.isLoggedIn.value = true;
    const parts = deferred();
    h.loadMemberParts.mockReturnValue(parts.promise);
    await boot();
    expect(h.loadMemberParts).toHaveBeenCalledTimes(1);
    await settle();
    expect(h.createRoot).not.toHaveBeenCalled();
    parts.resolve();
    await rendered();
  });

  it("renders all the same when a member's parts of the shell do not load", async () => {
    h.isLoggedIn.value = true;
    h.loadMemberParts.mockRejectedValue(new Error('offline'));
    await boot();
    await rendered();
    await expect(started).resolves.toBeUndefined();
  });

  it("asks for no member's parts of the shell for a visitor signed out", async () => {
    await boot();
    await rendered();
    expect(h.loadMemberParts).not.toHaveBeenCalled();
  });
});

describe('the first render', () => {
  it('renders the app over a page it cannot hydrate, and ends the pre-paint marks', async () => {
    document.documentElement.setAttribute('data-l10n-pending', '');
    document.documentElement.setAttribute('data-account-pending', '');
    root.innerHTML = '<p>Prerendered in English</p>';
    await boot();
    await rendered();
    expect(h.createRoot).toHaveBeenCalledWith(root);
    expect(h.hydrateRoot).not.toHaveBeenCalled();
    expect(h.setRenderMode).not.toHaveBeenCalled();
    await until(() => expect(root.textContent).toBe('Welcome to Circle'));
    // The marks end in the first commit's effect, which runs after that commit is painted.
    await until(() => expect(document.documentElement.hasAttribute('data-l10n-pending')).toBe(false));
    expect(document.documentElement.hasAttribute('data-account-pending')).toBe(false);
    expect(window.location.pathname).toBe('/settings');
  });

  it('hydrates the prerendered page when the first render makes the same markup', async () => {
    h.canHydrate.mockReturnValue(true);
    root.innerHTML = '<p>Welcome to Circle</p>';
    const prerendered = root.firstChild;
    document.documentElement.setAttribute('data-l10n-pending', '');
    await boot();
    await rendered();
    expect(h.hydrateRoot).toHaveBeenCalledWith(root, expect.anything(), expect.anything());
    expect(h.createRoot).not.toHaveBeenCalled();
    expect(h.setRenderMode).toHaveBeenCalledWith('static');
    expect(h.setRenderMode.mock.invocationCallOrder[0]).toBeLessThan(h.hydrateRoot.mock.invocationCallOrder[0] ?? 0);
    await until(() => expect(document.documentElement.hasAttribute('data-l10n-pending')).toBe(false));
    // Hydrated, not rendered again: the prerendered element is the one on the page.
    expect(root.firstChild).toBe(prerendered);
    expect(error).not.toHaveBeenCalled();
  });

  it('says so when the prerendered page does not match its first render, and shows the app', async () => {
    h.canHydrate.mockReturnValue(true);
    root.innerHTML = '<p>Welcome to Circle</p>';
    h.appText.current = 'Willkommen bei Circle';
    await boot();
    await rendered();
    await until(() => expect(error).toHaveBeenCalledWith('Circle: the prerendered page did not match its first render', expect.anything()));
    await until(() => expect(root.textContent).toBe('Willkommen bei Circle'));
  });

  it("decides once the first screen's code is in, from what that render will show", async () => {
    h.firstRouteAt.mockReturnValue('settings');
    h.isInstalled.value = true;
    const screen = deferred<unknown>();
    h.prefetchRoute.mockImplementation((route) => ((route as RouteDef).id === 'settings' ? screen.promise : Promise.resolve()));
    await boot();
    await until(() => expect(prefetched()).toEqual(['settings']));
    expect(h.firstRouteAt).toHaveBeenCalledWith('/settings', false);
    await settle();
    expect(h.canHydrate).not.toHaveBeenCalled();
    // Read when the code is in, not before.
    h.activeThemeName.value = 'DEEPPURPLE_AMBER';
    screen.resolve(undefined);
    await rendered();
    expect(h.readPrerenderMark).toHaveBeenCalledWith(root);
    expect(h.canHydrate).toHaveBeenCalledWith(MARK, {
      path: '/settings',
      search: '',
      language: 'de',
      theme: 'DEEPPURPLE_AMBER',
      colorScheme: 'system',
      signedIn: false,
      online: navigator.onLine,
      installed: true,
      installable: false,
    });
  });

  it("reads a signed-in member's first screen, installable", async () => {
    h.isLoggedIn.value = true;
    h.canInstall.value = true;
    await boot();
    await rendered();
    expect(h.firstRouteAt).toHaveBeenCalledWith('/settings', true);
    expect(h.canHydrate).toHaveBeenCalledWith(MARK, expect.objectContaining({ signedIn: true, installed: false, installable: true }));
  });

  it('goes from / to /home at once, keeping the query, the fragment and the history state', async () => {
    window.history.replaceState({ from: 'mail' }, '', '/?ref=mail#top');
    await boot();
    await rendered();
    expect(window.location.pathname).toBe('/home');
    expect(window.location.search).toBe('?ref=mail');
    expect(window.location.hash).toBe('#top');
    expect(window.history.state).toEqual({ from: 'mail' });
    expect(h.firstRouteAt).toHaveBeenCalledWith('/home', false);
  });
});

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

describe('an app that cannot start', () => {
  it('ends with the reason (main.tsx reports it), and renders nothing', async () => {
    const failure = new Error('no configuration');
    h.loadConfig.mockRejectedValue(failure);
    root.innerHTML = '<p>Prerendered</p>';
    await boot();
    await expect(started).rejects.toBe(failure);
    expect(h.createRoot).not.toHaveBeenCalled();
    expect(h.hydrateRoot).not.toHaveBeenCalled();
    expect(root.textContent).toBe('Prerendered');
  });

  it("ends with the first screen's code that does not load, and renders nothing", async () => {
    const failure = new Error('chunk');
    h.firstRouteAt.mockReturnValue('settings');
    h.prefetchRoute.mockRejectedValue(failure);
    await boot();
    await expect(started).rejects.toBe(failure);
    expect(h.createRoot).not.toHaveBeenCalled();
    expect(h.hydrateRoot).not.toHaveBeenCalled();
  });
});
