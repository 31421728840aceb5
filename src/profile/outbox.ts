import { computed, signal } from '@preact/signals-core';
import { api, apiBaseUrl } from '../api/instance';
import { ApiError } from '../api/errors';
import type { Profile, ProfileSave } from './requests';
import {
  clearPendingSave,
  isConflicted,
  markConflict,
  type PendingProfileSave,
  readPendingSave,
  requestOutboxSync,
  sendPendingSave,
  withOutboxLock,
  writePendingSave,
} from './pending-save';
import { t } from '../i18n';
import { isOnline } from '../lib/connectivity';
import { showSnackbar } from '../ui/snackbar/store';
import { clearProfileDraft } from './draft';
import { fieldsOf } from './conflict-state';
import { onTransfer, setProfileState as set } from './store';

/**
 * The profile saves that wait on the device: kept by saveProfile (save.ts) when the network
 * is not there, sent from here when it is back. Loaded on demand: the first screen never needs it.
 */
const pending = signal<PendingProfileSave | null>(null);
const refused = signal<{ save: PendingProfileSave; message: string } | null>(null);

/** The save waiting for the network, if any. */
export const pendingProfileSave = computed(() => pending.value);
/** A queued save the server refused: its fields go back into the form with the reason. */
export const refusedProfileSave = computed(() => refused.value);

/**
 * Keeps a save on the device and asks the service worker to send it when the network is back. An
 * update keeps the ETag it names and the fields of `base`, the profile it was made on: replayed
 * later, it changes nothing that changed elsewhere meanwhile (412, a conflict for the member).
 */
export async function queueSave(request: ProfileSave, avatar: Blob | null, key: string, base: Profile | null = null): Promise<void> {
  const record = recordOf(request, avatar, key, base);
  await writePendingSave(record);
  set('save:queued', {});
  pending.value = record;
  // Without Background Sync, the page sends it on its next `online` event or start.
  await requestOutboxSync();
}

function recordOf(request: ProfileSave, avatar: Blob | null, key: string, base: Profile | null): PendingProfileSave {
  return {
    ...request,
    ...(request.kind === 'update' && base ? { base: fieldsOf(base) } : {}),
    avatar,
    apiBase: apiBaseUrl(),
    queuedAt: Date.now(),
    key,
  } as PendingProfileSave;
}

/**
 * Keeps on the device an update the server refused with 412 as it was sent, marked as a conflict:
 * never replayed, it brings the conflict back after a reload, until the member has chosen.
 */
export async function keepConflictedSave(
  request: ProfileSave & { kind: 'update' },
  avatar: Blob | null,
  key: string,
  base: Profile | null,
) {
  const record = { ...recordOf(request, avatar, key, base), conflict: true };
  await withOutboxLock(() => writePendingSave(record));
  pending.value = record;
}

/** A queued update the server refused with 412 (now or on the worker's replay): kept, and put before the member. */
async function surfaceConflict(save: PendingProfileSave & { kind: 'update' }): Promise<'conflict' | 'refused' | 'offline'> {
  try {
    // The comparison loads with the first conflict, online (it is not kept for offline use).
    const { openConflict } = await import('./conflict-compare');
    await openConflict({ id: save.id, mine: save.fields, avatar: save.avatar, base: save.base ?? null, queued: true });
    return 'conflict';
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      // Gone elsewhere: refused like any other, the reason shown and the typed fields kept in the form's draft.
      await clearPendingSave();
      pending.value = null;
      refused.value = { save, message: error.body.message };
      return 'refused';
    }
    // The server's version could not be read now (no network, not signed in yet, a server error): the
    // save stays marked, and the next start, return online or visit of the profile tries again.
    return 'offline';
  }
}

/**
 * Sends the queued save (progress and state as for any save); the lock makes sure it goes once.
 * A save the profile changed under (412) is neither retried nor forced: it stays, marked as a
 * conflict, and the member chooses what to keep ('conflict').
 */
export function sendQueuedSave(): Promise<'sent' | 'refused' | 'conflict' | 'none' | 'offline'> {
  return withOutboxLock(async () => {
    const save = await readPendingSave();
    pending.value = save;
    if (!save) return 'none';
    if (!isOnline.value) return 'offline';
    // Stryker disable next-line ConditionalExpression: isConflicted tests the kind itself, so the kind test as true changes nothing; it narrows the type (the other side is tested)
    if (save.kind === 'update' && isConflicted(save)) return surfaceConflict(save);
    set('save:send-queued', { loading: true, error: null, progress: 0, progressMessage: null });
    try {
      const { progressFetch } = await import('../api/transport');
      const saved = await sendPendingSave(api.client(), save, { fetch: progressFetch(onTransfer) });
      await clearPendingSave();
      set('save:sent-queued', { ...saved, loading: false });
      queuedSaveSent(save);
      return 'sent';
    } catch (error) {
      set('save:send-queued-failed', { loading: false });
      if (!(error instanceof ApiError)) return 'offline';
      // Signed out meanwhile (401) or a server in trouble (5xx): the save stays queued and goes out
      // once the member is signed in again or the server answers, as the service worker's replay does.
      if (error.status === 401 || error.status >= 500) return 'offline';
      if (error.status === 412 && save.kind === 'update') {
        const marked = await markConflict(save);
        pending.value = marked;
        return surfaceConflict(marked as typeof save);
      }
      // The server said no: the fields go back to the form with its reason, nothing is lost.
      await clearPendingSave();
      pending.value = null;
      refused.value = { save, message: error.body.message };
      return 'refused';
    }
  });
}

/** A queued save reached the server (sent by this page or by the service worker): draft and queue clear. */
export function queuedSaveSent(save: Pick<PendingProfileSave, 'kind' | 'id'>): void {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a create has no id, and draftKey(undefined) is draftKey(null), so always save.id changes nothing (the other side is tested)
  clearProfileDraft(save.kind === 'create' ? null : save.id);
  pending.value = null;
  showSnackbar({ message: t('profile.pendingSent'), duration: 5000 });
}

export function dismissRefusedSave(): void {
  refused.value = null;
}

/** Reads what waits in the queue, so the screen can say so after a reload. */
export async function loadPendingSave(): Promise<PendingProfileSave | null> {
  const save = await readPendingSave();
  pending.value = save;
  return save;
}

/** The member chose what to keep of a conflicted queued save: it is not to be sent as it was. */
export async function dropQueuedSave(): Promise<void> {
  await withOutboxLock(clearPendingSave);
  pending.value = null;
}

/** For tests: nothing pending, nothing refused. */
export function resetProfileOutbox(): void {
  pending.value = null;
  refused.value = null;
}
