import type { APIRequestContext, Page } from '@playwright/test';
import { signInAs, type Tokens } from '../../oidc/index.ts';
import { claimsOf, sessionOf, storeSession } from '../../testkit/index.ts';
import { expect } from './fixtures';

/**
 * Signs `user` in through the real pages: the app's sign-in button, the provider's form, the
 * way back to the app. Ends on `next` with the session stored in the page's IndexedDB.
 */
export async function signIn(page: Page, user = 'ada', next = '/home'): Promise<void> {
  const path = `/sign-in?next=${encodeURIComponent(next)}`;
  // Relative to the page's origin once it has one; before that, to the test's base URL.
  await page.goto(page.url().startsWith('http') ? new URL(path, page.url()).href : path);
  const button = page.getByRole('main').getByRole('button', {
    name: /^(Sign in|Iniciar sesión|Anmelden|Se connecter|登录|Try again|Reintentar|Erneut versuchen|Réessayer|重试)$/,
  });
  // One more press if the first went nowhere (the app said the provider could not be reached).
  for (let attempt = 1; ; attempt++) {
    await button.click();
    try {
      await page.waitForURL(/\/oidc\/interaction\//, { timeout: 15_000 });
      break;
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
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
 * that call `signIn` walk that path); it saves the two seconds the pages take. The provider keeps
 * no browser session for it: a test that signs out at the provider signs in with `signIn`.
 */
export async function seedSession(page: Page, user = 'ada'): Promise<void> {
  // A same-origin document that starts no app: its storage is the app's.
  await page.goto('/manifest.webmanifest');
  await storeSession(page, await sessionOf(new URL(page.url()).origin, user));
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

/** An access token of `user` at the server `request` talks to, for seeding data through the API. */
export async function bearerOf(request: APIRequestContext, user = 'ada'): Promise<string> {
  const discovery = await request.get('/oidc/.well-known/openid-configuration');
  const { issuer } = (await discovery.json()) as { issuer: string };
  return authorizationAt(issuer.replace(/\/oidc$/, ''), user);
}
