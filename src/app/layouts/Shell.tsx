import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../ui/icons';
import { MainNav } from './NavLinks';
import { mediaMatches } from '../../lib/media';
import { config } from '../../config/load';
import type { LayoutKind } from '../routes';
import { t } from '../../i18n';
import { Snackbar } from '../../ui/snackbar/Snackbar';
import { OnlineStatus } from '../../pwa/OnlineStatus';
import { InstallButton } from '../../pwa/InstallButton';
import { isLoggedIn } from '../../state/auth';
import { renderMode } from '../../state/render-mode';
import { log } from '../../lib/logger';
import { loadMemberParts, memberParts } from './member-shell';

// A signed-in member's bell, with the inbox's model: loaded once someone is signed in.
const NotificationBell = lazy(() => import('./NotificationBell'));

// Under the mobile breakpoint only the icon shows (the label stays the accessible name).
const ACTION = 'button button--tonal button--small topbar__action';

/** The signed-in member's menu, or the way in (coming back to this screen afterwards). */
function Account({ location }: { location: string }) {
  const signedIn = isLoggedIn.value;
  const parts = memberParts.value;
  // A visit that starts signed in has the menu's code before its first render (boot.tsx); a
  // sign-in during the visit loads it now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: signedIn is the trigger: a member signed in needs the menu.
  useEffect(() => {
    if (signedIn) loadMemberParts().catch((error: unknown) => log.warn('The account menu could not be loaded', error));
  }, [signedIn]);
  if (!signedIn) {
    // The sign-in screen and the provider's way back are no place to return to.
    const next = /^\/(sign-in|auth\/)/.test(location) ? '' : `?next=${encodeURIComponent(location)}`;
    return (
      <Link href={`/sign-in${next}`} className={ACTION} aria-label={t('nav.signIn')}>
        <Icon name="signIn" />
        <span>{t('nav.signIn')}</span>
      </Link>
    );
  }
  return parts && <parts.AccountMenu />;
}

/** The admin's collections (the admin screens are a signed-in member's: their code is in by then). */
function Admin() {
  const parts = memberParts.value;
  return parts && <parts.AdminNav />;
}

// The phone's drawer: not part of the first load, whose tab bar has the main places.
const ModalDrawer = lazy(() => import('./ModalDrawer'));

/**
 * The layout shell: a top bar, and the navigation drawer, beside the content on wide windows and
 * modal under the mobile breakpoint, on every layout, with a tab bar of the main places on phones. home: wide
 * content for the welcome. sidenav: a column of content. dashboard: a card grid. admin: the admin
 * menu in the drawer and a data table area.
 */
export function Shell({ layout, children }: { layout: LayoutKind; children: ReactNode }) {
  // Below the configured breakpoint (599px by default) the drawer becomes modal. Prerendered, the
  // width is unknown: both variants are in the HTML and the stylesheet shows the one that fits.
  const breakpoint = `(max-width: ${config().mobileBreakpoint}px)`;
  const mobile = renderMode.value === 'static' ? null : mediaMatches(breakpoint).value;
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: location is the trigger: following a link closes the modal drawer.
  useEffect(() => setOpen(false), [location]);
  // The side drawer on wide windows; on phones, the tab bar and the menu button's modal drawer.
  const persistentDrawer = mobile !== true;
  const only = (narrow: boolean) => (mobile === null ? (narrow ? ' only-narrow' : ' only-wide') : '');

  return (
    <div className={`app app--${layout}`}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <header className="topbar">
        {mobile !== false && (
          <button
            type="button"
            className={`icon-button topbar__menu${only(true)}`}
            // Prerendered (and while hydrating), the drawer it opens is not there yet: a press would go nowhere.
            // Once the app runs, a press opens it, as soon as its code is in.
            disabled={mobile === null}
            aria-label={t('nav.openMenu')}
            aria-expanded={open}
            onClick={() => setOpen(true)}
          >
            <Icon name="menu" />
          </button>
        )}
        <Link href="/home" className="topbar__brand">
          {/* The logo drawn in the bar's colours: the file's indigo tile (public/logo.svg, the app's
              icon) read as a blue tile on another theme's bar. */}
          <svg className="topbar__logo" viewBox="0 0 512 512" width="32" height="32" aria-hidden="true" focusable="false">
            <circle cx="256" cy="256" r="150" fill="none" stroke="currentColor" strokeWidth="44" />
            <circle className="topbar__logo-dot" cx="256" cy="106" r="40" />
            <circle cx="386" cy="331" r="40" fill="currentColor" />
            <circle cx="126" cy="331" r="40" fill="currentColor" />
          </svg>
          <span>{t('app.name')}</span>
        </Link>
        {/* Before the spacer: when the browser offers installation late, nothing else moves. */}
        <InstallButton compact />
        <span className="topbar__spacer" />
        <OnlineStatus />
        {isLoggedIn.value && (
          <Suspense fallback={null}>
            <NotificationBell />
          </Suspense>
        )}
        <span className="topbar__account">
          <Account location={location} />
        </span>
      </header>
      <div className="shell">
        {persistentDrawer && (
          <aside className={`drawer drawer--side${only(false)}`}>
            <div className="drawer__sticky">
              <nav aria-label={t('nav.main')}>
                <MainNav variant="drawer" />
              </nav>
              {layout === 'admin' && <Admin />}
            </div>
          </aside>
        )}
        <main id="main" className={`content content--${layout}`} tabIndex={-1}>
          {children}
        </main>
      </div>
      {/* On phones the main places are also a tab bar at the bottom, in the thumb's reach (the
          stylesheet shows it under the breakpoint only); the menu's drawer keeps them with the
          layout's own, the admin's collections. */}
      {mobile !== false && (
        <nav className="tabbar" aria-label={t('nav.main')}>
          <MainNav variant="bar" />
        </nav>
      )}
      {mobile && (
        <Suspense fallback={null}>
          <ModalDrawer layout={layout} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
      <Snackbar />
    </div>
  );
}
