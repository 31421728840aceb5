import { createHash } from 'node:crypto';
import { authorizationAt } from './support/sign-in';
import fc from 'fast-check';
import type { Page } from '@playwright/test';
import type { RunningServer } from '../server/index.ts';
import { test, expect, goOffline, goOnline, waitForServiceWorker, collectCspViolations, cspViolations } from './support/fixtures';
import { ADA, appRunning, presetSignedIn, seedProfile } from './support/pages';

async function openCreateForm(page: Page) {
  await presetSignedIn(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
}

async function fillProfile(page: Page, name = 'Ada Lovelace', username = 'ada_l') {
  await page.getByLabel('Display name').fill(name);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill('ada@example.org');
  await page.getByLabel('About you').fill('Analytical engines.');
}

/**
 * Profile creates that reached the server, from the page or from its service worker alike: each
 * request with the Idempotency-Key it carried (null for none). `saves` tells them apart by key: a
 * save sent twice (a reload mid-request, a replay by the worker) is one create, applied once.
 */
function countCreates(server: RunningServer): { readonly keys: ReadonlyArray<string | null>; readonly saves: number } {
  const keys: Array<string | null> = [];
  server.server.on('request', (req) => {
    if (req.method === 'POST' && req.url === '/api/user/profile') {
      const key = req.headers['idempotency-key'];
      keys.push(typeof key === 'string' && key !== '' ? key : null);
    }
  });
  return {
    keys,
    get saves() {
      return new Set(keys).size;
    },
  };
}

/** Profile updates that reached the server from now on, from the page or its service worker. */
function countPatches(server: RunningServer): { readonly count: number } {
  let count = 0;
  server.server.on('request', (req) => {
    if (req.method === 'PATCH' && req.url?.startsWith('/api/user/profile/')) count++;
  });
  return {
    get count() {
      return count;
    },
  };
}

/** The saves waiting in the device's outbox (IndexedDB `circle` / `outbox`, src/profile/pending-save.ts). */
function outboxCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const opened = indexedDB.open('circle');
        opened.onerror = () => reject(opened.error);
        opened.onsuccess = () => {
          const db = opened.result;
          if (!db.objectStoreNames.contains('outbox')) return resolve(0);
          const counted = db.transaction('outbox').objectStore('outbox').count();
          counted.onsuccess = () => resolve(counted.result);
          counted.onerror = () => reject(counted.error);
        };
      }),
  );
}

async function storedProfile(baseURL: string) {
  const response = await fetch(`${baseURL}/api/user/profile/myprofile`, { headers: { authorization: await authorizationAt(baseURL) } });
  return response.status === 204 ? null : ((await response.json()) as { displayName: string });
}

