import { useEffect } from 'react';
import { Link } from 'wouter';
import { Icon } from '../../ui/icons';
import { withWords } from '../../i18n';
import { enMember } from '../../i18n/en-member';
import { member } from '../../state/auth';
import { fetchProfile, memberName, profile, profileLoading } from '../../profile';
import { Avatar } from '../../ui/widgets/Avatar';
import { loadSession } from '../../session';

const t = withWords(enMember);

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
export function AccountMenu() {
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
