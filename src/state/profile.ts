import { batch, computed, signal } from '@preact/signals-core';
import { api, apiBaseUrl } from '../api/instance';
import { ApiError, isAbort, profileErrorMessage } from '../api/errors';
import type { Profile, ProfileInput, ProfilePatch } from '../api/profile';
import type { ProfileSave } from '../api/profile-save';
import { percentOf, type TransferEvent } from '../api/progress';
import {
  clearPendingSave,
  OUTBOX_SYNC_TAG,
  type PendingProfileSave,
  readPendingSave,
  sendPendingSave,
  withOutboxLock,
  writePendingSave,
} from '../api/pending-save';
import { t, type MessageKey } from '../i18n';
import { showSnackbar } from '../ui/snackbar/store';
import { isOnline } from '../lib/connectivity';
import { requestBackgroundSync } from '../lib/background-sync';
import { recordChange } from './history';
import { clearProfileDraft } from './profile-draft';

export interface ProfileState {
  profile: Profile | null;
  error: string | null;
  loading: boolean;
  /** Percent of the running create or update; undefined when none ran. */
  progress: number | undefined;
  /** What the running transfer is doing, as a message of the catalogue (the seed's words in English). */
  progressMessage: ProgressMessage | null;
}

const INITIAL: ProfileState = { profile: null, error: null, loading: false, progress: undefined, progressMessage: null };
const state = signal<ProfileState>(INITIAL);

export const profileState = computed(() => state.value);
export const profile = computed(() => state.value.profile);
export const profileLoading = computed(() => state.value.loading);
export const profileError = computed(() => state.value.error);
export const profileProgress = computed(() => state.value.progress);
export const profileProgressMessage = computed(() => state.value.progressMessage);

function set(action: string, patch: Partial<ProfileState>) {
  state.value = { ...state.value, ...patch };
  recordChange('profile', action, { ...state.value, profile: state.value.profile?.id ?? null });
}

/** A progress message: its catalogue key and the values it fills in. */
export interface ProgressMessage {
  key: MessageKey;
  params?: Record<string, number>;
}

/** The seed's progress messages for each transfer event, as catalogue keys. */
export function progressMessageFor(event: TransferEvent | { type: string }): { message: ProgressMessage; percent?: number } {
  switch (event.type) {
    case 'sent':
      return { message: { key: 'profile.progress.sent' }, percent: 0 };
    case 'upload': {
      const percent = percentOf(event as TransferEvent & { type: 'upload' }) ?? 0;
      return { message: { key: 'profile.progress.upload', params: { percent } }, percent };
    }
    case 'download': {
      const percent = percentOf(event as TransferEvent & { type: 'download' }) ?? 0;
      return { message: { key: 'profile.progress.download', params: { percent } }, percent };
    }
    default:
      return { message: { key: 'profile.progress.unknown' } };
  }
}

async function run<T>(
  action: string,
  work: () => Promise<T>,
  onSuccess: (result: T) => Partial<ProfileState>,
  superseded: () => boolean = () => false,
): Promise<T> {
  set(`${action}:start`, { loading: true, error: null });
  try {
    const result = await work();
    set(`${action}:success`, { ...onSuccess(result), loading: false });
    return result;
  } catch (error) {
    if (isAbort(error)) {
      // A newer call that replaced this one owns the loading flag; a plain cancel clears it.
      if (!superseded()) set(`${action}:cancelled`, { loading: false, progressMessage: null });
      throw error;
    }
    set(`${action}:failure`, { loading: false, error: profileErrorMessage(error) });
    throw error;
  }
}

let running: AbortController | null = null;

/** Fetches the profile; a fetch still running is cancelled. A member without one gets null. */
export function fetchProfile(): Promise<Profile | null> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  return run(
    'fetch',
    async () => {
      try {
        return await api.profile().get(controller.signal);
      } finally {
        if (running === controller) running = null;
      }
    },
    (profile) => ({ profile }),
    () => running !== null && running !== controller,
  );
}

function onTransfer(event: TransferEvent) {
  const { message, percent } = progressMessageFor(event);
  batch(() => set(`transfer:${event.type}`, { progressMessage: message, ...(percent !== undefined ? { progress: percent } : {}) }));
}

export function createProfile(fields: ProfileInput, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  set('create:reset', { progress: 0, progressMessage: null });
  return run(
    'create',
    () => api.profile().create(fields, avatar, { onProgress: onTransfer, signal }),
    (profile) => ({ profile }),
  );
}

export function updateProfile(id: string, fields: ProfilePatch, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  set('update:reset', { progress: 0, progressMessage: null });
  return run(
    'update',
    () => api.profile().update(id, fields, avatar, { onProgress: onTransfer, signal }),
    (profile) => ({ profile }),
  );
}

export function deleteProfile(id: string): Promise<void> {
  return run(
    'delete',
    () => api.profile().remove(id),
    () => ({ profile: null }),
  );
}

// -------------------------------------------------------------------------------------------------
// Saving: the one path from the form to the server, sent now or kept on the device until it can be
// -------------------------------------------------------------------------------------------------

const pending = signal<PendingProfileSave | null>(null);
const refused = signal<{ save: PendingProfileSave; message: string } | null>(null);

/** The save waiting for the network, if any. */
export const pendingProfileSave = computed(() => pending.value);
/** A queued save the server refused: its fields go back into the form with the reason. */
export const refusedProfileSave = computed(() => refused.value);

export type SaveRequest = ProfileSave;

/** Keeps a save on the device and asks the service worker to send it when the network is back. */
async function queue(request: SaveRequest, avatar: Blob | null): Promise<void> {
  const record = { ...request, avatar, apiBase: apiBaseUrl(), queuedAt: Date.now() } as PendingProfileSave;
  await writePendingSave(record);
  set('save:queued', {});
  pending.value = record;
  // Without Background Sync, the page sends it on its next `online` event or start.
  await requestBackgroundSync(OUTBOX_SYNC_TAG);
}

/**
 * Saves the profile: sent at once when online (with progress), kept on the device when offline or
 * when the network fails on the way. Resolves 'saved' or 'queued'; rejects with the server's
 * refusal (ApiError), a cancel (AbortError), or a failure to keep the save on the device.
 */
export async function saveProfile(request: SaveRequest, avatar: Blob | null, signal?: AbortSignal): Promise<'saved' | 'queued'> {
  if (!isOnline.value) {
    await queue(request, avatar);
    return 'queued';
  }
  try {
    if (request.kind === 'create') await createProfile(request.fields, avatar, signal);
    else await updateProfile(request.id, request.fields, avatar, signal);
    clearProfileDraft(request.kind === 'create' ? null : request.id);
    return 'saved';
  } catch (error) {
    if (isAbort(error)) {
      // The server may have taken the whole body before the cancel: show what it holds now.
      fetchProfile().catch(() => undefined);
      throw error;
    }
    if (error instanceof ApiError) throw error;
    // The network failed on the way: keep the save for later rather than lose it.
    await queue(request, avatar);
    return 'queued';
  }
}

/** Sends the queued save (progress and state as for any save); the lock makes sure it goes once. */
export function sendQueuedSave(): Promise<'sent' | 'refused' | 'none' | 'offline'> {
  return withOutboxLock(async () => {
    const save = await readPendingSave();
    pending.value = save;
    if (!save) return 'none';
    if (!isOnline.value) return 'offline';
    set('save:send-queued', { loading: true, error: null });
    try {
      set('save:progress-reset', { progress: 0, progressMessage: null });
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

/** For tests: back to the initial state. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  state.value = INITIAL;
  pending.value = null;
  refused.value = null;
}
