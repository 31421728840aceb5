import type { ENGLISH_PARTS } from './parts';

/**
 * English, the reference catalogue, in parts: this one, with the first screens' words, and the
 * parts of screens met later (./parts.ts lists them), each loaded with the code that says its words.
 * Every other language has exactly the keys of all the parts, in one file.
 */
export const en = {
  'app.name': 'Circle',
  'app.skipToContent': 'Skip to content',
  'app.crashed.title': 'This screen stopped working',
  'app.crashed.body': 'Something went wrong while showing this screen. Your other screens and saved drafts are safe.',
  'app.crashed.retry': 'Try again',
  'app.chunkFailed': 'This screen could not be loaded. Check your connection and try again.',

  'nav.main': 'Main',
  'nav.home': 'Home',
  'nav.profile': 'Profile',
  'nav.settings': 'Settings',
  'nav.dashboard': 'Dashboard',
  'nav.notifications': 'Notifications',
  'nav.admin': 'Admin',
  'nav.signIn': 'Sign in',
  'nav.signOut': 'Sign out',
  'nav.openMenu': 'Open menu',
  'nav.closeMenu': 'Close menu',
  'nav.notFound': 'Page not found',

  'status.offline': 'Offline',
  'status.offlineHint':
    'You are offline. What you saw last is shown; your profile changes are saved on this device and sent when you are back online.',
  'status.needsNetwork': 'You are offline: this needs a connection. Try again when you are back online.',
  'status.backOnline': 'You are back online.',

  'install.button': 'Install app',
  'install.installed': 'Circle is installed on this device.',
  'install.hint': 'Install Circle to open it from your home screen, even offline.',

  'home.title': 'Welcome to Circle',
  'home.welcomeBack': 'Welcome back, {name}!',
  'home.intro':
    'Meet people who learn what you learn. Keep your profile up to date, follow the news of your circle and pick up where you left off, even on a train.',
  'home.createProfileCta': 'Create your profile',
  'home.signedOutProfile': 'Your profile',
  'home.createProfileText': 'Tell the community who you are: a name, a photo and what you are interested in.',
  'home.viewProfile': 'View your profile',
  'home.latestNotifications': 'Latest notifications',
  'home.allNotifications': 'See all on the dashboard',
  'home.inbox': 'All your notifications',

  'notifications.empty': 'No notifications yet. News from your circle will show here.',
  'notifications.unread': 'Unread',
  'notifications.level.info': 'Information',
  'notifications.level.success': 'Good news',
  'notifications.level.warning': 'Warning',
  'notifications.level.error': 'Problem',

  'common.loading': 'Loading…',
  'common.retry': 'Retry',
  'common.dismiss': 'Dismiss',
  'common.loadFailed': 'Could not load this: {message}',

  'profile.pendingSent': 'Your offline changes were sent.',

  'field.interests': 'Interests',

  'signIn.profileNeeded': 'Sign in to see and edit your profile.',
} as const;

/** A word of the first screens: what `t` says without a part. */
export type FirstKey = keyof typeof en;
type Parts = typeof ENGLISH_PARTS;
/** A word of one part of English (./parts.ts). */
export type PartKey<P extends keyof Parts = keyof Parts> = P extends keyof Parts ? keyof Parts[P] : never;
/** Any word of the catalogue: the first screens' and every part's. */
export type MessageKey = FirstKey | PartKey;
export type Messages = Record<MessageKey, string>;
