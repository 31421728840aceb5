/**
 * The member's notifications as an inbox, one model: the list as the server answers it (in the
 * language on screen), the unread count the bell shows, and the read marks, shown at once and kept
 * on the device until the server has them (offline, they go when the network is back).
 *
 * A mark goes: a button → markNotification / markAllRead (store.ts) → the marks kept (marks.ts,
 * localStorage) → sendMarks → the API's call (api/inbox.ts), whose answer is the new unread count.
 */
export {
  inboxError,
  inboxItems,
  inboxLanguage,
  inboxLoading,
  listLanguage,
  loadInbox,
  loadUnreadCount,
  markAllRead,
  markNotification,
  marksWaiting,
  otherLanguages,
  profileChanged,
  sendMarks,
  showInbox,
  startInbox,
  unreadCount,
} from './store';
export type { Notification } from './marks';
