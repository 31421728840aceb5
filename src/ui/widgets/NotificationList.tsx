import type { components } from '../../api/schema';
import { formatDate, formatRelativeTime, withWords } from '../../i18n';
import { enInbox } from '../../i18n/en-inbox';
import './notification-list.css';

// The mark buttons' words are the inbox's.
const t = withWords(enInbox);

type Notification = components['schemas']['Notification'];

export interface NotificationListProps {
  items: readonly Notification[];
  /** Marks one read (true) or unread (false): each notification then has its button. */
  onMark?: (notification: Notification, read: boolean) => void;
  /** The language of the titles and bodies when it is not the page's (the API's Content-Language). */
  lang?: string;
  /** The level of each title's heading: under the screen's title (2) or a section's (3, the default). */
  level?: 2 | 3;
}

export function NotificationList({ items, onMark, lang, level = 3 }: NotificationListProps) {
  const Title = level === 2 ? 'h2' : 'h3';
  return (
    <ul className="notification-list" lang={lang}>
      {items.map((n) => (
        <li key={n.id} className={`notification notification--${n.level}${n.read ? '' : ' notification--unread'}`}>
          <div className="notification__head">
            <span className="badge">{t(`notifications.level.${n.level}`)}</span>
            {!n.read && <span className="badge badge--accent">{t('notifications.unread')}</span>}
            <time
              dateTime={n.createdAt}
              className="notification__time"
              title={formatDate(n.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}
            >
              {formatRelativeTime(n.createdAt)}
            </time>
          </div>
          <Title className="notification__title">{n.title}</Title>
          {n.body && <p className="notification__body">{n.body}</p>}
          {onMark && (
            <button
              type="button"
              className="button button--text button--small notification__mark"
              // The visible words first, then which notification: each button's name tells it from the others.
              aria-label={t(n.read ? 'inbox.markUnreadOf' : 'inbox.markReadOf', { title: n.title })}
              onClick={() => onMark(n, !n.read)}
            >
              {t(n.read ? 'inbox.markUnread' : 'inbox.markRead')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
