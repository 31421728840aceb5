import { batch, computed, signal } from '@preact/signals-core';
import type { Profile } from '../../api/profile-save';
import { percentOf, type TransferEvent } from '../../api/progress';
import type { MessageKey } from '../../i18n';
import { recordChange } from '../history';

/** The member's profile as the app holds it: shared by the profile actions and the outbox. */
export interface ProfileState {
  profile: Profile | null;
  /** The ETag of that profile as the server last answered it: the If-Match of its next update or delete. */
  etag: string | null;
  error: string | null;
  loading: boolean;
  /** Percent of the running create or update; undefined when none ran. */
  progress: number | undefined;
  /** What the running transfer is doing, as a message of the catalogue (the seed's words in English). */
  progressMessage: ProgressMessage | null;
}

const INITIAL: ProfileState = { profile: null, etag: null, error: null, loading: false, progress: undefined, progressMessage: null };
const state = signal<ProfileState>(INITIAL);

export const profileState = computed(() => state.value);
export const profile = computed(() => state.value.profile);
export const profileEtag = computed(() => state.value.etag);
export const profileLoading = computed(() => state.value.loading);
export const profileError = computed(() => state.value.error);
export const profileProgress = computed(() => state.value.progress);
export const profileProgressMessage = computed(() => state.value.progressMessage);

/** The one writer of the profile state; every change is recorded in the state history. */
export function setProfileState(action: string, patch: Partial<ProfileState>): void {
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

/** Reports a transfer step as progress: percent and message. */
export function onTransfer(event: TransferEvent): void {
  const { message, percent } = progressMessageFor(event);
  batch(() =>
    setProfileState(`transfer:${event.type}`, { progressMessage: message, ...(percent !== undefined ? { progress: percent } : {}) }),
  );
}

export function resetProfileStore(): void {
  state.value = INITIAL;
}
