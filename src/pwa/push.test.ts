import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config/load';
import { disableNotifications, enableNotifications, notificationsEnabled } from '../state/preference';
import { PushError, applicationServerKey, subscribeToPush, unsubscribeFromPush } from './push';

type Result = { data?: unknown; error?: unknown; response: Response };
const client = {
  POST: vi.fn<(path: string, init: { body: unknown }) => Promise<Result>>(),
  DELETE: vi.fn<(path: string, init: { params: unknown }) => Promise<Result>>(),
};
vi.mock('../api/instance', () => ({ api: { client: () => client } }));
const KEY = 'k'.repeat(43);
const answer = (status: number, data?: unknown, headers: Record<string, string> = {}): Result => ({
  ...(status < 300 ? { data } : { error: data }),
  response: new Response(null, { status: status === 204 ? 204 : 200, headers }),
});
// Response cannot be made with every status (a 404 needs no body): patch `ok` and `status` on one.
const failed = (status: number, message: string): Result => {
  const response = new Response(null, { status: 200 });
  Object.defineProperties(response, { ok: { value: false }, status: { value: status } });
  return { error: { status, error: 'Error', message }, response };
};
/** What the device sent: each store's body, each removal's id and key. */
const stores = () => client.POST.mock.calls.map(([path, init]) => [path, init.body]);
const removals = () => client.DELETE.mock.calls.map(([path, init]) => [path, init.params]);
const kept = () => JSON.parse(localStorage.getItem('push.subscription') ?? 'null') as unknown;

interface FakeSubscription {
  endpoint: string;
  toJSON: () => PushSubscriptionJSON;
  unsubscribe: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
}

function subscription(json: PushSubscriptionJSON, unsubscribe: () => Promise<boolean> = () => Promise.resolve(true)): FakeSubscription {
  return { endpoint: json.endpoint ?? '', toJSON: () => json, unsubscribe: vi.fn(unsubscribe) };
}

const COMPLETE: PushSubscriptionJSON = { endpoint: 'https://push.example/abc', keys: { p256dh: 'P256', auth: 'AUTH' } };

function pushManager(existing: FakeSubscription | null, created: FakeSubscription = subscription(COMPLETE)) {
  return {
    getSubscription: vi.fn(() => Promise.resolve(existing)),
    subscribe: vi.fn((_options: PushSubscriptionOptionsInit) => Promise.resolve(created)),
  };
}

/** Installs a service worker container whose registration is `reg` (undefined: none registered). */
function serviceWorker(reg: object | undefined) {
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: () => Promise.resolve(reg) },
  });
}

function notifications(permission: NotificationPermission) {
  const requestPermission = vi.fn(() => Promise.resolve(permission));
  vi.stubGlobal('Notification', { requestPermission });
  return requestPermission;
}

async function rejection(promise: Promise<unknown>): Promise<PushError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PushError);
  return error as PushError;
}

beforeEach(() => {
  client.POST.mockReset().mockResolvedValue(answer(201, { id: '7' }, { 'subscription-key': KEY }));
  client.DELETE.mockReset().mockResolvedValue(answer(204));
  localStorage.removeItem('push.subscription');
  disableNotifications();
});

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
});

describe('applicationServerKey', () => {
  it('decodes URL-safe base64 without padding into the raw key bytes', () => {
    // '-_8' is '+/8=' in standard base64: the bytes 0xfb 0xff.
    expect(Array.from(applicationServerKey('-_8'))).toEqual([0xfb, 0xff]);
    expect(Array.from(applicationServerKey('AQID'))).toEqual([1, 2, 3]);
    // Every '-' and '_' is translated, not only the first.
    expect(Array.from(applicationServerKey('--__--__'))).toEqual([0xfb, 0xef, 0xff, 0xfb, 0xef, 0xff]);
    expect(applicationServerKey(config().webPushPublicKey)).toHaveLength(65);
  });
});

