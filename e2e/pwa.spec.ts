import type { Page } from '@playwright/test';
import type { RunningServer } from '../server/index.ts';
import { test, expect, goOffline, goOnline, waitForServiceWorker, collectCspViolations, cspViolations } from './support/fixtures';
import { DIST, DIST_NEXT } from './support/global-setup';
import { authorizationAt } from './support/sign-in';
import { ADA, appRunning, holdScripts, presetSignedIn, seedProfile } from './support/pages';
import { routesFor } from '../testkit/index.ts';

// Signed in: each route's screen as a member sees it.
const ROUTES = routesFor('signedIn');

// Every test here is about the worker, installation, an update or going offline.
test.use({ serviceWorkers: 'allow' });

async function firstVisit(page: Page, path = '/home') {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await waitForServiceWorker(page);
}

/**
 * Offline for the app: the server drops every connection. (Chromium's offline emulation also
 * cuts the service worker off from its own caches on navigation, which a real outage does not.)
 */
function networkDown(server: RunningServer) {
  server.setReachable(false);
}

test.describe('service worker', () => {
  test('registers after the first render and controls the page, with no update prompt on first install', async ({
    page,
    consoleErrors,
  }) => {
    await collectCspViolations(page);
    // Record when the first screen is ready and when the app registers its worker, in the page's own clock.
    await page.addInitScript(() => {
      const w = window as unknown as { __order: string[] };
      w.__order = [];
      window.addEventListener('circle:first-screen', () => w.__order.push('first-screen'));
      const container = navigator.serviceWorker;
      const register = container.register.bind(container);
      container.register = (...args: Parameters<ServiceWorkerContainer['register']>) => {
        w.__order.push(`register ${String(args[0])}`);
        return register(...args);
      };
    });
    await firstVisit(page);
    // The worker's install (precache) must not compete with the first screen for the network.
    expect(await page.evaluate(() => (window as unknown as { __order: string[] }).__order)).toEqual(['first-screen', 'register /sw.js']);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope);
    expect(scope).toMatch(/\/$/);
    await expect(page.getByText('Newer version of the app is available')).toHaveCount(0);
    expect(await cspViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('every route reloads offline after the first visit, with the last API answers', async ({ page, server }) => {
    await presetSignedIn(page);
    await firstVisit(page);
    // The notifications on home come from the API; seen once online, they are shown offline too.
    await expect(page.getByText('Maintenance on Sunday')).toBeVisible();
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('api-reads')).keys()).length)).toBeGreaterThan(0);
    networkDown(server);
    for (const route of ROUTES) {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1 }), route.path).toHaveText(route.heading);
    }
    await page.goto('/home');
    await expect(page.getByText('Maintenance on Sunday')).toBeVisible();
    server.setReachable(true);
  });

  test("the member's profile, read before the worker took control, is handed to it and cached with the member's token", async ({
    page,
    request,
    consoleErrors,
  }) => {
    await seedProfile(request);
    // Signed in and on the profile before any worker: the read is the page's own, with its token.
    await presetSignedIn(page);
    await page.goto('/profile');
    await expect(page.getByRole('article', { name: ADA.displayName })).toBeVisible();
    await waitForServiceWorker(page);
    // The worker warms its cache with the reads the page had made: the profile's needs the token
    // (without it the server answers 401, which the strict server counts as the app's fault).
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('api-reads')).keys()).map((r) => new URL(r.url).pathname)))
      .toContain('/api/user/profile/myprofile');
    expect(consoleErrors).toEqual([]);
  });

  test('an unknown path offline still reaches the 404 screen', async ({ page, server }) => {
    await firstVisit(page);
    networkDown(server);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    server.setReachable(true);
  });

  test('API writes are never cached', async ({ page }) => {
    await presetSignedIn(page);
    await firstVisit(page, '/settings');
    await page.getByRole('link', { name: 'Profile' }).first().click();
    await page.getByLabel('Display name').fill('Ada Lovelace');
    await page.getByLabel('Username').fill('ada_l');
    await page.getByLabel('Email').fill('ada@example.org');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    await page.getByRole('link', { name: 'Home' }).first().click();
    await expect(page.getByText('Maintenance on Sunday')).toBeVisible();
    const cachedReads = () =>
      page.evaluate(async () => {
        const cache = await caches.open('api-reads');
        return (await cache.keys()).map((r) => `${r.method} ${new URL(r.url).pathname}`);
      });
    // The worker stores an answer once it has handed it to the page: the page may show it first.
    await expect.poll(cachedReads).toEqual(expect.arrayContaining(['GET /api/notifications', 'GET /api/user/profile/myprofile']));
    const cached = await cachedReads();
    for (const entry of cached) expect(entry).toMatch(/^GET \/api\//);
    expect(cached.some((entry) => entry.includes('/api/user/profile/') && !entry.endsWith('myprofile') && !entry.includes('/avatar'))).toBe(
      false,
    );
  });
});

