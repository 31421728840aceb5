import { ApiError, isAbort, profileErrorMessage } from '../api/errors';
import type { Profile, ProfileInput, ProfilePatch, ProfileSave } from '../api/profile-save';
import { isOnline } from '../lib/connectivity';
import { clearProfileDraft } from './profile-draft';
import { onTransfer, type ProfileState, resetProfileStore, setProfileState as set } from './profile-store';

export {
  profile,
  profileError,
  profileLoading,
  profileProgress,
  profileProgressMessage,
  profileState,
  progressMessageFor,
  type ProfileState,
  type ProgressMessage,
} from './profile-store';

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

// The API client and its transport are not needed to paint the first screen: they load with the first call.
const apiModule = () => import('../api/instance');

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
        const { api } = await apiModule();
        return await api.profile().get(controller.signal);
      } finally {
        if (running === controller) running = null;
      }
    },
    (profile) => ({ profile }),
    () => running !== null && running !== controller,
  );
}

/** Sends a save with upload and download progress; the progress transport loads with the first save. */
function send(save: ProfileSave, avatar: Blob | null, signal?: AbortSignal, idempotencyKey?: string): Promise<Profile> {
  set(`${save.kind}:reset`, { progress: 0, progressMessage: null });
  return run(
    save.kind,
    async () => {
      const [{ api }, { sendProfileSave }, { progressFetch }] = await Promise.all([
        apiModule(),
        import('../api/profile-save'),
        import('../api/transport'),
      ]);
      return sendProfileSave(api.client(), save, avatar, { fetch: progressFetch(onTransfer), signal, idempotencyKey });
    },
    (profile) => ({ profile }),
  );
}

export function createProfile(fields: ProfileInput, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  return send({ kind: 'create', fields }, avatar, signal);
}

export function updateProfile(id: string, fields: ProfilePatch, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  return send({ kind: 'update', id, fields }, avatar, signal);
}

export function deleteProfile(id: string): Promise<void> {
  return run(
    'delete',
    async () => (await apiModule()).api.profile().remove(id),
    () => ({ profile: null }),
  );
}

/**
 * Saves the profile, the one path from the form to the server: sent at once when online (with
 * progress), kept on the device when offline or when the network fails on the way (the outbox,
 * state/profile-outbox.ts, loads then). Resolves 'saved' or 'queued'; rejects with the server's
 * refusal (ApiError), a cancel (AbortError), or a failure to keep the save on the device.
 */
export async function saveProfile(request: ProfileSave, avatar: Blob | null, signal?: AbortSignal): Promise<'saved' | 'queued'> {
  // One key for every attempt of this save: sent now and replayed later, it is applied once.
  const key = crypto.randomUUID();
  const queue = async () => {
    const { queueSave } = await import('./profile-outbox');
    await queueSave(request, avatar, key);
    return 'queued' as const;
  };
  if (!isOnline.value) return queue();
  try {
    await send(request, avatar, signal, key);
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
    return queue();
  }
}

/** For tests: back to the initial state. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  resetProfileStore();
}
