/**
 * The settings screen's words in English, push notifications' included: they load with that screen.
 * Every other language keeps these keys in its one catalogue (loaded when chosen).
 */
export const enSettings = {
  'settings.title': 'Settings',
  'settings.language': 'Language',
  'settings.languageLabel': 'Language of the app',
  'settings.languageHint':
    'Used for the app’s words on this device. A new profile’s preferred language starts from it; change that one in your profile.',
  'settings.appearance': 'Appearance',
  'settings.colorScheme': 'Light or dark',
  'settings.colorScheme.system': 'System',
  'settings.colorScheme.light': 'Light',
  'settings.colorScheme.dark': 'Dark',
  'settings.colorScheme.hint': 'System follows your device’s setting, and changes when it does.',
  'settings.accent': 'Accent colour',
  'settings.theme.DEEPPURPLE_AMBER': 'Deep purple and amber',
  'settings.theme.INDIGO_PINK': 'Indigo and pink',
  'settings.theme.PINK_BLUEGREY': 'Pink and blue grey',
  'settings.theme.PURPLE_GREEN': 'Purple and green',
  'settings.notifications': 'Notifications',
  'settings.notifications.toggle': 'Push notifications',
  'settings.notifications.hint': 'Get news from your circle even when the app is closed.',
  'settings.notifications.enabled': 'Push notifications are on.',
  'settings.notifications.disabled': 'Push notifications are off.',
  'settings.notifications.denied': 'Notifications are blocked for this site. Allow them in your browser settings.',
  'settings.notifications.unsupported': 'This browser cannot receive push notifications.',
  'settings.storageRefused': 'Your browser refused to store this setting: it will be lost when you close the app.',
  'push.noServiceWorker': 'Service workers are disabled or not supported by this browser',
  'push.notSubscribed': 'Not subscribed to push notifications.',
  'push.unsubscribeFailed': 'Unsubscribe failed!',
  'push.subscribeFailed': 'Could not turn on push notifications: {message}',
} as const;
