/**
 * The localStorage keys of the contract (seed-spec), in one place: the state modules keep their
 * values there, and the pre-paint script reads them before the app has loaded.
 */
export const PREFERENCE_KEY = 'preference';
export const AUTH_KEY = 'auth.isLoggedIn';
export const INSTALLED_KEY = 'app.installed';
/**
 * The member's profile as last read, shown at once on the next visit while it is read again; removed
 * with the rest of the member's data at sign-out (src/profile/store.ts resetProfileState).
 */
export const LAST_PROFILE_KEY = 'profile.last';
/**
 * This device's push subscription as the API stored it: endpoint, id and the key that removes it
 * (only an admin may read subscriptions back). The device's, not the member's: sign-out keeps it.
 */
export const PUSH_SUBSCRIPTION_KEY = 'push.subscription';
/**
 * The member's notifications as last read (shown at once on the next visit) and the read marks not
 * yet sent; removed with the rest of the member's data at sign-out (session/session.ts).
 */
export const INBOX_LIST_KEY = 'inbox.list';
export const INBOX_MARKS_KEY = 'inbox.marks';
