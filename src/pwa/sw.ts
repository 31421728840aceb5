/// <reference lib="webworker" />
import { cleanupOutdatedCaches, createHandlerBoundToURL, getCacheKeyForURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { pageFileFor } from '../config/page-files';
import { ApiError } from '../api/errors';
import { createApiClient } from '../api/client';
import { bearerMiddleware } from '../api/credentials';
import { readSession } from '../api/session-store';
import {
  clearPendingSave,
  isConflicted,
  markConflict,
  OUTBOX_SYNC_TAG,
  readPendingSave,
  sendPendingSave,
  withOutboxLock,
} from '../profile/pending-save';

const API_CACHE = 'api-reads';
const ASSET_CACHE = 'assets';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

// The app shell: every built file, revisioned, so an update downloads only what changed.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Each app route gets its prerendered page from the precache, online or not, as the server serves
// it (src/config/page-files.ts), when the precache holds it; any other gets the app shell, which
// the app, already in, renders the route over. (The build precaches the shell only: the pages'
// markup is for a first visit, before there is a worker.)
const pages = new Map<string, ReturnType<typeof createHandlerBoundToURL>>();
const pageFor = (pathname: string) => {
  const wanted = pageFileFor(pathname);
  const file = getCacheKeyForURL(wanted) ? wanted : '/index.html';
  let handler = pages.get(file);
  if (!handler) {
    handler = createHandlerBoundToURL(file);
    pages.set(file, handler);
  }
  return handler;
};
registerRoute(
  new NavigationRoute((options) => pageFor(options.url.pathname)(options), {
    // The identity provider's pages under /oidc are the server's, never the app's shell.
    denylist: [/^\/api\//, /^\/oidc(?:\/|$)/, /^\/assets\/ui-config\.json$/],
  }),
);

// One expiration for the member's reads, avatars included: one plugin per cache keeps one count.
const apiExpiration = new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 });

// An avatar: its URL changes with the image (openapi.yaml, Profile.avatar; the mock's carries `?v=`),
// so the device's copy is the image and a reload shows it without waiting for the network. Kept with
// the other reads, so that sign-out removes it with them.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.endsWith('/avatar') && url.searchParams.has('v') && request.method === 'GET',
  new CacheFirst({ cacheName: API_CACHE, plugins: [new CacheableResponsePlugin({ statuses: [200] }), apiExpiration] }),
);

// API reads: the network first, the last answer when offline. Writes are never cached
// (registerRoute matches GET only by default).
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.startsWith('/api/') && request.method === 'GET',
  new NetworkFirst({
    cacheName: API_CACHE,
    networkTimeoutSeconds: 6,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), apiExpiration],
  }),
);

// Built files left out of the precache (the catalogues other than English): their names are hashed,
// so once fetched they never change.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.startsWith('/assets/') && request.destination === 'script',
  new CacheFirst({
    cacheName: ASSET_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), new ExpirationPlugin({ maxEntries: 20 })],
  }),
);

// The remote UI configuration: fresh when possible, the last copy offline.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === '/assets/ui-config.json',
  new NetworkFirst({ cacheName: 'ui-config', networkTimeoutSeconds: 4, plugins: [new CacheableResponsePlugin({ statuses: [200] })] }),
);

/**
 * Stores what the page fetched before this worker controlled it: API reads, and built files
 * the precache leaves out. Without this, the first visit would not be all there offline.
 */
async function warm(cacheName: string, urls: unknown, accept: (url: URL) => boolean, headers: HeadersInit = {}): Promise<void> {
  if (!Array.isArray(urls)) return;
  const cache = await caches.open(cacheName);
  await Promise.all(
    urls.slice(0, 30).map(async (raw) => {
      try {
        const url = new URL(String(raw));
        if (url.origin !== self.location.origin || !accept(url) || (await matchPrecache(url.href))) return;
        const response = await fetch(url, { credentials: 'same-origin', headers });
        if (response.status === 200) await cache.put(url, response);
      } catch {
        // Offline already, or the read fails now: the next visit will cache it.
      }
    }),
  );
}

