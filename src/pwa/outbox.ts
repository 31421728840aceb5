import { computed, signal } from '@preact/signals-core';
import { config } from '../config/load';
import { ApiError } from '../api/errors';
import type { ProfileInput, ProfilePatch } from '../api/profile';
import { createProfile, fetchProfile, updateProfile } from '../state/profile';
import { showSnackbar } from '../ui/snackbar/store';
import { t } from '../i18n';
import { log } from '../lib/logger';
import { clearProfileDraft } from '../state/profile-draft';
import {
  clearPendingSave,
  OUTBOX_SYNC_TAG,
  readPendingSave,
  withOutboxLock,
  writePendingSave,
  type PendingProfileSave,
} from './outbox-store';

const pending = signal<PendingProfileSave | null>(null);
const lastFailure = signal<{ save: PendingProfileSave; message: string } | null>(null);

/** The save waiting for the network, if any. */
export const pendingProfileSave = computed(() => pending.value);
/** A queued save the server refused: its fields go back into the form with the reason. */
export const refusedProfileSave = computed(() => lastFailure.value);

function apiBase(): string {
  return new URL(config().apiBaseUrl, location.href).href;
}

/** Keeps a save for later; asks the service worker to send it when the network is back. */
export async function queueProfileSave(save: Omit<PendingProfileSave, 'apiBase' | 'queuedAt'>): Promise<void> {
  const record: PendingProfileSave = { ...save, apiBase: apiBase(), queuedAt: Date.now() };
  await writePendingSave(record);
  pending.value = record;
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined)?.sync;
    await sync?.register(OUTBOX_SYNC_TAG);
  } catch {
    // No Background Sync here: the online event sends it.
  }
}

export function dismissRefusedSave(): void {
  lastFailure.value = null;
}

/** Sends the queued save through the profile store (progress and state as for any save). */
export async function flushProfileOutbox(): Promise<'sent' | 'refused' | 'none' | 'offline'> {
  return withOutboxLock(async () => {
    const save = await readPendingSave();
    pending.value = save;
    if (!save) return 'none';
    if (!navigator.onLine) return 'offline';
    try {
      if (save.kind === 'create') await createProfile(save.fields as unknown as ProfileInput, save.avatar);
      else await updateProfile(save.id ?? '', save.fields as ProfilePatch, save.avatar);
      await clearPendingSave();
      clearProfileDraft(save.kind === 'create' ? null : save.id);
      pending.value = null;
      showSnackbar({ message: t('profile.pendingSent'), duration: 5000 });
      return 'sent';
    } catch (error) {
      if (!(error instanceof ApiError)) return 'offline';
      // The server said no: the fields go back to the form with its reason, nothing is lost.
      await clearPendingSave();
      pending.value = null;
      lastFailure.value = { save, message: error.body.message };
      return 'refused';
    }
  });
}

/** At start and on every return online, whatever waits is sent; the worker's sends are picked up too. */
export function watchProfileOutbox(): void {
  const flush = () => void flushProfileOutbox().catch((error: unknown) => log.warn('The queued save could not be sent', error));
  window.addEventListener('online', flush);
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<{ type?: string; kind?: string; id?: string }>) => {
    if (event.data?.type === 'OUTBOX_SENT') {
      clearProfileDraft(event.data.kind === 'create' ? null : event.data.id);
      pending.value = null;
      showSnackbar({ message: t('profile.pendingSent'), duration: 5000 });
      fetchProfile().catch(() => undefined);
    }
  });
  void readPendingSave()
    .then((save) => {
      pending.value = save;
      if (save && navigator.onLine) flush();
    })
    .catch(() => undefined);
}
