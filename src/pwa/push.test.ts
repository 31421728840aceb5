import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config/load';
import { disableNotifications, enableNotifications, notificationsEnabled } from '../state/preference';
import { PushError, applicationServerKey, subscribeToPush, unsubscribeFromPush } from './push';

const collections = {
  list: vi.fn<(name: string, query: { endpoint: string }) => Promise<{ id: string }[]>>(),
  create: vi.fn<(name: string, body: unknown) => Promise<unknown>>(),
  remove: vi.fn<(name: string, id: string) => Promise<void>>(),
};

vi.mock('../api/instance', () => ({ api: { collections: () => collections } }));

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
  collections.list.mockReset().mockResolvedValue([]);
  collections.create.mockReset().mockResolvedValue({});
  collections.remove.mockReset().mockResolvedValue(undefined);
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
    expect(collections.create).not.toHaveBeenCalled();
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
    expect(collections.list).toHaveBeenCalledWith('subscription', { endpoint: COMPLETE.endpoint });
    expect(collections.create).toHaveBeenCalledTimes(1);
    expect(collections.create).toHaveBeenCalledWith('subscription', {
      endpoint: COMPLETE.endpoint,
      expirationTime: 1_700_000_000_000,
      keys: { p256dh: 'P256', auth: 'AUTH' },
    });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('reuses the browser subscription it already has and sends no expiry as null', async () => {
    const manager = pushManager(subscription(COMPLETE));
    serviceWorker({ pushManager: manager });
    notifications('granted');

    await subscribeToPush();

    expect(manager.subscribe).not.toHaveBeenCalled();
    const [, body] = collections.create.mock.calls[0] ?? [];
    expect(body).toStrictEqual({ endpoint: COMPLETE.endpoint, expirationTime: null, keys: { p256dh: 'P256', auth: 'AUTH' } });
    expect(notificationsEnabled.value).toBe(true);
  });

  it('does not store a subscription the server already holds, and still turns notifications on', async () => {
    serviceWorker({ pushManager: pushManager(subscription(COMPLETE)) });
    notifications('granted');
    collections.list.mockResolvedValue([{ id: 'stored-1' }]);

    await subscribeToPush();

    expect(collections.create).not.toHaveBeenCalled();
    expect(notificationsEnabled.value).toBe(true);
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
    expect(collections.list).not.toHaveBeenCalled();
    expect(collections.create).not.toHaveBeenCalled();
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
    expect(collections.list).not.toHaveBeenCalled();
  });

  it('unsubscribes, deletes every stored copy of the subscription and turns notifications off', async () => {
    const current = subscription(COMPLETE);
    serviceWorker({ pushManager: pushManager(current) });
    collections.list.mockResolvedValue([{ id: 's1' }, { id: 's2' }]);

    await unsubscribeFromPush();

    expect(current.unsubscribe).toHaveBeenCalledTimes(1);
    expect(collections.list).toHaveBeenCalledWith('subscription', { endpoint: COMPLETE.endpoint });
    expect(collections.remove.mock.calls).toEqual([
      ['subscription', 's1'],
      ['subscription', 's2'],
    ]);
    expect(notificationsEnabled.value).toBe(false);
  });

  it.each([
    ['refuses', () => Promise.resolve(false)],
    ['throws', () => Promise.reject(new Error('boom'))],
  ] as [string, () => Promise<boolean>][])(
    'keeps the stored subscription and notifications when the browser %s to unsubscribe',
    async (_, unsubscribe) => {
      serviceWorker({ pushManager: pushManager(subscription(COMPLETE, unsubscribe)) });
      collections.list.mockResolvedValue([{ id: 's1' }]);

      const error = await rejection(unsubscribeFromPush());

      expect(error).toMatchObject({ message: 'Unsubscribe failed!', reason: 'unsubscribe-failed' });
      expect(collections.remove).not.toHaveBeenCalled();
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
