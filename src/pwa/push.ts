import { unwrap } from '../api/client';
import { api } from '../api/instance';
import { ApiError } from '../api/errors';
import { config } from '../config/load';
import { PUSH_SUBSCRIPTION_KEY } from '../config/storage-keys';
import { readPersisted, removePersisted, writePersisted } from '../lib/persist';
import { disableNotifications, enableNotifications } from '../state/preference';

const NO_SERVICE_WORKER = 'Service workers are disabled or not supported by this browser';
const NOT_SUBSCRIBED = 'Not subscribed to push notifications.';
const UNSUBSCRIBE_FAILED = 'Unsubscribe failed!';

export class PushError extends Error {
  readonly reason: 'no-service-worker' | 'unsupported' | 'denied' | 'not-subscribed' | 'unsubscribe-failed' | 'failed';

  constructor(message: string, reason: PushError['reason']) {
    super(message);
    this.name = 'PushError';
    this.reason = reason;
  }
}

/** The URL-safe base64 VAPID key as the bytes PushManager.subscribe wants. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  // No padding is added: atob decodes unpadded base64 as well (the forgiving-base64 rule).
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  // Every character atob returns is one byte (0-255).
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container) throw new PushError(NO_SERVICE_WORKER, 'no-service-worker');
  const found = await container.getRegistration();
  if (!found) throw new PushError(NO_SERVICE_WORKER, 'no-service-worker');
  if (!('pushManager' in found)) throw new PushError('Push messaging is not supported by this browser', 'unsupported');
  return found;
}

/** Asks permission, subscribes with the configured public key and stores the subscription through the API. */
export async function subscribeToPush(): Promise<void> {
  const reg = await registration();
  if (typeof Notification === 'undefined') throw new PushError('Notifications are not supported by this browser', 'unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushError('Notification permission was not granted', 'denied');
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(config().webPushPublicKey) }));
  const json = subscription.toJSON();
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) {
    await subscription.unsubscribe();
    throw new PushError('The browser returned an incomplete push subscription', 'failed');
  }
  if (!storedSubscription(json.endpoint)) {
    const created = await api.client().POST('/subscription', {
      body: {
        endpoint: json.endpoint,
        expirationTime: json.expirationTime ?? null,
        keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
      },
    });
    const { id } = await unwrap(Promise.resolve(created));
    // Only an admin reads subscriptions back: the device keeps the id, and the key that removes it.
    writePersisted(PUSH_SUBSCRIPTION_KEY, { endpoint: json.endpoint, id, key: created.response.headers.get('subscription-key') });
  }
  enableNotifications();
}

/** Unsubscribes in the browser and deletes the stored subscription. */
export async function unsubscribeFromPush(): Promise<void> {
  const reg = await registration();
  const subscription = await reg.pushManager.getSubscription();
  if (!subscription) {
    disableNotifications();
    throw new PushError(NOT_SUBSCRIBED, 'not-subscribed');
  }
  const stored = storedSubscription(subscription.endpoint);
  // Stryker disable next-line ArrowFunction: a rejection read as undefined is as falsy as false, the same refusal
  const ok = await subscription.unsubscribe().catch(() => false);
  if (!ok) throw new PushError(UNSUBSCRIBE_FAILED, 'unsubscribe-failed');
  if (stored) {
    const { id, key } = stored;
    await unwrap(
      api.client().DELETE('/subscription/{id}', { params: { path: { id }, header: key ? { 'Subscription-Key': key } : {} } }),
    ).catch((error: unknown) => {
      // Already gone (an admin removed it, or the backend was reset) is as good as removed.
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
  }
  removePersisted(PUSH_SUBSCRIPTION_KEY);
  disableNotifications();
}

/** What this device stored for `endpoint` (the id and key its create answered), or null. */
function storedSubscription(endpoint: string): { id: string; key: string | null } | null {
  return readPersisted(
    PUSH_SUBSCRIPTION_KEY,
    (raw) => {
      const { endpoint: at, id, key } = (raw ?? {}) as Record<string, unknown>;
      return at === endpoint && typeof id === 'string' ? { id, key: typeof key === 'string' ? key : null } : null;
    },
    null,
  );
}
