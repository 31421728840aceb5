import type { Page } from '@playwright/test';
import { startServer } from '../server/index.ts';
import { test, expect, waitForServiceWorker } from './support/fixtures';
import { DIST } from './support/global-setup';
import { localStorageItem, screenHeading, seedProfile } from './support/pages';
import { signIn } from './support/sign-in';

const topBar = (page: Page) => page.getByRole('banner');

/** The session the app keeps in IndexedDB (null when none), read in the page. */
function storedSession(page: Page): Promise<{ accessToken: string; expiresAt: number; subject: string } | null> {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const open = indexedDB.open('circle-session');
        open.onupgradeneeded = () => open.result.createObjectStore('session');
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('session')) return resolve(null);
          const read = db.transaction('session').objectStore('session').get('current');
          read.onsuccess = () => resolve(read.result ?? null);
          read.onerror = () => resolve(null);
        };
      }),
  );
}

/** What the app keeps of a member on the device: drafts, the queued save, the worker's cached API answers. */
function memberDataOnDevice(page: Page): Promise<{ drafts: string[]; outbox: boolean; cachedMemberReads: string[] }> {
  return page.evaluate(async () => {
    const drafts = Object.keys(localStorage).filter((key) => key.startsWith('draft.profile.'));
    const outbox = await new Promise<boolean>((resolve) => {
      const open = indexedDB.open('circle');
      open.onupgradeneeded = () => open.result.createObjectStore('outbox');
      open.onerror = () => resolve(false);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('outbox')) return resolve(false);
        const read = db.transaction('outbox').objectStore('outbox').get('profile');
        read.onsuccess = () => resolve(read.result != null);
        read.onerror = () => resolve(false);
      };
    });
    const cachedMemberReads: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        if (new URL(request.url).pathname.startsWith('/api/user/')) cachedMemberReads.push(request.url);
    }
    return { drafts, outbox, cachedMemberReads };
  });
}

