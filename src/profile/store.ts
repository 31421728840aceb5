import { batch, computed, signal } from '@preact/signals-core';
import { isAbort, profileErrorMessage } from '../api/errors';
import type { Profile } from './requests';
import type { TransferEvent } from '../api/progress';
import type { PartKey } from '../i18n';
import { recordChange } from '../state/history';
import { LAST_PROFILE_KEY } from '../config/storage-keys';
import { readPersisted, removePersisted, writePersisted } from '../lib/persist';
import { isLoggedIn } from '../state/auth';

/*
 * The member's profile as the app holds it: its state with its one writer, the runner every action
 * of the profile reports through, and the read. What the first screen needs of the profile; what
 * changes it (save.ts, outbox.ts) loads with the profile screen or on demand.
 */

/** The profile's state: shared by the profile's actions and the outbox. */
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

/** Runs a profile call with its loading and error state: the one way an action of the profile reports. */
export async function runProfileAction<T>(
  action: string,
  work: () => Promise<T>,
  onSuccess: (result: T) => Partial<ProfileState>,
  // Stryker disable next-line ArrowFunction: undefined is as falsy as false where it is read (!superseded())
  superseded: () => boolean = () => false,
): Promise<T> {
  setProfileState(`${action}:start`, { loading: true, error: null });
  try {
    const result = await work();
    setProfileState(`${action}:success`, { ...onSuccess(result), loading: false });
    return result;
  } catch (error) {
    if (isAbort(error)) {
      // A newer call that replaced this one owns the loading flag; a plain cancel clears it.
      if (!superseded()) setProfileState(`${action}:cancelled`, { loading: false, progressMessage: null });
      throw error;
    }
    setProfileState(`${action}:failure`, { loading: false, error: profileErrorMessage(error) });
    throw error;
  }
}

/** Whole percent of a transfer, or null when its size is unknown. */
function percentOf(event: { loaded: number; total: number }): number | null {
  if (!event.total) return null;
  return Math.min(100, Math.round((event.loaded / event.total) * 100));
}

/** A progress message: its catalogue key and the values it fills in. */
export interface ProgressMessage {
  key: PartKey<'profile'>;
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

// The API client and the profile's requests are not needed to paint the first screen: they load with the first call.
export const apiModule = () => import('../api/instance');

/** The profile's requests (read, delete) through the app's one client. */
export async function profileCalls() {
  const [{ api }, { profileApi }] = await Promise.all([apiModule(), import('./requests')]);
  return profileApi(api.client());
}

let running: AbortController | null = null;
/** The last read started: the one a replaced read's caller waits for instead (readProfile). */
let latest: Promise<Profile | null> | null = null;

/** Fetches the profile; a fetch still running is cancelled. A member without one gets null. */
export function fetchProfile(): Promise<Profile | null> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  const read = runProfileAction(
    'fetch',
    async () => {
      try {
        const [calls, { authorizationHeader }] = await Promise.all([profileCalls(), import('../api/credentials')]);
        // The flag says signed in but no session is stored (the site's storage was cleared): no
        // request the server can only refuse; the session model sets the flag right as it starts.
        if (!(await authorizationHeader()).Authorization) return { profile: null, etag: null };
        // Stryker disable BlockStatement: a settled call left in `running` is never read: the next fetch replaces it, a reset clears it, and its own superseded() answers false either way
        return await calls.read(controller.signal);
      } finally {
        // Stryker restore BlockStatement
        // Stryker disable next-line ConditionalExpression: as above, leaving it set is unobservable; clearing a newer call's (true) is tested
        if (running === controller) running = null;
      }
    },
    (answer) => answer,
    () => running !== null && running !== controller,
  ).then((answer) => answer.profile);
  latest = read;
  return read;
}

/**
 * Reads the profile for a screen that shows what it reads: as fetchProfile, but a read replaced by
 * a newer one (another part of the page asking too, or React running a screen's effects twice in
 * development) answers with the newer read's result, not with "signal is aborted without reason".
 * A read cancelled with nothing newer (sign-out) still fails as cancelled.
 */
export function readProfile(): Promise<Profile | null> {
  const follow = (read: Promise<Profile | null>): Promise<Profile | null> =>
    read.catch((error: unknown) => {
      if (isAbort(error) && latest !== null && latest !== read) return follow(latest);
      throw error;
    });
  return follow(fetchProfile());
}

/** Back to no profile: a read still running is cancelled, nothing of the member's is left in memory or kept for the next visit. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  latest = null;
  state.value = INITIAL;
  removePersisted(LAST_PROFILE_KEY);
}