test.describe('update', () => {
  test('a new deploy shows the update snackbar; Refresh reloads once into the new version and keeps a draft', async ({ page, server }) => {
    await presetSignedIn(page);
    await firstVisit(page, '/profile');
    expect(await page.evaluate(() => document.documentElement.dataset.build)).not.toBe('next');
    // Something typed before the update must survive the reload it causes.
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Username').fill('grace_h');

    server.deploy(DIST_NEXT);
    // The app checks for an update at start: a reload (or coming back to the tab) finds it.
    await page.reload();
    const snackbar = page.getByTestId('snackbar').filter({ hasText: 'Newer version of the app is available' });
    await expect(snackbar).toBeVisible({ timeout: 20_000 });

    let loads = 0;
    page.on('load', () => loads++);
    const reloaded = page.waitForEvent('load');
    await snackbar.getByRole('button', { name: 'Refresh' }).click();
    await reloaded;
    expect(await page.evaluate(() => document.documentElement.dataset.build)).toBe('next');
    // The new worker controls the page now, and that did not cause a second reload.
    await waitForServiceWorker(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your profile');
    expect(loads).toBe(1);
    await expect(page.getByLabel('Display name')).toHaveValue('Grace Hopper');
    await expect(page.getByLabel('Username')).toHaveValue('grace_h');
    await expect(page.getByText('Newer version of the app is available')).toHaveCount(0);
    server.deploy(DIST);
  });
});

test.describe('install', () => {
  /** A synthetic install prompt: its prompt() fails `failures` times, then the user accepts. */
  async function offerInstall(page: Page, failures: number) {
    await page.evaluate((failuresLeft) => {
      const w = window as unknown as { __promptCalls: number };
      w.__promptCalls = 0;
      let left = failuresLeft;
      const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
      event.platforms = ['web'];
      event.prompt = async () => {
        w.__promptCalls++;
        if (left-- > 0) throw new Error('NotAllowedError');
      };
      event.userChoice = Promise.resolve({ outcome: 'accepted', platform: 'web' });
      window.dispatchEvent(event);
      (window as unknown as { __defaultPrevented: boolean }).__defaultPrevented = event.defaultPrevented;
    }, failures);
  }

  test('the prompt is captured, shown at once, and the Install button offers it again when that failed', async ({ page }) => {
    await page.goto('/home');
    await appRunning(page);
    await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
    await offerInstall(page, 1);
    expect(await page.evaluate(() => (window as unknown as { __defaultPrevented: boolean }).__defaultPrevented)).toBe(true);
    // Shown automatically once stored; it failed ('errored'), so the buttons offer it.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __promptCalls: number }).__promptCalls)).toBe(1);
    const buttons = page.getByRole('button', { name: 'Install app' });
    await expect(buttons).toHaveCount(2); // top bar and home
    await buttons.last().click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __promptCalls: number }).__promptCalls)).toBe(2);
    // Accepted: a prompt can be used once, so the buttons go.
    await expect(buttons).toHaveCount(0);
  });

  test('a prompt the browser offers before the app has loaded is kept for it and offered once it runs', async ({ page, consoleErrors }) => {
    const release = await holdScripts(page);
    await page.goto('/home', { waitUntil: 'commit' });
    // The pre-paint script listens from the start (it records into window.__circleEarlyInstall).
    await page.waitForFunction(() => '__circleEarlyInstall' in window);
    await offerInstall(page, 0);
    expect(await page.evaluate(() => (window as unknown as { __defaultPrevented: boolean }).__defaultPrevented)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __promptCalls: number }).__promptCalls)).toBe(0);
    release();
    // The app takes it over and shows it at once; accepted, no button is left.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __promptCalls: number }).__promptCalls)).toBe(1);
    await appRunning(page);
    await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
    // The prerendered home has no install offer: hydrating it with a prompt in hand matched all the same.
    expect(consoleErrors).toEqual([]);
  });

  test('appinstalled marks the app installed for good: no prompt afterwards, even after a reload', async ({ page }) => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event('appinstalled')));
    await expect(page.getByText('Circle is installed on this device.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('app.installed'))).toBe('true');
    await page.reload();
    await expect(page.getByText('Circle is installed on this device.')).toBeVisible();
    await offerInstall(page, 0);
    await expect(page.getByRole('button', { name: 'Install app' })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __promptCalls: number }).__promptCalls)).toBe(0);
  });
});

