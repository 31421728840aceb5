import { setProfileConflict } from './conflict-state';
import { clearAllProfileDrafts } from './draft';
import { clearPendingSave } from './pending-save';

/**
 * What a sign-out takes of the profile besides the profile held (store.ts resetProfileState): the
 * conflict waiting for a choice and, with `onDevice`, the drafts, chosen avatars and queued save.
 */
export async function forgetProfileData(onDevice: boolean): Promise<void> {
  setProfileConflict(null);
  if (onDevice) await Promise.all([clearAllProfileDrafts().catch(() => undefined), clearPendingSave().catch(() => undefined)]);
}
