import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { profileFormData } from '../api/profile-form-data';

/**
 * The profile save that could not reach the server, kept in IndexedDB (with its avatar file)
 * until it is sent. Shared by the page and the service worker, which both may send it: each
 * takes the Web Lock below first and reads the record again, so it is sent once.
 */
export interface PendingProfileSave {
  kind: 'create' | 'update';
  /** The profile's id, for an update. */
  id?: string;
  /** The fields as the API's JSON schema has them (interests as a list). */
  fields: Record<string, unknown>;
  avatar: Blob | null;
  /** Absolute URL of the API, as the page was configured when it queued the save. */
  apiBase: string;
  queuedAt: number;
}

export const OUTBOX_LOCK = 'circle-profile-outbox';
export const OUTBOX_SYNC_TAG = 'circle-profile-outbox';
const KEY = 'profile';

let store: UseStore | null = null;
function outbox(): UseStore {
  store ??= createStore('circle', 'outbox');
  return store;
}

export async function readPendingSave(): Promise<PendingProfileSave | null> {
  const value = (await get(KEY, outbox())) as Partial<PendingProfileSave> | undefined;
  if (!value || (value.kind !== 'create' && value.kind !== 'update') || typeof value.apiBase !== 'string' || !value.fields) return null;
  return value as PendingProfileSave;
}

export function writePendingSave(save: PendingProfileSave): Promise<void> {
  return set(KEY, save, outbox());
}

export function clearPendingSave(): Promise<void> {
  return del(KEY, outbox());
}

/** The multipart body the API takes for a create or an update. */
export function pendingSaveForm(save: PendingProfileSave): FormData {
  return profileFormData(save.fields, save.avatar);
}

export function pendingSaveRequest(save: PendingProfileSave): { url: string; method: 'POST' | 'PATCH' } {
  const base = save.apiBase.replace(/\/$/, '');
  return save.kind === 'create'
    ? { url: `${base}/user/profile`, method: 'POST' }
    : { url: `${base}/user/profile/${encodeURIComponent(save.id ?? '')}`, method: 'PATCH' };
}

/** Runs `work` holding the outbox lock; where Web Locks are missing, it just runs. */
export async function withOutboxLock<T>(work: () => Promise<T>): Promise<T> {
  // navigator.locks exists in pages and in workers alike.
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return work();
  return (await locks.request(OUTBOX_LOCK, work)) as T;
}