test.describe('online status', () => {
  test('the shell follows the browser going offline and back online', async ({ page, context }) => {
    await page.goto('/home');
    const status = page.getByTestId('online-status');
    // Going offline before the app's code is in would test the browser's failed loads instead of the app's status.
    await appRunning(page);
    // Online is the usual state: no chip takes the bar's room for it.
    await expect(status).toHaveCount(0);
    await expect(page.getByRole('banner')).not.toContainText('Online');
    await context.setOffline(true);
    await expect(status).toHaveText('Offline');
    await expect(page.getByTestId('snackbar')).toContainText('You are offline');
    await goOnline(page);
    await expect(page.getByTestId('snackbar')).toContainText('You are back online.');
    await expect(status).toHaveCount(0);
  });

  test('turning notifications on offline says it needs a connection', async ({ page }) => {
    await firstVisit(page, '/settings');
    await goOffline(page);
    await page.getByRole('switch', { name: 'Push notifications' }).click();
    await expect(page.getByTestId('snackbar')).toContainText('You are offline: this needs a connection.');
    await expect(page.getByRole('switch', { name: 'Push notifications' })).toHaveAttribute('aria-checked', 'false');
  });
});

test.describe('push notifications', () => {
  /** Stubs the browser's push service at the edge: PushManager answers without a push server. */
  async function stubPush(page: Page, options: { unsubscribeResult?: boolean } = {}) {
    await page.addInitScript((opts) => {
      const state = { subscribed: false, unsubscribeCalls: 0, subscribeKey: '' };
      (window as unknown as { __push: typeof state }).__push = state;
      const subscription = {
        endpoint: 'https://push.example.org/send/e2e-device',
        expirationTime: null,
        toJSON() {
          return { endpoint: this.endpoint, expirationTime: null, keys: { p256dh: 'BPb1e2eKeyOfTheDevice', auth: 'authSecret1' } };
        },
        async unsubscribe() {
          state.unsubscribeCalls++;
          if (opts.unsubscribeResult === false) return false;
          state.subscribed = false;
          return true;
        },
      };
      PushManager.prototype.subscribe = async (init?: PushSubscriptionOptionsInit) => {
        const key = init?.applicationServerKey;
        state.subscribeKey = key instanceof Uint8Array ? String(key.length) : '';
        state.subscribed = true;
        return subscription as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => (state.subscribed ? subscription : null) as PushSubscription | null;
    }, options);
  }

  /** What the API holds, as the admin reads it (only an admin reads push subscriptions). */
  async function storedSubscriptions(baseURL: string) {
    const headers = { authorization: await authorizationAt(baseURL, 'ada') };
    return (await (await fetch(`${baseURL}/api/subscription`, { headers })).json()) as Array<{ endpoint: string }>;
  }

  test('enabling subscribes with the public key and stores the subscription; disabling removes it', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['notifications']);
    await stubPush(page);
    await firstVisit(page, '/settings');
    const toggle = page.getByRole('switch', { name: 'Push notifications' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('snackbar')).toContainText('Push notifications are on.');
    // A P-256 public key is 65 bytes.
    expect(await page.evaluate(() => (window as unknown as { __push: { subscribeKey: string } }).__push.subscribeKey)).toBe('65');
    expect((await storedSubscriptions(baseURL!)).map((s) => s.endpoint)).toEqual(['https://push.example.org/send/e2e-device']);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('preference')))!).enableNotifications).toBe(true);
    // A guest: the device keeps the key its create answered, to remove the subscription with it.
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('push.subscription')))!)).toMatchObject({
      endpoint: 'https://push.example.org/send/e2e-device',
      key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(await storedSubscriptions(baseURL!)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('push.subscription'))).toBeNull();
  });

  test('disabling when the browser holds no subscription says so', async ({ page, context }) => {
    await context.grantPermissions(['notifications']);
    await stubPush(page);
    await page.addInitScript(() =>
      localStorage.setItem('preference', JSON.stringify({ language: 'en', activeThemeName: 'INDIGO_PINK', enableNotifications: true })),
    );
    await firstVisit(page, '/settings');
    await page.getByRole('switch', { name: 'Push notifications' }).click();
    await expect(page.getByTestId('snackbar')).toContainText('Not subscribed to push notifications.');
  });

  test('a failed unsubscribe says so and keeps notifications on', async ({ page, context }) => {
    await context.grantPermissions(['notifications']);
    await stubPush(page, { unsubscribeResult: false });
    await firstVisit(page, '/settings');
    const toggle = page.getByRole('switch', { name: 'Push notifications' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await toggle.click();
    await expect(page.getByTestId('snackbar')).toContainText('Unsubscribe failed!');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  });

  test('without a service worker the seed message is shown', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(ServiceWorkerContainer.prototype, 'getRegistration', { value: async () => undefined });
    });
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Push notifications' }).click();
    await expect(page.getByTestId('snackbar')).toContainText('Service workers are disabled or not supported by this browser');
  });

  test('the worker shows an incoming push and a click on it opens the app at its URL', async ({ page, context }) => {
    await context.grantPermissions(['notifications']);
    await firstVisit(page, '/settings');
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    // The worker's globals, typed here: this file is compiled with the DOM library, not WebWorker's.
    type WorkerScope = {
      registration: ServiceWorkerRegistration;
      dispatchEvent(event: Event): boolean;
      PushEvent: new (type: string, init: { data: string }) => Event;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    await worker.evaluate(async () => {
      const sw = self as unknown as WorkerScope;
      const data = JSON.stringify({ title: 'Study group tonight', body: 'Room 4, 19:00', url: '/dashboard' });
      const event = new sw.PushEvent('push', { data });
      const pending: Promise<unknown>[] = [];
      Object.defineProperty(event, 'waitUntil', { value: (p: Promise<unknown>) => pending.push(p) });
      sw.dispatchEvent(event);
      await Promise.all(pending);
    });
    const shown = await worker.evaluate(async () =>
      (await (self as unknown as WorkerScope).registration.getNotifications()).map((n) => `${n.title}: ${n.body}`),
    );
    expect(shown).toEqual(['Study group tonight: Room 4, 19:00']);

    await worker.evaluate(async () => {
      const sw = self as unknown as WorkerScope;
      const [notification] = await sw.registration.getNotifications();
      const event = new sw.NotificationEvent('notificationclick', { notification: notification! });
      const pending: Promise<unknown>[] = [];
      Object.defineProperty(event, 'waitUntil', { value: (p: Promise<unknown>) => pending.push(p) });
      sw.dispatchEvent(event);
      await Promise.all(pending);
    });
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
