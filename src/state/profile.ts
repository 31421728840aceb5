import { batch, computed, signal } from '@preact/signals-core';
import { api } from '../api/instance';
import { isAbort, profileErrorMessage } from '../api/errors';
import type { Profile, ProfileInput, ProfilePatch } from '../api/profile';
import { percentOf, type TransferEvent } from '../api/progress';
import { recordChange } from './history';

export interface ProfileState {
  profile: Profile | null;
  error: string | null;
  loading: boolean;
  /** Percent of the running create or update; undefined when none ran. */
  progress: number | undefined;
  /** What the running transfer is doing, in the seed's words. */
  progressMessage: string | null;
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

/** The seed's progress messages for each transfer event. */
export function progressMessageFor(event: TransferEvent | { type: string }): { message: string; percent?: number } {
  switch (event.type) {
    case 'sent':
      return { message: 'Uploading Files', percent: 0 };
    case 'upload': {
      const p = percentOf(event as TransferEvent & { type: 'upload' }) ?? 0;
      return { message: `Files are ${p}% uploaded`, percent: p };
    }
    case 'download': {
      const p = percentOf(event as TransferEvent & { type: 'download' }) ?? 0;
      return { message: `Files are ${p}% downloaded`, percent: p };
    }
    default:
      return { message: 'Something went wrong' };
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

/** For tests: back to the initial state. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  state.value = INITIAL;
}
