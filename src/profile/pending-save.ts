import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { type ProfileInput, type ProfilePatch, type SaveOptions, sendProfileSave, type TaggedProfile } from './requests';

/**
 * The profile save that could not reach the server, kept in IndexedDB (with its avatar file)
 * until it is sent. Shared by the page and the service worker, which both may send it: each
 * takes the Web Lock below first and reads the record again, so it is sent once.
 */
export type PendingProfileSave = (
  | { kind: 'create'; id?: undefined; fields: ProfileInput }
  | {
      kind: 'update';
      id: string;
      fields: ProfilePatch;
      /**
       * The ETag of the profile the edit was made on, its If-Match when replayed; null for a save
       * queued by a version of the app that kept no ETag, which is treated as a conflict.
       */
      ifMatch: string | null;
      /** The fields of that profile: what the member started from, to tell their changes from the server's. */
      base?: ProfilePatch;
      /**
       * The server answered 412 to its replay: the profile changed elsewhere meanwhile. It is not sent
       * again until the member has chosen what to keep (conflict-compare.ts).
       */
      conflict?: boolean;
    }
) & {
  avatar: Blob | null;
  /** Absolute URL of the API, as the page was configured when it queued the save. */
  apiBase: string;
  /** The save's Idempotency-Key: every attempt sends the same, so the server applies it once. */
  key?: string;
  queuedAt: number;
};

export const OUTBOX_LOCK = 'circle-profile-outbox';
export const OUTBOX_SYNC_TAG = 'circle-profile-outbox';
const KEY = 'profile';

let store: UseStore | null = null;
function outbox(): UseStore {
  store ??= createStore('circle', 'outbox');
  return store;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// IndexedDB gives back a Blob of the realm that reads it, which need not be this realm's Blob class.
const isBlobLike = (value: unknown): value is Blob =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Blob).size === 'number' &&
  typeof (value as Blob).arrayBuffer === 'function';

/** What IndexedDB holds, if it is a save this code can send; anything else counts as nothing queued. */
export function decodePendingSave(value: unknown): PendingProfileSave | null {
  if (!isRecord(value) || typeof value.apiBase !== 'string' || !isRecord(value.fields)) return null;
  if (value.kind !== 'create' && !(value.kind === 'update' && typeof value.id === 'string' && value.id !== '')) return null;
  // An avatar that did not survive storage is dropped; the typed fields are still worth sending.
  return {
    ...value,
    avatar: isBlobLike(value.avatar) ? value.avatar : null,
    key: typeof value.key === 'string' && value.key !== '' ? value.key : undefined,
    ...(value.kind === 'update'
      ? {
          ifMatch: typeof value.ifMatch === 'string' && value.ifMatch !== '' ? value.ifMatch : null,
          base: isRecord(value.base) ? value.base : undefined,
          conflict: value.conflict === true,
        }
      : {}),
  } as PendingProfileSave;
}

export async function readPendingSave(): Promise<PendingProfileSave | null> {
  return decodePendingSave(await get(KEY, outbox()));
}

export function writePendingSave(save: PendingProfileSave): Promise<void> {
  return set(KEY, save, outbox());
}

export function clearPendingSave(): Promise<void> {
  return del(KEY, outbox());
}

type SyncRegistration = ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };

/**
 * Asks the service worker to send the queued save once the network is back, even with no page open
 * (Background Sync, under OUTBOX_SYNC_TAG). Resolves false where there is no worker or no Background
 * Sync: the page then sends it on its next `online` event or start.
 */
export async function requestOutboxSync(): Promise<boolean> {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as SyncRegistration | undefined;
    // Stryker disable next-line ConditionalExpression,OptionalChaining: with no registration or no sync, register() throws into the catch, which resolves false too
    if (!registration?.sync) return false;
    await registration.sync.register(OUTBOX_SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` holding the outbox lock; where Web Locks are missing, it just runs. */
export async function withOutboxLock<T>(work: () => Promise<T>): Promise<T> {
  // navigator.locks exists in pages and in workers alike.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return work();
  return (await locks.request(OUTBOX_LOCK, work)) as T;
}

/** Whether a queued save must wait for the member's choice instead of being sent (see `conflict`). */
export const isConflicted = (save: PendingProfileSave): boolean =>
  save.kind === 'update' && (save.conflict === true || save.ifMatch === null);

/** Keeps a queued save the server refused with 412, marked so that no replay sends it again. */
export function markConflict(save: PendingProfileSave): Promise<PendingProfileSave> {
  const marked = { ...save, conflict: true };
  return writePendingSave(marked).then(() => marked);
}

/**
 * Sends a queued save with the same request as any save, under its key and with the If-Match of
 * the profile it was made on; the page passes its progress transport as `fetch`. A conflicted save
 * is refused here as the server would refuse it (412), without a request.
 */
export function sendPendingSave(
  client: ApiClient,
  save: PendingProfileSave,
  options: Omit<SaveOptions, 'idempotencyKey'> = {},
): Promise<TaggedProfile> {
  const send = { ...options, idempotencyKey: save.key };
  if (save.kind === 'create') return sendProfileSave(client, save, save.avatar, send);
  if (isConflicted(save) || save.ifMatch === null) {
    const body = { status: 412, error: 'Precondition Failed', message: 'The profile may have changed since this edit was made' };
    return Promise.reject(new ApiError(412, body));
  }
  // Stryker disable next-line StringLiteral: sendProfileSave sends any kind but 'create' as this update
  return sendProfileSave(client, { kind: 'update', id: save.id, fields: save.fields, ifMatch: save.ifMatch }, save.avatar, send);
}
