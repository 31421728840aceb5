import { isAbort, profileErrorMessage } from '../../api/errors';
import type { Profile } from '../../api/profile-save';
import { type ProfileState, resetProfileStore, setProfileState as set } from './store';

/*
 * The profile as the first screen needs it: read, and shown. What changes it (create, update,
 * delete, the save that sends or queues) is state/profile-edit.ts, loaded with the profile screen.
 */

export {
  profile,
  profileEtag,
  profileError,
  profileLoading,
  profileProgress,
  profileProgressMessage,
  profileState,
  progressMessageFor,
  type ProfileState,
  type ProgressMessage,
} from './store';

/** Runs a profile call with its loading and error state: the one way an action of the profile reports. */
export async function runProfileAction<T>(
  action: string,
  work: () => Promise<T>,
  onSuccess: (result: T) => Partial<ProfileState>,
  // Stryker disable next-line ArrowFunction: undefined is as falsy as false where it is read (!superseded())
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
export const apiModule = () => import('../../api/instance');

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
        const [{ api }, { authorizationHeader }] = await Promise.all([apiModule(), import('../../api/credentials')]);
        // The flag says signed in but no session is stored (the site's storage was cleared): no
        // request the server can only refuse; the session model sets the flag right as it starts.
        if (!(await authorizationHeader()).Authorization) return { profile: null, etag: null };
        // A range up to the restore below: a next-line comment just before `} finally {` belongs to no node and silences nothing.
        // Stryker disable BlockStatement: a settled call left in `running` is never read: the next fetch replaces it, a reset clears it, and its own superseded() answers false either way
        return await api.profile().read(controller.signal);
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

/** For tests: back to the initial state. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  latest = null;
  resetProfileStore();
}
