import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { ApiClient } from './client';
import { type Profile, type ProfileInput, type ProfilePatch, type SaveOptions, sendProfileSave } from './profile-save';

/**
 * The profile save that could not reach the server, kept in IndexedDB (with its avatar file)
 * until it is sent. Shared by the page and the service worker, which both may send it: each
 * takes the Web Lock below first and reads the record again, so it is sent once.
 */
export type PendingProfileSave = (
  | { kind: 'create'; id?: undefined; fields: ProfileInput }
  | { kind: 'update'; id: string; fields: ProfilePatch }
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

/** Runs `work` holding the outbox lock; where Web Locks are missing, it just runs. */
export async function withOutboxLock<T>(work: () => Promise<T>): Promise<T> {
  // navigator.locks exists in pages and in workers alike.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return work();
  return (await locks.request(OUTBOX_LOCK, work)) as T;
}

/** Sends a queued save with the same request as any save, under its key; the page passes its progress transport as `fetch`. */
export function sendPendingSave(
  client: ApiClient,
  save: PendingProfileSave,
  options: Omit<SaveOptions, 'idempotencyKey'> = {},
): Promise<Profile> {
  return sendProfileSave(client, save, save.avatar, { ...options, idempotencyKey: save.key });
}
