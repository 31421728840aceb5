import { useEffect } from 'react';
import { t } from '../../i18n';
import { inboxError, inboxItems, listLanguage, loadInbox, markNotification, showInbox } from '../../state/inbox';
import { NotificationList } from '../../ui/widgets/NotificationList';
import { EmptyState, ErrorState, LoadingState } from '../../ui/widgets/states';

/** How many the home screen shows; the rest are in the inbox. */
const LATEST = 3;

/**
 * The home screen's latest notifications, in the language on screen: what the last visit showed at
 * once, while they are read again. A member marks each one read or unread here too.
 */
export default function LatestNotifications({ canMark }: { canMark: boolean }) {
  // Stryker disable next-line ArrayDeclaration: any constant list shows the inbox once per mount alike
  useEffect(() => showInbox(), []);
  const items = inboxItems.value;
  const error = inboxError.value;
  if (!items) return error ? <ErrorState error={error} onRetry={() => void loadInbox()} /> : <LoadingState />;
  if (items.length === 0) return <EmptyState>{t('notifications.empty')}</EmptyState>;
  return (
    <NotificationList
      items={items.slice(0, LATEST)}
      lang={listLanguage.value}
      onMark={canMark ? (n, read) => void markNotification(n.id, read) : undefined}
    />
  );
}