test.describe('accounts', () => {
  test('sign in through the provider: the top bar names the member, and a reload keeps the session', async ({ page, consoleErrors }) => {
    await page.goto('/home');
    await expect(topBar(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
    await signIn(page, 'grace', '/home');
    const account = topBar(page).getByRole('button', { name: 'Account: Grace Hopper' });
    await expect(account).toBeVisible();
    await account.click();
    await expect(page.locator('#account-menu').getByRole('button', { name: 'Sign out', exact: true })).toBeVisible();
    expect((await storedSession(page))?.subject).toBe('grace');

    await page.reload();
    await expect(topBar(page).getByRole('button', { name: 'Account: Grace Hopper' })).toBeVisible();
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test("the provider's sign-in page: the app's logo, and Sign in before Cancel in the tab order and on the line", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/sign-in');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await expect(page.locator('svg.logo')).toBeVisible();
    const signIn = page.getByRole('button', { name: 'Sign in' });
    const cancel = page.getByRole('link', { name: 'Cancel' });
    await page.getByLabel('Password').focus();
    await page.keyboard.press('Tab');
    await expect(signIn).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(cancel).toBeFocused();
    const [first, second] = [(await signIn.boundingBox())!, (await cancel.boundingBox())!];
    // On one line, Sign in at its start; the same height, so they read as a pair.
    expect(second.x).toBeGreaterThan(first.x + first.width);
    expect(Math.round(second.y)).toBe(Math.round(first.y));
    expect(second.height).toBe(first.height);
  });

  test('signed out, profile and admin ask to sign in and then open; home offers to sign in', async ({ page, consoleErrors }) => {
    await page.goto('/home');
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in?next=%2Fprofile');

    await page.goto('/admin/symbols');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin%2Fsymbols$/);
    await expect(page.getByText('Sign in to open the admin screens.')).toBeVisible();

    await page.goto('/profile');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
    await expect(page.getByText('Sign in to see and edit your profile.')).toBeVisible();
    await expect(screenHeading(page)).toHaveText('Sign in');
    // The button goes to the provider, which comes back to the screen that asked.
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.locator('#username').fill('ada');
    await page.locator('#password').fill('circle');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('a callback that cannot be completed says so and offers to try again', async ({ page }) => {
    await page.goto('/auth/callback?code=forged&state=forged');
    await expect(page.getByRole('alert')).toHaveText('The sign-in could not be completed. Try again.');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    expect(await localStorageItem(page, 'auth.isLoggedIn')).not.toBe('true');
  });

  test.describe('with the worker', () => {
    // What the worker cached of the member goes too.
    test.use({ serviceWorkers: 'allow' });
    test('signing out at the provider leaves nothing of the member on the device', async ({ page, request, consoleErrors }) => {
      await seedProfile(request);
      await signIn(page, 'ada', '/home');
      await expect(page.getByRole('heading', { name: 'Ada Lovelace', level: 2 })).toBeVisible();
      await waitForServiceWorker(page);
      // Read once more under the worker, so that its cache holds the member's profile.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Ada Lovelace', level: 2 })).toBeVisible();
      await page.getByRole('link', { name: 'Profile' }).first().click();
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await page.getByLabel('About you').fill('A draft only ada should see.');
      await expect.poll(async () => (await memberDataOnDevice(page)).drafts.length).toBeGreaterThan(0);
      // A save queued offline in an earlier visit.
      await page.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const open = indexedDB.open('circle');
            open.onupgradeneeded = () => open.result.createObjectStore('outbox');
            open.onsuccess = () => {
              const tx = open.result.transaction('outbox', 'readwrite');
              tx.objectStore('outbox').put(
                {
                  kind: 'create',
                  fields: { displayName: 'Queued' },
                  avatar: null,
                  apiBase: `${location.origin}/api/`,
                  key: 'k',
                  queuedAt: 0,
                },
                'profile',
              );
              tx.oncomplete = () => resolve();
              tx.onerror = () => reject(tx.error);
            };
          }),
      );
      const before = await memberDataOnDevice(page);
      expect(before.outbox).toBe(true);
      expect(before.cachedMemberReads.length).toBeGreaterThan(0);

      const revoked = page.waitForRequest((r) => r.url().endsWith('/oidc/token/revocation') && r.method() === 'POST');
      await topBar(page)
        .getByRole('button', { name: /^Account: / })
        .click();
      await page.locator('#account-menu').getByRole('button', { name: 'Sign out', exact: true }).click();
      await revoked;
      // The provider ends its session without asking again (the app sent the member's ID token), then comes back home.
      await expect(page).toHaveURL(/\/(home)?$/);
      await expect(topBar(page).getByRole('link', { name: 'Sign in' })).toBeVisible();

      expect(await memberDataOnDevice(page)).toEqual({ drafts: [], outbox: false, cachedMemberReads: [] });
      expect(await storedSession(page)).toBeNull();
      expect(await localStorageItem(page, 'auth.isLoggedIn')).toBe('false');
      await page.goto('/profile');
      await expect(page).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
      expect(consoleErrors).toEqual([]);
    });
  });
});

test.describe('renewal', () => {
  test('the session is renewed before the access token expires, and API calls keep succeeding past its end', async ({ page }) => {
    test.setTimeout(60_000);
    // A server of its own whose provider issues access tokens for 10 seconds.
    const server = await startServer({ port: 0, delayMs: 0, distDir: DIST, accessTokenTtl: 10 });
    try {
      const refreshes: number[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/oidc/token') && r.postData()?.includes('grant_type=refresh_token')) refreshes.push(Date.now());
      });
      await page.goto(`${server.url}/home`);
      await signIn(page, 'ada', '/home');
      const first = (await storedSession(page))!;
      expect(first.expiresAt - Date.now()).toBeLessThanOrEqual(10_000);

      // Renewed by the timer, ahead of the end, with no request asking for it.
      await expect.poll(() => refreshes.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(refreshes[0]!).toBeLessThan(first.expiresAt);
      await expect.poll(async () => (await storedSession(page))?.accessToken, { timeout: 5_000 }).not.toBe(first.accessToken);

      // Past the first token's end: the member's own data still loads, with a newer token.
      await page.waitForTimeout(Math.max(0, first.expiresAt - Date.now() + 1_000));
      const read = page.waitForResponse((r) => r.url().endsWith('/api/user/profile/myprofile'));
      await page.getByRole('link', { name: 'Profile' }).first().click();
      const response = await read;
      expect(response.status()).toBe(204);
      expect(response.request().headers().authorization).not.toBe(`Bearer ${first.accessToken}`);
      await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
      await expect(topBar(page).getByRole('button', { name: 'Account: Ada Lovelace' })).toBeVisible();
    } finally {
      await server.close();
    }
  });
});

test.describe('isolation', () => {
  test("two members never see each other's profile: in two browsers, and one after the other on one device", async ({
    page,
    browser,
    baseURL,
    request,
    consoleErrors,
  }) => {
    // Ada has a profile; Grace, signed in elsewhere at the same time, is offered to create her own.
    const ada = await seedProfile(request);
    await signIn(page, 'ada', '/profile');
    await expect(page.getByRole('article', { name: 'Ada Lovelace' })).toBeVisible();
    const other = await browser.newContext({ baseURL, serviceWorkers: 'block' });
    try {
      const grace = await other.newPage();
      await signIn(grace, 'grace', '/profile');
      await expect(grace.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
      await expect(grace.getByText('Ada Lovelace')).toHaveCount(0);
      // Her token cannot reach Ada's profile or avatar by id either.
      const token = (await storedSession(grace))?.accessToken;
      const refused = await grace.evaluate(
        async ({ id, token }) => {
          const headers = { authorization: `Bearer ${token}`, 'if-match': '*' };
          const answers = await Promise.all([
            fetch(`/api/user/profile/${id}/avatar`, { headers }),
            fetch(`/api/user/profile/${id}`, { method: 'DELETE', headers }),
          ]);
          return answers.map((answer) => answer.status);
        },
        { id: ada.id, token },
      );
      expect(refused).toEqual([403, 403]);
    } finally {
      await other.close();
    }
    await expect(page.getByRole('article', { name: 'Ada Lovelace' })).toBeVisible();

    // On one device: Ada leaves a draft and signs out; Grace signs in and finds nothing of hers.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill('Ada, half typed');
    await expect.poll(() => localStorageItem(page, `draft.profile.${ada.id}`)).not.toBeNull();
    await page.goto('/sign-in');
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    // The provider's session ends too, without a question: Grace gets its sign-in form, not Ada's session.
    await expect(page).toHaveURL(/\/home$/);
    await signIn(page, 'grace', '/profile');
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('draft.profile.')))).toEqual([]);
    await expect(page.getByText('Ada')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
