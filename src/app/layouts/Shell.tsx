import { useEffect, useState, type ReactNode } from 'react';
import { useModalDialog } from '../../ui/widgets/useModalDialog';
import { Link, useLocation } from 'wouter';
import { Icon } from '../../ui/icons';
import { AdminNav, MainNav } from './NavLinks';
import { mediaMatches } from '../../lib/media';
import { config } from '../../config/load';
import type { LayoutKind } from '../routes';
import { t } from '../../i18n';
import { Snackbar } from '../../ui/snackbar/Snackbar';
import { OnlineStatus } from '../../pwa/OnlineStatus';
import { InstallButton } from '../../pwa/InstallButton';
import { isLoggedIn, member } from '../../state/auth';
import { fetchProfile, memberName, profile, profileLoading } from '../../profile';
import { Avatar } from '../../ui/widgets/Avatar';
import { renderMode } from '../../state/render-mode';
import { loadSession } from '../../session';

// Under the mobile breakpoint only the icon shows (the label stays the accessible name).
const ACTION = 'button button--tonal button--small topbar__action';

/** The signed-in member's menu, or the way in (coming back to this screen afterwards). */
function Account({ location }: { location: string }) {
  if (!isLoggedIn.value) {
    // The sign-in screen and the provider's way back are no place to return to.
    const next = /^\/(sign-in|auth\/)/.test(location) ? '' : `?next=${encodeURIComponent(location)}`;
    return (
      <Link href={`/sign-in${next}`} className={ACTION} aria-label={t('nav.signIn')}>
        <Icon name="signIn" />
        <span>{t('nav.signIn')}</span>
      </Link>
    );
  }
  return <AccountMenu />;
}

const ACCOUNT_MENU = 'account-menu';
const closeAccountMenu = () => document.getElementById(ACCOUNT_MENU)?.hidePopover?.();
// The profile is read once per visit and member for the top bar, unless a screen reads it first:
// the name and avatar kept from the last visit may have changed on another device.
let askedFor: string | undefined;

/**
 * The signed-in member at every width: their avatar (and name, where there is room) opens a small
 * panel with who they are, their profile and the way out. One name for one person: the profile's
 * display name once there is a profile (the last one seen, while it is read again), else the name
 * the provider gave. A native popover: it closes on Escape or a click elsewhere, and returns focus.
 */
function AccountMenu() {
  const who = member.value;
  const own = profile.value;
  const name = memberName.value;
  const subject = who?.subject;
  useEffect(() => {
    // A screen that reads the profile itself (home, profile) has started already.
    if (!subject || askedFor === subject || profileLoading.peek()) return;
    askedFor = subject;
    fetchProfile().catch(() => undefined);
  }, [subject]);
  // Loaded only now: it clears the member's data at once (this menu goes), revokes the session
  // and goes to the provider's sign-out page.
  const signOut = (everywhere: boolean) => {
    closeAccountMenu();
    void loadSession().then((session) => session.endSession(everywhere));
  };
  return (
    <>
      <button type="button" className="account-button" popoverTarget={ACCOUNT_MENU}>
        {/* Named in words ("Account: Ada"), which hold the name shown; the picture, the initials and
            the name shown (hidden on phones) would only repeat it. */}
        <span className="visually-hidden">{t('nav.account', { name })}</span>
        <span className="account-button__avatar">
          <Avatar name={name} url={own?.avatar} size={32} decorative />
        </span>
        <span className="account-button__name" aria-hidden="true">
          {name}
        </span>
      </button>
      <div id={ACCOUNT_MENU} popover="auto" className="account-menu">
        <div className="account-menu__who">
          <Avatar name={name} url={own?.avatar} size={48} decorative />
          <p>
            <strong>{name}</strong>
            {(own?.email ?? who?.email) && <span className="muted">{own?.email ?? who?.email}</span>}
          </p>
        </div>
        <ul className="nav-list">
          <li>
            <Link href="/profile" className="nav-link" onClick={closeAccountMenu}>
              <Icon name="profile" />
              <span>{t('nav.yourProfile')}</span>
            </Link>
          </li>
          {(['nav.signOut', 'nav.signOutEverywhere'] as const).map((label, everywhere) => (
            <li key={label}>
              <button type="button" className="nav-link" onClick={() => signOut(everywhere === 1)}>
                <Icon name="signOut" />
                <span>{t(label)}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

function ModalDrawer({ layout, open, onClose }: { layout: LayoutKind; open: boolean; onClose: () => void }) {
  const ref = useModalDialog(open);
  // Closed at once, before the route changes: while the modal is open the page is inert, and
  // the new screen could not take focus.
  const closeForNavigation = () => {
    // Stryker disable next-line OptionalChaining: the drawer's links can only be followed while its dialog is mounted, so the ref is set
    ref.current?.close();
    // Stryker disable next-line CallExpression: closing the dialog fires its close event, whose handler is this same onClose
    onClose();
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only a pointer can hit the backdrop; the keyboard closes the dialog with Escape, natively.
    <dialog
      ref={ref}
      className="drawer drawer--modal"
      aria-label={t('nav.main')}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="drawer__inner">
        <button type="button" className="icon-button drawer__close" aria-label={t('nav.closeMenu')} onClick={onClose}>
          <Icon name="close" />
        </button>
        <nav aria-label={t('nav.main')}>
          <MainNav variant="drawer" onNavigate={closeForNavigation} />
        </nav>
        {layout === 'admin' && <AdminNav onNavigate={closeForNavigation} />}
      </div>
    </dialog>
  );
}

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
              {layout === 'admin' && <AdminNav />}
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
      {mobile && <ModalDrawer layout={layout} open={open} onClose={() => setOpen(false)} />}
      <Snackbar />
    </div>
  );
}
