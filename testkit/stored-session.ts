/**
 * A member's session as a finished sign-in leaves it on the device (the app's StoredSession, kept
 * by src/api/session-store.ts): the tokens in IndexedDB (idb-keyval's layout: database
 * circle-session, store session, out-of-line keys) and the `auth.isLoggedIn` flag. The e2e tests
 * and the contact sheet start signed in from it, without the provider's pages.
 */
import type { Page } from '@playwright/test';
import { signInAs } from '../oidc/index.ts';
import type { StoredSession } from '../src/index.ts';

/** The claims of a JWT, unverified (the tests' own tokens). */
export const claimsOf = (jwt: string): unknown => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

/** `user` signed in at the embedded provider of the server at `origin`, as the app stores it. */
export async function sessionOf(origin: string, user: string): Promise<StoredSession> {
  const tokens = await signInAs(origin, user);
  const claims = claimsOf(tokens.idToken) as { sub: string; name?: string; email?: string; roles?: string[] };
  return {
    accessToken: tokens.accessToken,
    expiresAt: Date.now() + tokens.expiresIn * 1000,
    refreshToken: tokens.refreshToken,
    idToken: tokens.idToken,
    issuer: `${origin}/oidc`,
    subject: claims.sub,
    name: claims.name ?? claims.sub,
    email: claims.email ?? null,
    roles: claims.roles ?? [],
  };
}

/** Stores `session` in the page's origin; the page must be a same-origin document that starts no app. */
export async function storeSession(page: Page, session: StoredSession): Promise<void> {
  await page.evaluate(async (stored) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('circle-session');
      open.onupgradeneeded = () => open.result.createObjectStore('session');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('session', 'readwrite');
      tx.objectStore('session').put(stored, 'current');
      tx.objectStore('session').put(stored.subject, 'owner');
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
    localStorage.setItem('auth.isLoggedIn', 'true');
  }, session);
}
