import { batch, computed, signal } from '@preact/signals-core';
import type { Profile } from '../../api/profile-save';
import { percentOf, type TransferEvent } from '../../api/progress';
import type { MessageKey } from '../../i18n';
import { recordChange } from '../history';
import { LAST_PROFILE_KEY } from '../../config/storage-keys';
import { readPersisted, removePersisted, writePersisted } from '../../lib/persist';
import { isLoggedIn } from '../auth';

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

/** A profile kept from the last visit, if it still has the shape of one: anything else counts as none. */
function decodeLast(raw: unknown): Profile | null {
  const p = raw as Partial<Profile> | null;
  return typeof p?.id === 'string' && typeof p.displayName === 'string' && typeof p.username === 'string' && Array.isArray(p.interests)
    ? (p as Profile)
    : null;
}

/**
 * The profile of the member's last visit is shown at once (the top bar's name, the home card, the
 * profile screen) while it is read again; its ETag is not kept, so a change waits for that read.
 */
const lastProfile = (): Profile | null => (isLoggedIn.peek() ? readPersisted(LAST_PROFILE_KEY, decodeLast, null) : null);
const state = signal<ProfileState>({ ...INITIAL, profile: lastProfile() });

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
  if (patch.profile) writePersisted(LAST_PROFILE_KEY, patch.profile);
  else if (patch.profile === null) removePersisted(LAST_PROFILE_KEY);
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

/** Back to no profile: nothing of the member's is left in memory or kept for the next visit. */
export function resetProfileStore(): void {
  state.value = INITIAL;
  removePersisted(LAST_PROFILE_KEY);
}
