import { useEffect, useRef } from 'react';
import { languageName, withWords } from '../../i18n';
import { enInbox } from '../../i18n/en-inbox';
import {
  inboxError,
  inboxItems,
  inboxLoading,
  listLanguage,
  loadInbox,
  markAllRead,
  markNotification,
  marksWaiting,
  otherLanguages,
  showInbox,
  unreadCount,
} from '../../state/inbox';
import { NotificationList } from '../../ui/widgets/NotificationList';
import { EmptyState, ErrorState, LoadingState } from '../../ui/widgets/states';
import './notifications.css';

const t = withWords(enInbox);

/**
 * The member's inbox: every notification, newest first, in the language on screen, each marked read
 * or unread, or all at once. Marks made offline wait on the device, which says so, and go when the
 * network is back.
 */
export default function NotificationsScreen() {
  // Stryker disable next-line ArrayDeclaration: any constant list shows the inbox once per mount alike
  useEffect(() => showInbox(), []);
  const items = inboxItems.value;
  const error = inboxError.value;
  const count = unreadCount.value;
  const waiting = marksWaiting.value;
  const others = inboxLoading.value ? [] : otherLanguages.value;
  const summary = useRef<HTMLParagraphElement>(null);

  const markAll = () => {
    void markAllRead();
    // The button goes with the last unread notification: focus goes to what now says so.
    summary.current?.focus();
  };

  return (
    <div className="screen inbox">
      <h1 tabIndex={-1}>{t('inbox.title')}</h1>
      <p className="screen__intro">{t('inbox.intro')}</p>
      {items && (
        <div className="inbox__bar">
          <p className="inbox__summary" ref={summary} tabIndex={-1}>
            {count ? t('inbox.unreadCount', { count }) : t('inbox.allRead')}
          </p>
          {items.some((n) => !n.read) && (
            <button type="button" className="button button--tonal" onClick={markAll}>
              {t('inbox.markAllRead')}
            </button>
          )}
        </div>
      )}
      {waiting > 0 && <p className="inbox__note">{t('inbox.waiting', { count: waiting })}</p>}
      {others.length > 0 && <p className="inbox__note">{t('inbox.otherLanguage', { languages: others.map(languageName).join(', ') })}</p>}
      {!items && (error ? <ErrorState error={error} onRetry={() => void loadInbox()} /> : <LoadingState shape="notifications" />)}
      {items &&
        (items.length ? (
          <div className="card">
            <NotificationList items={items} level={2} lang={listLanguage.value} onMark={(n, read) => void markNotification(n.id, read)} />
          </div>
        ) : (
          <EmptyState>{t('notifications.empty')}</EmptyState>
        ))}
    </div>
  );
}
