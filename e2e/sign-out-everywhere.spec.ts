import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { forgetTokens, signIn } from './support/sign-in';

const topBar = (page: Page) => page.getByRole('banner');

/** The access token the app keeps in IndexedDB (null when signed out), read in the page. */
function accessToken(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve) => {
        const open = indexedDB.open('circle-session');
        open.onupgradeneeded = () => open.result.createObjectStore('session');
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('session')) return resolve(null);
          const read = db.transaction('session').objectStore('session').get('current');
          read.onsuccess = () => resolve((read.result as { accessToken?: string } | undefined)?.accessToken ?? null);
          read.onerror = () => resolve(null);
        };
      }),
  );
}

/** The status the API answers this token on the member's profile (asked from the test, not from a page). */
const profileStatus = async (page: Page, token: string) =>
  (await fetch(new URL('/api/user/profile/myprofile', page.url()), { headers: { authorization: `Bearer ${token}` } })).status;

test.describe('signing out', () => {
  // Sign out everywhere revokes every token of the member's, the one this worker holds for seeding
  // data included (e2e/support/sign-in.ts): the tests after this one must sign in again.
  test.afterEach(() => forgetTokens('ada'));

  test('Sign out everywhere ends the member’s session on every device; Sign out only this one', async ({
    page,
    browser,
    baseURL,
    consoleErrors,
  }) => {
    await signIn(page, 'ada', '/profile');
    const other = await browser.newContext({ baseURL, serviceWorkers: 'block' });
    try {
      const elsewhere = await other.newPage();
      await signIn(elsewhere, 'ada', '/profile');
      const theirs = (await accessToken(elsewhere))!;
      expect(await profileStatus(elsewhere, theirs)).not.toBe(401);

      // A plain sign-out on a third device leaves the other two signed in.
      const third = await other.browser()!.newContext({ baseURL, serviceWorkers: 'block' });
      try {
        const another = await third.newPage();
        await signIn(another, 'ada', '/profile');
        const mine = (await accessToken(another))!;
        await topBar(another)
          .getByRole('button', { name: /^Account: / })
          .click();
        const revoked = another.waitForResponse((r) => r.url().endsWith('/oidc/token/revocation') && r.request().method() === 'POST');
        await another.locator('#account-menu').getByRole('button', { name: 'Sign out', exact: true }).click();
        expect((await revoked).status()).toBe(200);
        // Back from the provider's sign-out page.
        await expect(another).toHaveURL(/\/(home)?$/);
        await expect(topBar(another).getByRole('link', { name: 'Sign in' })).toBeVisible();
        expect(await profileStatus(another, mine)).toBe(401);
        expect(await profileStatus(elsewhere, theirs)).not.toBe(401);
      } finally {
        await third.close();
      }

      const mine = (await accessToken(page))!;
      const ended = page.waitForResponse((r) => r.url().endsWith('/oidc/session/everywhere') && r.request().method() === 'POST');
      await topBar(page)
        .getByRole('button', { name: /^Account: / })
        .click();
      await page.locator('#account-menu').getByRole('button', { name: 'Sign out everywhere' }).click();
      expect((await ended).status()).toBe(204);
      await expect(topBar(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
      expect(await accessToken(page)).toBeNull();

      // The other device's token is refused at once; its app finds itself signed out at its next read.
      expect([await profileStatus(page, mine), await profileStatus(elsewhere, theirs)]).toEqual([401, 401]);
      await elsewhere.goto('/profile');
      await expect(elsewhere).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
      await expect(topBar(elsewhere).getByRole('link', { name: 'Sign in' })).toBeVisible();
      // Its session at the provider is gone too: signing in asks for the password again.
      await elsewhere.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await expect(elsewhere).toHaveURL(/\/oidc\/interaction\//);
      await expect(elsewhere.locator('#password')).toBeVisible();
    } finally {
      await other.close();
    }
    expect(consoleErrors).toEqual([]);
  });
});
