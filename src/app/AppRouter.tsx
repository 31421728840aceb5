import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Redirect, Route, useLocation, useRouter, useSearch } from 'wouter';
import { breadcrumbsFor, resolvePath, routerStateFor } from './resolve-route';
import { lazyScreen, forget } from './lazy-routes';
import { buildTitle } from './title';
import { applyScroll } from './scroll';
import { Shell } from './layouts/Shell';
import { ErrorBoundary } from './ErrorBoundary';
import { activeLanguage, t } from '../i18n';
import { setRouterState } from '../state/router';
import { setRenderMode } from '../state/render-mode';
import { isLoggedIn } from '../state/auth';
import { config } from '../config/load';
import { NOT_FOUND_PATH, type RouteDef } from './routes';

/** Fired once, when the first screen has rendered with its code: the app is "stable" from then on. */
export const SCREEN_READY_EVENT = 'circle:first-screen';

export function Loading() {
  return (
    // A screen's skeleton (a heading, a few lines) while its code comes.
    <div className="screen-loading skeleton skeleton--screen" role="status">
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}

function ScreenFailed({ error, retry }: { error: Error; retry: () => void }) {
  // No screen will say it is ready: the app is live all the same.
  // Stryker disable next-line ArrayDeclaration: a list holding only a constant never changes either, so the effect still runs once
  useEffect(() => setRenderMode('live'), []);
  const chunk = /dynamically imported module|Importing a module script failed|error loading/i.test(error.message);
  return (
    <section className="screen screen--error" aria-labelledby="screen-error-title">
      <h1 id="screen-error-title">{t('app.crashed.title')}</h1>
      <p>{chunk ? t('app.chunkFailed') : t('app.crashed.body')}</p>
      <button type="button" className="button button--filled" onClick={retry}>
        {t('app.crashed.retry')}
      </button>
    </section>
  );
}

/** Renders a screen once its code is in, then restores scroll and moves focus to its heading. */
function ScreenReady({ onReady }: { onReady: () => void }) {
  // Stryker disable ArrayDeclaration: a list holding only a constant never changes either, so the effect still runs once per mount
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per location (the element is keyed by it), after the screen's first commit.
  useLayoutEffect(() => onReady(), []);
  // Stryker restore ArrayDeclaration
  return null;
}

function RouteView({ route, params }: { route: RouteDef; params: Record<string, string> }) {
  const [location] = useLocation();
  // Bumped by "Try again", so the screen's code is requested anew.
  const [, setAttempt] = useState(0);
  const search = useSearch();
  const Screen = lazyScreen(route);
  // Read here so this component re-renders on a language change: the title is translated too.
  void activeLanguage.value;
  const breadcrumbs = breadcrumbsFor(route, params, t);
  const title = buildTitle(breadcrumbs, config().appTitle);
  const firstRender = useRef(true);
  // The page the app opened on; any other location was reached by navigating.
  const startLocation = useRef(location);
  const navigatedOnce = useRef(false);

  useEffect(() => {
    document.title = title;
  }, [title]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: breadcrumbs derive from route, params and language, and title captures all three; search is the trigger (useSearch() gives it decoded, the raw one is parsed once, by URLSearchParams).
  useEffect(() => {
    setRouterState(routerStateFor(location, window.location.search, route, params, breadcrumbs));
  }, [location, search, route, title]);

  const onReady = () => {
    // A prerendered page is hydrated now, the screen's boundary included: render what only the
    // browser knows (before, the screen's own part might still have been hydrating).
    setRenderMode('live');
    applyScroll(window.location.hash);
    if (firstRender.current) {
      firstRender.current = false;
      window.dispatchEvent(new Event(SCREEN_READY_EVENT));
    }
    // After an in-app navigation (even one made before the first screen showed), focus lands on
    // the new screen's heading for screen-reader users. The page opened on keeps the focus as is.
    if (window.location.pathname !== startLocation.current || navigatedOnce.current) {
      navigatedOnce.current = true;
      document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
    }
  };

  return (
    <Shell layout={route.layout}>
      <ErrorBoundary
        resetKey={location}
        onRetry={() => {
          forget(route);
          // Stryker disable next-line ArithmeticOperator: counting down changes the state at each retry just as well, which is all the re-render needs
          setAttempt((n) => n + 1);
        }}
        fallback={(error, retry) => <ScreenFailed error={error} retry={retry} />}
      >
        <Suspense fallback={<Loading />}>
          {/* The matching <Route> hands the screen its params (useParams), parents' included; the
              not-found screen shows at whatever path was asked for, and has none. */}
          {route.path === NOT_FOUND_PATH ? (
            <Screen />
          ) : (
            <Route path={route.path}>
              <Screen />
            </Route>
          )}
          <ScreenReady key={location} onReady={onReady} />
        </Suspense>
      </ErrorBoundary>
    </Shell>
  );
}

export function AppRouter() {
  const router = useRouter();
  const [location] = useLocation();
  const resolution = resolvePath(router.parser, location);
  if (resolution.kind === 'redirect') return <Redirect to={resolution.to} replace />;
  if (resolution.route.requiresAuth && !isLoggedIn.value) {
    return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} replace />;
  }
  return <RouteView route={resolution.route} params={resolution.params} />;
}
