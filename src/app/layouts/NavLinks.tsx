import { Link, useLocation } from 'wouter';
import { Icon, type IconName } from '../../ui/icons';
import { t } from '../../i18n';
import type { FirstKey } from '../../i18n/en';
import { isAdmin } from '../../state/auth';

interface NavItem {
  to: string;
  label: FirstKey;
  icon: IconName;
}

const MAIN: readonly NavItem[] = [
  { to: '/home', label: 'nav.home', icon: 'home' },
  { to: '/profile', label: 'nav.profile', icon: 'profile' },
  { to: '/settings', label: 'nav.settings', icon: 'settings' },
  { to: '/dashboard', label: 'nav.dashboard', icon: 'dashboard' },
];

/** A link of a navigation list, marked as the current page where it leads. */
export function NavLink({
  to,
  children,
  onNavigate,
  exact = true,
}: {
  to: string;
  children: React.ReactNode;
  onNavigate?: () => void;
  exact?: boolean;
}) {
  const [location] = useLocation();
  const active = exact ? location === to : location === to || location.startsWith(`${to}/`);
  return (
    <Link href={to} className="nav-link" aria-current={active ? 'page' : undefined} onClick={onNavigate}>
      {children}
    </Link>
  );
}

/** The app's main navigation, the same list in the top bar, the drawer and the modal drawer. */
export function MainNav({ onNavigate, variant }: { onNavigate?: () => void; variant: 'bar' | 'drawer' }) {
  // Admin is offered to admins only; the screen tells a member who opens it by its address why not.
  const admin = isAdmin.value;
  return (
    <ul className={`nav-list nav-list--${variant}`}>
      {MAIN.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} onNavigate={onNavigate}>
            <Icon name={item.icon} />
            <span>{t(item.label)}</span>
          </NavLink>
        </li>
      ))}
      {admin && (
        <li>
          <NavLink to="/admin" onNavigate={onNavigate} exact={false}>
            <Icon name="admin" />
            <span>{t('nav.admin')}</span>
          </NavLink>
        </li>
      )}
    </ul>
  );
}
