import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { withWords } from '../../i18n';
import { enInbox } from '../../i18n/en-inbox';
import { profile } from '../../profile';
import { loadUnreadCount, profileChanged, startInbox, unreadCount } from '../../state/inbox';
import './NotificationBell.css';

/** The inbox's path: the bell leads there. */
export const INBOX_PATH = '/notifications';

const t = withWords(enInbox);

const BELL = 'M6 9a6 6 0 0112 0c0 6 2.5 8 2.5 8h-17S6 15 6 9M10 20.5a2.2 2.2 0 004 0';

/** The unread count in words: the bell's name, and what is said when it changes. */
function unreadWords(count: number | null): string {
  if (count === null) return t('inbox.title');
  return count === 0 ? t('inbox.noneUnread') : t('inbox.unreadCount', { count });
}

/**
 * The top bar's bell, a signed-in member's: the unread count on it, the inbox behind it. Loaded
 * only once someone is signed in, with the inbox's model; its count is read once per visit, then
 * follows the member's marks (their answers carry it) and their profile (the welcome's).
 */
export default function NotificationBell() {
  const count = unreadCount.value;
  const profileId = profile.value?.id;
  const [location] = useLocation();
  const [said, setSaid] = useState('');
  const last = useRef(count);
  // Stryker disable next-line ArrayDeclaration: any constant list reads the count once per mount alike
  useEffect(() => {
    startInbox();
    void loadUnreadCount();
  }, []);
  // The welcome goes once the member has a profile (and comes back without one): the inbox is read again.
  const knownProfile = useRef(profileId);
  useEffect(() => {
    if (knownProfile.current !== profileId) profileChanged();
    knownProfile.current = profileId;
  }, [profileId]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is a signal's value read in render; each new count runs this again.
  useEffect(() => {
    // The first count is in the bell's name; a change afterwards (a mark, a new read) is said too.
    if (last.current !== null && count !== null && count !== last.current) setSaid(unreadWords(count));
    last.current = count;
  }, [count]);
  return (
    <>
      <Link
        href={INBOX_PATH}
        className="icon-button bell"
        aria-label={unreadWords(count)}
        aria-current={location === INBOX_PATH ? 'page' : undefined}
      >
        <svg className="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path d={BELL} />
        </svg>
        {count ? (
          <span className="bell__count" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </Link>
      <span role="status" className="visually-hidden">
        {said}
      </span>
    </>
  );
}