describe('subscribeToPush', () => {
  it('explains that push needs a service worker when the browser has none', async () => {
    const error = await rejection(subscribeToPush());
    expect(error).toMatchObject({
      name: 'PushError',
      message: 'Service workers are disabled or not supported by this browser',
      reason: 'no-service-worker',
    });
  });

  it('explains that push needs a service worker when none is registered', async () => {
    serviceWorker(undefined);
    const error = await rejection(subscribeToPush());
    expect(error).toMatchObject({ message: 'Service workers are disabled or not supported by this browser', reason: 'no-service-worker' });
  });

  it('says push messaging is unsupported when the registration has no push manager', async () => {
    serviceWorker({});
    notifications('granted');
    const error = await rejection(subscribeToPush());
    expect(error).toMatchObject({ message: 'Push messaging is not supported by this browser', reason: 'unsupported' });
    expect(notificationsEnabled.value).toBe(false);
  });

  it('says notifications are unsupported when the browser has no Notification API', async () => {
    serviceWorker({ pushManager: pushManager(null) });
    const error = await rejection(subscribeToPush());
    expect(error).toMatchObject({ message: 'Notifications are not supported by this browser', reason: 'unsupported' });
  });

  it('subscribes nothing and stores nothing when permission is refused', async () => {
    const manager = pushManager(null);
    serviceWorker({ pushManager: manager });
    notifications('denied');
    const error = await rejection(subscribeToPush());
    expect(error).toMatchObject({ message: 'Notification permission was not granted', reason: 'denied' });
    expect(manager.subscribe).not.toHaveBeenCalled();
    expect(client.POST).not.toHaveBeenCalled();
    expect(notificationsEnabled.value).toBe(false);
  });

  it('subscribes with the configured key, stores the subscription and turns notifications on', async () => {
    const created = subscription({ ...COMPLETE, expirationTime: 1_700_000_000_000 });
    const manager = pushManager(null, created);
    serviceWorker({ pushManager: manager });
    const requestPermission = notifications('granted');

    await subscribeToPush();

    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(manager.subscribe).toHaveBeenCalledWith({
      userVisibleOnly: true,
      applicationServerKey: applicationServerKey(config().webPushPublicKey),
    });
    expect(stores()).toEqual([
      ['/subscription', { endpoint: COMPLETE.endpoint, expirationTime: 1_700_000_000_000, keys: { p256dh: 'P256', auth: 'AUTH' } }],
    ]);
    // Only an admin reads subscriptions back: the device keeps the id and the key that removes it.
    expect(kept()).toEqual({ endpoint: COMPLETE.endpoint, id: '7', key: KEY });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('reuses the browser subscription it already has and sends no expiry as null', async () => {
    const manager = pushManager(subscription(COMPLETE));
    serviceWorker({ pushManager: manager });
    notifications('granted');

    await subscribeToPush();

    expect(manager.subscribe).not.toHaveBeenCalled();
    const [, body] = stores()[0] ?? [];
    expect(body).toStrictEqual({ endpoint: COMPLETE.endpoint, expirationTime: null, keys: { p256dh: 'P256', auth: 'AUTH' } });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('does not store again a subscription this device stored, and still turns notifications on', async () => {
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    notifications('granted');
    localStorage.setItem('push.subscription', JSON.stringify({ endpoint: COMPLETE.endpoint, id: '3', key: KEY }));

    await subscribeToPush();

    expect(client.POST).not.toHaveBeenCalled();
    expect(kept()).toEqual({ endpoint: COMPLETE.endpoint, id: '3', key: KEY });
    expect(notificationsEnabled.value).toBe(true);
  });

  it.each([
    ['another endpoint', { endpoint: 'https://push.example/old', id: '3', key: KEY }],
    ['no id', { endpoint: COMPLETE.endpoint, key: KEY }],
    ['no object', 'text'],
  ])('stores the subscription when what the device kept is for %s', async (_, value) => {
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    notifications('granted');
    localStorage.setItem('push.subscription', JSON.stringify(value));

    await subscribeToPush();

    expect(client.POST).toHaveBeenCalledTimes(1);
    expect(kept()).toEqual({ endpoint: COMPLETE.endpoint, id: '7', key: KEY });
  });

  it.each([
    ['no endpoint', { keys: { p256dh: 'P256', auth: 'AUTH' } }],
    ['no keys', { endpoint: COMPLETE.endpoint }],
    ['no p256dh key', { endpoint: COMPLETE.endpoint, keys: { auth: 'AUTH' } }],
    ['no auth key', { endpoint: COMPLETE.endpoint, keys: { p256dh: 'P256' } }],
  ] as [string, PushSubscriptionJSON][])('drops an incomplete browser subscription (%s) without storing it', async (_, json) => {
    const incomplete = subscription(json);
    serviceWorker({ pushManager: pushManager(incomplete) });
    notifications('granted');

    const error = await rejection(subscribeToPush());

    expect(error).toMatchObject({ message: 'The browser returned an incomplete push subscription', reason: 'failed' });
    expect(incomplete.unsubscribe).toHaveBeenCalledTimes(1);
    expect(client.POST).not.toHaveBeenCalled();
    expect(notificationsEnabled.value).toBe(false);
  });
});

describe('unsubscribeFromPush', () => {
  beforeEach(() => enableNotifications());

  it('needs a service worker', async () => {
    const error = await rejection(unsubscribeFromPush());
    expect(error).toMatchObject({ reason: 'no-service-worker' });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('turns notifications off and says so when the browser holds no subscription', async () => {
    serviceWorker({ pushManager: pushManager(null) });
    const error = await rejection(unsubscribeFromPush());
    expect(error).toMatchObject({ message: 'Not subscribed to push notifications.', reason: 'not-subscribed' });
    expect(notificationsEnabled.value).toBe(false);
    expect(client.DELETE).not.toHaveBeenCalled();
  });

  it('unsubscribes, removes the stored subscription with its key, forgets it and turns notifications off', async () => {
    const current = subscription(COMPLETE);
    serviceWorker({ pushManager: pushManager(current) });
    localStorage.setItem('push.subscription', JSON.stringify({ endpoint: COMPLETE.endpoint, id: '3', key: KEY }));

    await unsubscribeFromPush();

    expect(current.unsubscribe).toHaveBeenCalledTimes(1);
    expect(removals()).toEqual([['/subscription/{id}', { path: { id: '3' }, header: { 'Subscription-Key': KEY } }]]);
    expect(kept()).toBeNull();
    expect(notificationsEnabled.value).toBe(false);
  });

  it('takes a subscription the API no longer holds (404) as removed; another failure keeps it and is thrown', async () => {
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    localStorage.setItem('push.subscription', JSON.stringify({ endpoint: COMPLETE.endpoint, id: '3', key: null }));
    client.DELETE.mockResolvedValueOnce(failed(404, 'gone'));
    await unsubscribeFromPush();
    // Without a key, no Subscription-Key header is sent.
    expect(removals()).toEqual([['/subscription/{id}', { path: { id: '3' }, header: {} }]]);
    expect(kept()).toBeNull();
    expect(notificationsEnabled.value).toBe(false);

    enableNotifications();
    localStorage.setItem('push.subscription', JSON.stringify({ endpoint: COMPLETE.endpoint, id: '3', key: KEY }));
    client.DELETE.mockResolvedValueOnce(failed(403, 'not yours'));
    await expect(unsubscribeFromPush()).rejects.toMatchObject({ name: 'ApiError', status: 403, message: 'not yours' });
    expect(kept()).toEqual({ endpoint: COMPLETE.endpoint, id: '3', key: KEY });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('a refused store (429) stores nothing on the device and leaves notifications off', async () => {
    disableNotifications();
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    notifications('granted');
    client.POST.mockResolvedValueOnce(failed(429, 'Too many push subscriptions stored from this client: try again in 60 s'));
    await expect(subscribeToPush()).rejects.toMatchObject({ name: 'ApiError', status: 429 });
    expect(kept()).toBeNull();
    expect(notificationsEnabled.value).toBe(false);
  });

  it('keeps a null key when the backend answered none', async () => {
    disableNotifications();
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    notifications('granted');
    client.POST.mockResolvedValueOnce(answer(201, { id: '9' }));
    await subscribeToPush();
    expect(kept()).toEqual({ endpoint: COMPLETE.endpoint, id: '9', key: null });
  });

  it('removes nothing on the API when this device stored nothing for the endpoint', async () => {
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    localStorage.setItem('push.subscription', JSON.stringify({ endpoint: 'https://push.example/old', id: '3', key: KEY }));
    await unsubscribeFromPush();
    expect(client.DELETE).not.toHaveBeenCalled();
    expect(notificationsEnabled.value).toBe(false);
  });

  it.each([
    ['refuses', () => Promise.resolve(false)],
    ['throws', () => Promise.reject(new Error('boom'))],
  ] as [string, () => Promise<boolean>][])(
    'keeps the stored subscription and notifications when the browser %s to unsubscribe',
    async (_, unsubscribe) => {
      serviceWorker({ pushManager: pushManager(subscription(COMPLETE, unsubscribe)) });
      localStorage.setItem('push.subscription', JSON.stringify({ endpoint: COMPLETE.endpoint, id: '3', key: KEY }));

      const error = await rejection(unsubscribeFromPush());

      expect(error).toMatchObject({ message: 'Unsubscribe failed!', reason: 'unsubscribe-failed' });
      expect(client.DELETE).not.toHaveBeenCalled();
      expect(notificationsEnabled.value).toBe(true);
    },
  );
});

describe('the messages of a freshly loaded module', () => {
  // The messages are set when the module loads: load it again to check them as a caller shows them.
  async function fresh() {
    vi.resetModules();
    return import('./push');
  }

  it('says push needs a service worker, that nothing was subscribed, and that unsubscribing failed', async () => {
    const push = await fresh();
    await expect(push.unsubscribeFromPush()).rejects.toMatchObject({
      message: 'Service workers are disabled or not supported by this browser',
      reason: 'no-service-worker',
    });
    serviceWorker({ pushManager: pushManager(null) });
    await expect(push.unsubscribeFromPush()).rejects.toMatchObject({
      message: 'Not subscribed to push notifications.',
      reason: 'not-subscribed',
    });
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE, () => Promise.resolve(false))) });
    await expect(push.unsubscribeFromPush()).rejects.toMatchObject({ message: 'Unsubscribe failed!', reason: 'unsubscribe-failed' });
  });
});
