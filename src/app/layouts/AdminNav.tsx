import { Icon } from '../../ui/icons';
import { withWords } from '../../i18n';
import { enMember } from '../../i18n/en-member';
import { COLLECTION_NAMES } from '../../api/collection-names';
import { NavLink } from './NavLinks';

const t = withWords(enMember);

/** The admin's collections, in the drawer of the admin screens. */
export function AdminNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav className="admin-nav" aria-label={t('nav.adminMenu')}>
      <h2 className="drawer__heading">{t('nav.adminMenu')}</h2>
      <ul className="nav-list nav-list--drawer">
        {COLLECTION_NAMES.map((name) => (
          <li key={name}>
            <NavLink to={`/admin/${name}`} onNavigate={onNavigate}>
              <Icon name="table" />
              <span>{name}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
