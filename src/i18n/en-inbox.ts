/**
 * The inbox's words in English (the bell, the notifications screen, the lists' marks): they load
 * with the code that says them. Every other language keeps these keys in its one catalogue.
 */
export const enInbox = {
  'inbox.title': 'Notifications',
  'inbox.intro': 'What your circle has told you. Mark what you have read, one at a time or all at once.',
  'inbox.unreadCount': '{count, plural, one {# unread notification} other {# unread notifications}}',
  'inbox.noneUnread': 'No unread notifications',
  'inbox.markRead': 'Mark as read',
  'inbox.markUnread': 'Mark as unread',
  'inbox.markReadOf': 'Mark as read: {title}',
  'inbox.markUnreadOf': 'Mark as unread: {title}',
  'inbox.markAllRead': 'Mark all as read',
  'inbox.allRead': 'You have read everything.',
  'inbox.waiting':
    '{count, plural, one {# mark waits on this device: it is sent when you are back online.} other {# marks wait on this device: they are sent when you are back online.}}',
  'inbox.markGone': 'That notification is no longer there, so it could not be marked.',
  'inbox.otherLanguage': 'Some notifications are shown in {languages}: there is no version in your language.',
} as const;
