import { computed, signal } from '@preact/signals-core';
import { AUTH_KEY } from '../config/storage-keys';
import { decodeBoolean, persistedSignal } from '../lib/persist';
import { recordChange } from './history';

export { AUTH_KEY };

/** Who is signed in, as the ID token names them. */
export interface Member {
  subject: string;
  name: string;
  email: string | null;
  /** The ID token's `roles`: `admin` opens the admin screens (the API decides again from the access token). */
  roles?: readonly string[];
}

// The flag is the contract's (seed-spec: a persisted auth.isLoggedIn): it follows the session, and
// lets the first render know without waiting for IndexedDB.
const loggedIn = persistedSignal(AUTH_KEY, decodeBoolean, false);
const who = signal<Member | null>(null);
const refused = signal(false);

export const isLoggedIn = computed(() => loggedIn.value);
/** The signed-in member, once the session is read back (null while signed out or not read yet). */
export const member = computed(() => who.value);
/** The signed-in member may write the shared collections: the provider gave them the admin role. */
export const isAdmin = computed(() => who.value?.roles?.includes('admin') === true);
/** The provider no longer renews the session: the member must sign in again (what they typed is kept). */
export const sessionExpired = computed(() => refused.value);

/** The session model (src/session/session.ts) says a member is signed in. */
export function sessionStarted(next: Member): void {
  const changed = !loggedIn.value || who.value?.subject !== next.subject;
  who.value = next;
  loggedIn.value = true;
  refused.value = false;
  if (changed) recordChange('auth', 'signIn', { isLoggedIn: true, subject: next.subject });
}

/** The session is over: signed out, or expired beyond renewal. */
export function sessionEnded(reason: 'signed-out' | 'expired'): void {
  const was = loggedIn.value;
  who.value = null;
  loggedIn.value = false;
  // An expiry told again once signed out (a second request refused with the same token) keeps the
  // notice; only a session that never was, or a sign-out, leaves none.
  refused.value = reason === 'expired' && (was || refused.value);
  if (was) recordChange('auth', reason === 'expired' ? 'expired' : 'signOut', { isLoggedIn: false });
}
