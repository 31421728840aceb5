import { StrictMode, startTransition, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { effect } from '@preact/signals-core';
import { App } from './app/App';
import { SCREEN_READY_EVENT } from './app/AppRouter';
import { config, loadConfig } from './config/load';
import { setLogLevel } from './lib/logger';
import { activeThemeName, applyConfiguredDefaults, colorScheme, followLanguagePreference, language } from './state/preference';
import { isLoggedIn } from './state/auth';
import { applyTheme } from './ui/theme';
import { activeLanguage, loadLanguage, prefetchLanguages } from './i18n';
import { prefetchRoute, prefetchRoutes, shouldPrefetch } from './app/lazy-routes';
import { loadMemberParts } from './app/layouts/member-shell';
import { canHydrate, firstRouteAt, readPrerenderMark } from './app/hydration';
import { setRenderMode } from './state/render-mode';
import { routeById } from './app/routes';
import { canInstall, isInstalled } from './state/app';
import { watchOnlineStatus } from './pwa/online';
import { watchInstallPrompt } from './pwa/install';
import { loadSession } from './session';
import { loadOutboxWatch } from './profile';

declare const __DEV_MOCKS__: boolean;

function whenIdle(work: () => void) {
  if ('requestIdleCallback' in window) requestIdleCallback(work, { timeout: 4000 });
  else setTimeout(work, 1500);
}

/**
 * The app's start, called by main.tsx (which reports a failure). Each chunk of the start is asked
 * for here once: the first screen's code at once, beside the configuration and the language.
 */
export async function boot(): Promise<void> {
  // The theme is applied before anything renders, so there is no flash of the default one.
  effect(() => applyTheme(activeThemeName.value, colorScheme.value));
  effect(() => {
    document.documentElement.lang = activeLanguage.value;
  });
  // The app redirects / to home on its first render, replacing the entry: done now, home.html hydrates.
  if (window.location.pathname === '/') {
    window.history.replaceState(window.history.state, '', `/home${window.location.search}${window.location.hash}`);
  }
  // Stryker disable next-line StringLiteral: no route has the empty id, nor any other text put in its place
  const first = routeById(firstRouteAt(window.location.pathname, isLoggedIn.value) ?? '');
  const firstScreen = first ? prefetchRoute(first) : Promise.resolve();
  // A member's top bar has their menu, whose code is theirs alone: asked for beside the screen's.
  const accountCode = isLoggedIn.value ? loadMemberParts() : Promise.resolve();
  // Awaited below, once config and language are in; marked handled now, so a failure is not also
  // reported as unhandled in the meantime.
  firstScreen.catch(() => undefined);
  accountCode.catch(() => undefined);
  watchOnlineStatus();
  watchInstallPrompt();
  // The dev server starts its mock API before this module loads (vite.config.ts, mockApiInDev).
  if (__DEV_MOCKS__) {
    // Debugging aid in development only: the last state changes, from the console.
    const { stateHistory } = await import('./state/history');
    (window as unknown as { circleStateHistory: typeof stateHistory }).circleStateHistory = stateHistory;
  }
  await loadConfig();
  setLogLevel(config().logLevel);
  // A first visit gets the deployment's language (unset, the browser's) and theme; the first
  // render waits for that language's catalogue, so a first visit does not flash another one.
  applyConfiguredDefaults(config(), navigator.languages);
  await loadLanguage(language.value).catch(() => undefined);
  // A language chosen later loads its catalogue then.
  followLanguagePreference();
  // The member's session is read back from IndexedDB (and renewed if it must be) beside the first render.
  if (isLoggedIn.value) void loadSession().then((m) => m.restoreSession());

  // Once the first render is idle ("stable"): the service worker, then the other screens' code.
  const whenStable = () =>
    whenIdle(() => {
      prefetchRoutes();
      // With the worker in control, every language's catalogue too: it keeps them for offline use.
      if (navigator.serviceWorker?.controller && shouldPrefetch()) void prefetchLanguages();
      // A profile save queued offline in an earlier visit goes out now, or when back online.
      void loadOutboxWatch().then((outbox) => outbox.watchProfileOutbox());
      if (!__DEV_MOCKS__ && import.meta.env.PROD) void import('./pwa/register').then((m) => m.registerServiceWorker());
    });
  // Stable: the first screen has rendered (its own code and data come first), and the page is idle.
  let stable = false;
  const onStable = () => {
    if (stable) return;
    stable = true;
    whenStable();
  };
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: a listener left in place finds onStable's work done, and does nothing
  window.addEventListener(SCREEN_READY_EVENT, onStable, { once: true });
  // A first screen that never renders (a broken chunk) must not keep the worker away for good.
  setTimeout(onStable, 10_000);

  await firstScreen;
  // Without it (offline before the worker had it) the top bar has no menu until the shell's next try.
  await accountCode.catch(() => undefined);
  renderApp(document.getElementById('root')!);
}

/**
 * The pre-paint script's marks end with the first commit: the member's own screen is in. (A
 * hydration goes live once its screen is hydrated too: app/AppRouter.tsx.)
 */
function Live() {
  // Stryker disable ArrayDeclaration: any constant list of dependencies runs the effect once per mount alike
  useEffect(() => {
    document.documentElement.removeAttribute('data-l10n-pending');
    document.documentElement.removeAttribute('data-account-pending');
  }, []);
  // Stryker restore ArrayDeclaration
  return null;
}

/**
 * Hydrates the prerendered page when the first render makes the same markup, else renders over it
 * (see app/hydration.ts). Either way the first screen's code is in first (boot waits for it), so
 * that render is the screen itself, not a loading state in place of what the HTML already shows.
 */
function renderApp(root: HTMLElement) {
  // Read once the code is in: what the first render will show, now.
  const state = {
    path: window.location.pathname,
    search: window.location.search,
    language: activeLanguage.value,
    theme: activeThemeName.value,
    colorScheme: colorScheme.value,
    signedIn: isLoggedIn.value,
    online: navigator.onLine,
    installed: isInstalled.value,
    installable: canInstall.value,
  };
  const app = (
    <StrictMode>
      <App />
      <Live />
    </StrictMode>
  );
  // In a transition: React renders (or hydrates) in slices and yields to the browser between them,
  // instead of one long task; the page is already painted from its HTML meanwhile.
  if (canHydrate(readPrerenderMark(root), state)) {
    setRenderMode('static');
    startTransition(() => {
      hydrateRoot(root, app, {
        onRecoverableError: (error) => console.error('Circle: the prerendered page did not match its first render', error),
      });
    });
  } else {
    const reactRoot = createRoot(root);
    startTransition(() => reactRoot.render(app));
  }
}