test.describe('nothing the user typed is lost', () => {
  // Offline, the worker's Background Sync may send a queued save as well as the page.
  test.use({ serviceWorkers: 'allow' });

  test('a save made offline is queued, shown as pending, and sent once when back online', async ({ page, baseURL, server }) => {
    await openCreateForm(page);
    await waitForServiceWorker(page);
    await fillProfile(page);
    // Counted at the server: a replay by the worker's Background Sync is invisible to the page.
    const creates = countCreates(server);
    await goOffline(page);
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByTestId('pending-save')).toHaveText('Saved on this device. It will be sent when you are back online.');
    // Still offline: the profile is shown as saved, the notice said once, and nothing reached the server.
    await expect(page.getByRole('article', { name: 'Ada Lovelace' })).toContainText('Analytical engines.');
    await expect(page.getByRole('form')).toHaveCount(0);
    await expect(page.getByText('Saved on this device. It will be sent when you are back online.')).toHaveCount(1);
    expect(await storedProfile(baseURL!)).toBeNull();

    await goOnline(page);
    await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    await expect(page.getByTestId('snackbar')).toContainText('Your offline changes were sent.');
    await expect(page.getByTestId('pending-save')).toHaveCount(0);
    expect((await storedProfile(baseURL!))?.displayName).toBe('Ada Lovelace');
    // The draft is gone once saved.
    expect(await page.evaluate(() => localStorage.getItem('draft.profile.new'))).toBeNull();
    // One request, which carried its key: a replay without it could create the profile twice,
    // and a second send (even with the key) is not "sent once".
    expect(creates.keys).toEqual([expect.stringMatching(/^[\x21-\x7E]{1,128}$/)]);
  });

  // Sent by the service worker's Background Sync or by the page, whichever takes the lock first; with
  // the worker blocked, by the page's own store alone, whose clearing of the waiting save (in memory
  // and in IndexedDB) the worker's send would otherwise stand in for.
  for (const { by, worker } of [
    { by: 'the worker or the page', worker: true },
    { by: 'the page alone', worker: false },
  ]) {
    test.describe(`sent by ${by}`, () => {
      test.use({ serviceWorkers: worker ? 'allow' : 'block' });
      test('an edit saved offline shows as saved; back online it is sent once, no form is left open, and nothing waits any more', async ({
        page,
        baseURL,
        request,
        server,
      }) => {
        await seedProfile(request);
        await presetSignedIn(page);
        await page.goto('/profile');
        if (worker) await waitForServiceWorker(page);
        await page.getByRole('button', { name: 'Edit' }).click();
        await goOffline(page);
        await page.getByLabel('About you').fill('Written on the train.');
        await page.getByRole('button', { name: 'Save changes' }).click();
        const notice = page.getByText('Saved on this device. It will be sent when you are back online.');
        await expect(notice).toHaveCount(1);
        await expect(page.getByRole('article', { name: ADA.displayName })).toContainText('Written on the train.');
        // Nothing to discard or cancel: the only action offered is to edit again.
        await expect(page.getByRole('main').getByRole('button')).toHaveText(['Edit']);
        expect(await outboxCount(page)).toBe(1);

        const patches = countPatches(server);
        await goOnline(page);
        await expect(page.getByTestId('snackbar')).toContainText('Your offline changes were sent.');
        await expect(notice).toHaveCount(0);
        await expect(page.getByRole('form')).toHaveCount(0);
        await expect(page.getByRole('article', { name: ADA.displayName })).toContainText('Written on the train.');
        await expect(page.getByRole('button', { name: 'Delete profile' })).toBeVisible();
        expect((await storedProfile(baseURL!)) as unknown).toMatchObject({ bio: 'Written on the train.' });
        // Sent is gone from the device: nothing waits in the outbox (IndexedDB circle/outbox) to be
        // sent again, and a reload neither says it waits nor sends it (with its old ETag: a conflict).
        await expect.poll(() => outboxCount(page)).toBe(0);
        await page.reload();
        await expect(page.getByRole('article', { name: ADA.displayName })).toContainText('Written on the train.');
        await expect(page.getByRole('button', { name: 'Delete profile' })).toBeVisible();
        await expect(page.getByTestId('pending-save')).toHaveCount(0);
        await expect(page.getByTestId('profile-conflict')).toHaveCount(0);
        expect(await outboxCount(page)).toBe(0);
        expect(patches.count).toBe(1);
      });
    });
  }

  test('a queued save survives a reload and goes out when the app starts online', async ({ page, baseURL, server }) => {
    const creates = countCreates(server);
    await openCreateForm(page);
    await fillProfile(page, 'Grace Hopper', 'grace_h');
    await goOffline(page);
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByTestId('pending-save')).toBeVisible();
    await goOnline(page);
    // A reload, not the online event, is what sends it this time: the queue is on disk.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
    // The heading shows the queued save at once, from the device; it reaches the server as the app
    // starts, and the notice that it waits goes once it has.
    await expect(page.getByTestId('pending-save')).toHaveCount(0);
    await expect.poll(async () => (await storedProfile(baseURL!))?.displayName).toBe('Grace Hopper');
    // However often it went out, it is one save, and every send carried its key.
    expect(creates.keys.length).toBeGreaterThan(0);
    expect(creates.keys).not.toContain(null);
    expect(creates.saves).toBe(1);
  });

  test.describe('online', () => {
    test.use({ serviceWorkers: 'block' });

    test('a save that fails with a server error keeps the form filled and says why', async ({ page }) => {
      await openCreateForm(page);
      await fillProfile(page);
      await page.route('**/api/user/profile', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({ status: 503, error: 'Service Unavailable', message: 'Maintenance in progress' }),
        }),
      );
      await page.getByRole('button', { name: 'Create profile' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Your changes were not saved' })).toContainText('Maintenance in progress');
      await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
      await expect(page.getByLabel('About you')).toHaveValue('Analytical engines.');
      await page.unroute('**/api/user/profile');
      await page.getByRole('button', { name: 'Create profile' }).click();
      await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    });

    test('a screen whose code fails to load shows a recoverable error; the shell and the draft stay', async ({ page }) => {
      await openCreateForm(page);
      await fillProfile(page);
      let block = true;
      await page.route(/\/assets\/SettingsScreen-.*\.js$/, (route) => (block ? route.abort() : route.continue()));
      // A fresh page load, so the settings code is not in memory yet.
      await page.goto('/settings');
      await expect(page.getByRole('heading', { name: 'This screen stopped working' })).toBeVisible();
      await expect(page.getByText('This screen could not be loaded.')).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      block = false;
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      await page.getByRole('link', { name: 'Profile' }).first().click();
      await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
    });
  });
});