/** The member's access token as the page stored it, for the reads a session is needed for (the profile). */
async function authorization(): Promise<HeadersInit> {
  const session = await readSession().catch(() => null);
  return session?.accessToken ? { authorization: `Bearer ${session.accessToken}` } : {};
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; urls?: unknown; assets?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  // A page the first activation missed asks to be taken under control (see pwa/register.ts).
  if (data?.type === 'CLAIM') event.waitUntil(self.clients.claim());
  if (data?.type === 'WARM') {
    event.waitUntil(
      Promise.all([
        authorization().then((headers) => warm(API_CACHE, data.urls, (url) => url.pathname.startsWith('/api/'), headers)),
        warm(ASSET_CACHE, data.assets, (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')),
      ]),
    );
  }
});

// The first install takes control at once so the app works offline from the first visit;
// later versions wait for the user's Refresh.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/**
 * Background Sync: a profile save queued offline is sent by the worker when the network is
 * back, even with no page open. A page sending it at the same time is held off by the lock.
 */
async function sendQueuedSave(): Promise<void> {
  await withOutboxLock(async () => {
    const save = await readPendingSave();
    // A save in conflict waits for the member's choice in the page: never replayed as it was.
    if (!save || isConflicted(save)) return;
    // The cookie store is the worker's only way to read the XSRF token the page would echo.
    const cookies = (self as unknown as { cookieStore?: { get(name: string): Promise<{ value: string } | null> } }).cookieStore;
    const token = await cookies?.get('XSRF-TOKEN').catch(() => null);
    // The member's access token as the page stored it. An expired one is refused (401): the save
    // then stays queued, and the page sends it once it has renewed the session.
    const session = await readSession();
    const client = createApiClient({
      baseUrl: save.apiBase,
      pageOrigin: () => self.location.origin,
      cookies: () => (token?.value ? `XSRF-TOKEN=${token.value}` : ''),
      use: [
        bearerMiddleware(
          () => new URL(save.apiBase, self.location.origin).href,
          async () => session?.accessToken ?? null,
        ),
      ],
    });
    try {
      await sendPendingSave(client, save);
    } catch (error) {
      // The profile changed elsewhere since the edit (412, its If-Match is stale): not retried, not
      // forced. The save stays, marked, and the page puts both versions before the member.
      if (error instanceof ApiError && error.status === 412) {
        await markConflict(save);
        for (const page of await self.clients.matchAll({ type: 'window' })) page.postMessage({ type: 'OUTBOX_CONFLICT' });
        return;
      }
      // A refusal (4xx) stays queued: the page shows the reason and gives the fields back.
      if (error instanceof ApiError && error.status < 500) return;
      // A network failure or a server error throws: the browser retries the sync later.
      throw error;
    }
    await clearPendingSave();
    const windows = await self.clients.matchAll({ type: 'window' });
    for (const client of windows) client.postMessage({ type: 'OUTBOX_SENT', kind: save.kind, id: save.id });
  });
}

self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag: string };
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(sendQueuedSave());
});

interface PushPayload {
  title?: string;
  body?: string;
  url?: string;
  tag?: string;
}

function readPush(data: PushMessageData | null): PushPayload {
  if (!data) return {};
  try {
    const parsed: unknown = data.json();
    return parsed && typeof parsed === 'object' ? (parsed as PushPayload) : { body: String(parsed) };
  } catch {
    return { body: data.text() };
  }
}

self.addEventListener('push', (event) => {
  const payload = readPush(event.data);
  const url = typeof payload.url === 'string' && payload.url.startsWith('/') ? payload.url : '/home';
  event.waitUntil(
    self.registration.showNotification(typeof payload.title === 'string' ? payload.title : 'Circle', {
      body: typeof payload.body === 'string' ? payload.body : '',
      icon: '/pwa-192x192.png',
      badge: '/pwa-64x64.png',
      tag: typeof payload.tag === 'string' ? payload.tag : undefined,
      data: { url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data as { url?: string } | null)?.url ?? '/home', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const existing = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (existing) {
        // Focus needs the click's user activation; without it the window is still taken there.
        await existing.focus().catch(() => undefined);
        if (existing.url !== target) await existing.navigate(target).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
