import { describe, expect, it, vi } from 'vitest';
import type { RouteDef } from './app/routes';
import { MARK, deferred, settle, until, root, error, started, boot, rendered, prefetched, resetBetweenTests } from './boot.test-support';

/**
 * The start up to the first render and through it: what is applied and asked for before anything
 * renders, rendering or hydrating the page, and an app that cannot start.
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
