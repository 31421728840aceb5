import { computed } from '@preact/signals-core';
import { decodeBoolean, persistedSignal } from '../lib/persist';
import { recordChange } from './history';

export const AUTH_KEY = 'auth.isLoggedIn';

const loggedIn = persistedSignal(AUTH_KEY, decodeBoolean, false);

export const isLoggedIn = computed(() => loggedIn.value);

export function signIn(): void {
  loggedIn.value = true;
  recordChange('auth', 'signIn', { isLoggedIn: true });
}

export function signOut(): void {
  loggedIn.value = false;
  recordChange('auth', 'signOut', { isLoggedIn: false });
}
