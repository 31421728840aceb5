import type { APIRequestContext, Page } from '@playwright/test';
import { signInAs, type Tokens } from '../../oidc/index.ts';
import { claimsOf, sessionOf } from '../../testkit/index.ts';
import { expect, testServerUrl } from './fixtures';

/**
 * Signs `user` in through the real pages: the app's sign-in button, the provider's form, the
 * way back to the app. Ends on `next` with the session stored in the page's IndexedDB.
 */
export async function signIn(page: Page, user = 'ada', next = '/home'): Promise<void> {
  const path = `/sign-in?next=${encodeURIComponent(next)}`;
  // Relative to the page's origin once it has one; before that, to the test's base URL.
  await page.goto(page.url().startsWith('http') ? new URL(path, page.url()).href : path);
  // The app's button takes the browser to the provider's sign-in page.
  await page
    .getByRole('main')
    .getByRole('button', { name: /^(Sign in|Iniciar sesión|Anmelden|Se connecter|登录)$/ })
    .click();
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.locator('#username').fill(user);
  await page.locator('#password').fill('circle');
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('auth.isLoggedIn'))).toBe('true');
}

/**
 * Starts `user`'s session on the device as a finished sign-in leaves it: the tokens in IndexedDB
 * (src/api/session-store.ts) and the contract's `auth.isLoggedIn` flag, without the provider's
 * pages. For tests of what a member does, not of how they sign in (accounts.spec.ts and the tests
 * that call `signIn` walk that path). The provider keeps no browser session for it: a test that
 * signs out at the provider signs in with `signIn`.
 *
 * Written by a script that runs before the page's own on its next load, so that load is the
 * app's first (no page of the origin is opened for it: a sign-in through the pages costs about
 * 0.7 s of CPU more, a page that only stores the session 0.2 s). IndexedDB runs the transactions of
 * a database in the order they are made, and this script's write is made before the app has run
 * at all: the app reads the session written. On later loads of the page it writes nothing once the
 * app has said whether the member is signed in (`auth.isLoggedIn` set): a sign-out stays one.
 */
export async function seedSession(page: Page, user = 'ada'): Promise<void> {
  const origin = page.url().startsWith('http') ? new URL(page.url()).origin : testServerUrl();
  const session = await sessionOf(origin, user);
  await page.addInitScript(
    ({ origin, session }) => {
      if (location.origin !== origin || localStorage.getItem('auth.isLoggedIn') !== null) return;
      localStorage.setItem('auth.isLoggedIn', 'true');
      const open = indexedDB.open('circle-session');
      open.onupgradeneeded = () => open.result.createObjectStore('session');
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction('session', 'readwrite');
        tx.objectStore('session').put(session, 'current');
        tx.objectStore('session').put(session.subject, 'owner');
        tx.oncomplete = () => db.close();
      };
    },
    { origin, session },
  );
}

const tokens = new Map<string, Promise<Tokens>>();

/** The Authorization header of `user` at the server on `origin`: signed in once, again only near the token's end. */
export async function authorizationAt(origin: string, user = 'ada'): Promise<string> {
  const key = `${origin} ${user}`;
  let held = tokens.get(key);
  const fresh = async (t: Promise<Tokens>) => {
    const got = await t;
    return (claimsOf(got.accessToken) as { exp: number }).exp * 1000 - Date.now() > 30_000;
  };
  if (!held || !(await fresh(held).catch(() => false))) {
    held = signInAs(origin, user);
    tokens.set(key, held);
  }
  return (await held).authorization;
}

/**
 * Forgets the tokens held for `user`: a test that ends the member's sessions everywhere (the
 * provider revokes every token it issued them) calls it, so that the worker's next test signs in
 * afresh instead of being handed a revoked token.
 */
export function forgetTokens(user: string): void {
  for (const key of [...tokens.keys()]) if (key.endsWith(` ${user}`)) tokens.delete(key);
}

/** An access token of `user` at the server `request` talks to, for seeding data through the API. */
export async function bearerOf(request: APIRequestContext, user = 'ada'): Promise<string> {
  const discovery = await request.get('/oidc/.well-known/openid-configuration');
  const { issuer } = (await discovery.json()) as { issuer: string };
  return authorizationAt(issuer.replace(/\/oidc$/, ''), user);
}