test.describe('faults', () => {
  test('GETs are retried with backoff when the API fails on the way', async ({ page }) => {
    let calls = 0;
    await page.route('**/api/symbols', (route) => {
      calls++;
      return calls <= 2 ? route.fulfill({ status: 503, body: 'busy' }) : route.continue();
    });
    await page.goto('/dashboard');
    await expect(page.getByText('MSFT')).toBeVisible();
    expect(calls).toBe(3);
  });

  test('an API that is down gives a clear error with a retry that works once it is back', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.route('**/api/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    const accounts = page.getByRole('region', { name: 'Accounts' });
    // Said once for the screen, however many panels have nothing to show.
    const alert = page.getByRole('main').getByRole('alert');
    await expect(alert).toContainText('Could not load this', { timeout: 15_000 });
    await expect(alert).toHaveCount(1);
    await expect(accounts).toContainText('Not available right now.');
    await page.unroute('**/api/**');
    await page.getByRole('main').getByRole('button', { name: 'Retry' }).click();
    await expect(accounts.getByText('Membership fees')).toBeVisible();
    await expect(alert).toHaveCount(0);
  });

  test('an API payload the app cannot read is a clear error, not a crash', async ({ page, consoleErrors }) => {
    await page.route('**/api/notifications', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([{ id: 1, title: { html: '<b>x</b>' } }]) }),
    );
    await page.goto('/home');
    await expect(page.getByRole('alert')).toContainText('The server sent a notifications record this app cannot read');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Circle');
    expect(consoleErrors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  test('corrupted or foreign values in every persisted key fall back to defaults', async ({ page }) => {
    const junk = fc.sample(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.constantFrom('{', 'null', '[]', '"en"', '{"language":"zh-TW","activeThemeName":42}', '{"__proto__":{"x":1}}', 'true', 'NaN'),
      ),
      { numRuns: 8, seed: 20261122 },
    );
    for (const value of junk) {
      await page.addInitScript((v) => {
        for (const key of ['preference', 'app.installed', 'auth.isLoggedIn', 'draft.profile.new', 'router.scroll']) {
          localStorage.setItem(key, v);
          sessionStorage.setItem(key, v);
        }
      }, value);
      const errors: string[] = [];
      const onError = (e: Error) => errors.push(e.message);
      page.on('pageerror', onError);
      await page.goto('/settings');
      await expect(page.getByRole('heading', { level: 1 }), `stored ${JSON.stringify(value)}`).toHaveText('Settings');
      // The heading is in the HTML: the stored value is only read once the app's code runs.
      await appRunning(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(errors, `stored ${JSON.stringify(value)}`).toEqual([]);
      page.off('pageerror', onError);
    }
  });

  test('storage that refuses writes (quota) keeps the app working and says the setting will not last', async ({ page }) => {
    await page.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    await page.goto('/settings');
    await appRunning(page);
    await page.getByLabel('Purple and green').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'PURPLE_GREEN');
    await expect(page.getByTestId('snackbar')).toContainText('Your browser refused to store this setting');
  });
});

