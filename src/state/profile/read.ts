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

/** Fetches the profile; a fetch still running is cancelled. A member without one gets null. */
export function fetchProfile(): Promise<Profile | null> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  return runProfileAction(
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
    (read) => read,
    () => running !== null && running !== controller,
  ).then((read) => read.profile);
}

/** For tests: back to the initial state. */
export function resetProfileState(): void {
  running?.abort();
  running = null;
  resetProfileStore();
}
