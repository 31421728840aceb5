/**
 * What the start's tests share. boot.tsx starts the app as it is imported: each test sets the scene
 * (the page, the stored preferences, what the modules it calls answer), then imports it afresh and
 * watches what it does. React renders for real into the page; the modules around it are stand-ins
 * that record their calls, kept in `h`.
 *
 * A test file hands the stand-ins to vi.mock itself, before anything imports the start:
 *   const { h } = await vi.hoisted(() => import('./boot.test-support'));
 *   vi.mock('./config/load', () => ({ config: h.config, loadConfig: h.loadConfig }));
 * So this module imports none of the modules they stand in for.
 */
import { afterEach, beforeEach, expect, type MockInstance, vi } from 'vitest';
import { signal } from '@preact/signals-core';
import { createElement } from 'react';
import type { RouteDef } from './app/routes';

export const h = {
  // The first screen's text, rendered by the stand-in App.
  appText: { current: 'Welcome to Circle' },
  createElement,
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

export const SCREEN_READY = 'circle:first-screen';
export const MARK = { route: 'settings', language: 'en', theme: 'INDIGO_PINK', colorScheme: 'system' };

export function deferred<T = void>() {
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
export const settle = () => new Promise((resolve) => realSetTimeout(resolve, 0));

/** Retries a check until it passes, on real time (vi.waitFor would move the fake clock on). */
export async function until(check: () => void, timeoutMs = 3000) {
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

export let root: HTMLElement;
export let error: MockInstance<typeof console.error>;

export let started: Promise<void> | null = null;

/** main.tsx loads boot.tsx and starts it (and reports a failure: main.test.tsx). */
export async function boot() {
  vi.resetModules();
  const { boot: start } = await import('./boot');
  started = start();
  // Whether it ends well is the test's to check; a failure is not left unhandled.
  started.catch(() => undefined);
}

/** Resolves once the app has started rendering into the page. */
export async function rendered() {
  await until(() => expect(h.createRoot.mock.calls.length + h.hydrateRoot.mock.calls.length).toBe(1));
}

/** Starts the app and lets its work after the first screen run (the 1.5 s wait where there is no idle callback). */
export async function bootPastFirstScreen() {
  await boot();
  await rendered();
  window.dispatchEvent(new Event(SCREEN_READY));
  vi.advanceTimersByTime(1500);
}

/** The screens whose code was asked for, in order. */
export function prefetched() {
  return h.prefetchRoute.mock.calls.map(([route]) => (route as RouteDef).id);
}

export function setPath(url: string) {
  window.history.replaceState(null, '', url);
}

export function setServiceWorker(value: unknown) {
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value });
}

/** Every test starts on a fresh page with the stand-ins' answers set, the clock fake, and ends the start's work. */
export function resetBetweenTests(): void {
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
}