test.describe('security', () => {
  const PAYLOADS = [
    '<img src=x onerror="window.__xss=(window.__xss||0)+1">',
    '<script>window.__xss=(window.__xss||0)+1</script>',
    '"><svg onload="window.__xss=(window.__xss||0)+1">',
    'javascript:window.__xss=1',
    '{{constructor.constructor("window.__xss=1")()}}',
  ];

  test('the server sends a strict Content-Security-Policy and security headers', async ({ page }) => {
    const response = await page.goto('/home');
    const headers = response!.headers();
    // The page's one inline script, the pre-paint script, by its hash (e2e/prerender.spec.ts checks every page).
    const prePaint = /<script>([\s\S]*?)<\/script>/.exec(await response!.text())?.[1] ?? '';
    const prePaintHash = createHash('sha256').update(prePaint, 'utf8').digest('base64');
    // Whole values, directive by directive: a directive dropped or loosened (default-src, form-action,
    // a permission) fails here, where a check for one fragment would stay green.
    expect(headers['content-security-policy']?.split('; ')).toEqual([
      "default-src 'self'",
      `script-src 'self' 'sha256-${prePaintHash}'`,
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self' wss://events.circle.example.org",
      "worker-src 'self'",
      "manifest-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ]);
    expect(headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()');
    expect(headers['x-content-type-options']).toBe('nosniff');
    // Other sites learn the origin at most, never a path that may name a member's record.
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(headers['x-frame-options']).toBe('DENY');
  });

  test('script and HTML payloads in every profile and collection field render as text and never run', async ({ page, baseURL }) => {
    await collectCspViolations(page);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const payload = PAYLOADS.join(' ');
    // Collections, straight through the API as the admin: notifications, symbols (after freeing a slot), accounts.
    const authorization = await authorizationAt(baseURL!, 'ada');
    await fetch(`${baseURL}/api/symbols/3`, { method: 'DELETE', headers: { authorization } });
    await fetch(`${baseURL}/api/accounts/3`, { method: 'DELETE', headers: { authorization } });
    const post = (path: string, body: unknown) =>
      fetch(`${baseURL}/api/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    expect(
      await post('notifications', { title: PAYLOADS[0], body: payload, level: 'warning', read: false, createdAt: '2026-11-21T10:00:00Z' }),
    ).toBe(201);
    expect(await post('symbols', { code: 'XSS', entity: PAYLOADS[1] })).toBe(201);
    expect(await post('accounts', { name: PAYLOADS[2], currency: 'EUR', balance: 1 })).toBe(201);

    // The profile, through the form.
    await presetSignedIn(page);
    await page.goto('/profile');
    await page.getByLabel('Display name').fill(PAYLOADS[0]!.slice(0, 50));
    await page.getByLabel('Username').fill('xss_test');
    await page.getByLabel('Email').fill('x@example.org');
    await page.getByLabel('About you').fill(payload.slice(0, 280));
    await page.getByLabel('Interests').fill(PAYLOADS.map((p) => p.slice(0, 24).replaceAll(',', ' ')).join(', '));
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByRole('heading', { name: PAYLOADS[0]!.slice(0, 50) })).toBeVisible();

    await page.goto('/home');
    await expect(page.getByText(PAYLOADS[0]!).first()).toBeVisible();
    await page.goto('/dashboard');
    await expect(page.getByText(PAYLOADS[1]!, { exact: true })).toBeVisible();
    await expect(page.getByText(PAYLOADS[2]!, { exact: true })).toBeVisible();
    await page.goto('/admin/notifications');
    await expect(page.getByRole('table')).toContainText(PAYLOADS[0]!);

    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    // No element the payloads could have made; the page's one inline script, the pre-paint script, is in <head>.
    expect(await page.locator('img[src="x"], svg[onload], body script:not([src])').count()).toBe(0);
    expect(await page.locator('script:not([src])').count()).toBe(1);
    expect(dialogs).toBe(0);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('the built app runs under the policy with no violation on any screen', async ({ page }) => {
    await collectCspViolations(page);
    await page.addInitScript(() => localStorage.setItem('auth.isLoggedIn', 'true'));
    for (const path of ['/home', '/profile', '/settings', '/dashboard', '/admin', '/admin/symbols', '/sign-in', '/404']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await cspViolations(page), path).toEqual([]);
    }
  });
});
