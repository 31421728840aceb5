import type { components } from '../../api/schema';
import { formatDate, formatRelativeTime, t } from '../../i18n';

type Notification = components['schemas']['Notification'];

export function NotificationList({ items }: { items: readonly Notification[] }) {
  return (
    <ul className="notification-list">
      {items.map((n) => (
        <li key={n.id} className={`notification notification--${n.level}`}>
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
          <h3 className="notification__title">{n.title}</h3>
          {n.body && <p className="notification__body">{n.body}</p>}
        </li>
      ))}
    </ul>
  );
}
