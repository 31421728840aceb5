import { api } from '../api/instance';
import { config } from '../config/load';
import { disableNotifications, enableNotifications } from '../state/preference';

export const NO_SERVICE_WORKER = 'Service workers are disabled or not supported by this browser';
export const NOT_SUBSCRIBED = 'Not subscribed to push notifications.';
export const UNSUBSCRIBE_FAILED = 'Unsubscribe failed!';

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
  const collections = api.collections();
  const stored = await collections.list('subscription', { endpoint: json.endpoint });
  if (stored.length === 0) {
    await collections.create('subscription', {
      endpoint: json.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
    });
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
  const collections = api.collections();
  const stored = await collections.list('subscription', { endpoint: subscription.endpoint });
  // Stryker disable next-line ArrowFunction: a rejection read as undefined is as falsy as false, the same refusal
  const ok = await subscription.unsubscribe().catch(() => false);
  if (!ok) throw new PushError(UNSUBSCRIBE_FAILED, 'unsubscribe-failed');
  for (const record of stored) await collections.remove('subscription', record.id);
  disableNotifications();
}
