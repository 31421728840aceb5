import { computed, signal } from '@preact/signals-core';
import { api, apiBaseUrl } from '../api/instance';
import { ApiError } from '../api/errors';
import type { ProfileSave } from '../api/profile-save';
import {
  clearPendingSave,
  OUTBOX_SYNC_TAG,
  type PendingProfileSave,
  readPendingSave,
  sendPendingSave,
  withOutboxLock,
  writePendingSave,
} from '../api/pending-save';
import { t } from '../i18n';
import { isOnline } from '../lib/connectivity';
import { requestBackgroundSync } from '../lib/background-sync';
import { showSnackbar } from '../ui/snackbar/store';
import { clearProfileDraft } from './profile-draft';
import { onTransfer, setProfileState as set } from './profile-store';

/**
 * The profile saves that wait on the device: kept by saveProfile (state/profile.ts) when the network
 * is not there, sent from here when it is back. Loaded on demand: the first screen never needs it.
 */
const pending = signal<PendingProfileSave | null>(null);
const refused = signal<{ save: PendingProfileSave; message: string } | null>(null);

/** The save waiting for the network, if any. */
export const pendingProfileSave = computed(() => pending.value);
/** A queued save the server refused: its fields go back into the form with the reason. */
export const refusedProfileSave = computed(() => refused.value);

/** Keeps a save on the device and asks the service worker to send it when the network is back. */
export async function queueSave(request: ProfileSave, avatar: Blob | null, key: string): Promise<void> {
  const record = { ...request, avatar, apiBase: apiBaseUrl(), queuedAt: Date.now(), key } as PendingProfileSave;
  await writePendingSave(record);
  set('save:queued', {});
  pending.value = record;
  // Without Background Sync, the page sends it on its next `online` event or start.
  await requestBackgroundSync(OUTBOX_SYNC_TAG);
}

/** Sends the queued save (progress and state as for any save); the lock makes sure it goes once. */
export function sendQueuedSave(): Promise<'sent' | 'refused' | 'none' | 'offline'> {
  return withOutboxLock(async () => {
    const save = await readPendingSave();
    pending.value = save;
    if (!save) return 'none';
    if (!isOnline.value) return 'offline';
    set('save:send-queued', { loading: true, error: null, progress: 0, progressMessage: null });
    try {
      const { progressFetch } = await import('../api/transport');
      const saved = await sendPendingSave(api.client(), save, { fetch: progressFetch(onTransfer) });
      await clearPendingSave();
      set('save:sent-queued', { profile: saved, loading: false });
      queuedSaveSent(save);
      return 'sent';
    } catch (error) {
      set('save:send-queued-failed', { loading: false });
      if (!(error instanceof ApiError)) return 'offline';
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

/** For tests: nothing pending, nothing refused. */
export function resetProfileOutbox(): void {
  pending.value = null;
  refused.value = null;
}
