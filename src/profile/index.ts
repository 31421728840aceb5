/**
 * The member's profile as one model, the profile screen's one way in: what the server has (read,
 * store), what the member is typing (draft), a save sent at once or kept on the device until the
 * network is back (save, outbox), and a save refused because the profile changed elsewhere
 * (conflict, resolution).
 *
 * A save goes: the screen's form → saveProfile (save.ts) → the one request (api/profile-save.ts)
 * → the API; offline or on a failed send, queueSave (outbox.ts) keeps it in IndexedDB
 * (api/pending-save.ts) for the page or the service worker to send later.
 *
 * Others that need one part import that module alone, so the first screen does not carry the
 * whole workflow: the home screen and the top bar the read (read.ts, store.ts), the session its
 * reset (read.ts, draft.ts, edit-conflict.ts), the outbox watcher the replay (outbox.ts).
 */
export {
  profile,
  profileError,
  profileEtag,
  profileLoading,
  profileProgress,
  profileProgressMessage,
  profileState,
  setProfileState,
  type ProfileState,
} from './store';
export { fetchProfile, readProfile, resetProfileState } from './read';
export { clearProfileDraft, draftKey, hasProfileDraft, keepDraftAvatar, restoreDraftAvatar } from './draft';
export { deleteProfile, saveProfile, type ProfileEdit } from './save';
export {
  dismissRefusedSave,
  loadPendingSave,
  pendingProfileSave,
  queuedSaveSent,
  refusedProfileSave,
  resetProfileOutbox,
  sendQueuedSave,
} from './outbox';
export {
  CONFLICT_FIELDS,
  fieldsOf,
  profileConflict,
  setProfileConflict,
  type ConflictField,
  type ProfileConflict,
  type Side,
} from './edit-conflict';
export { profileWithPending } from './pending-view';
export { changedBy, differingFields, mergedFields, resetProfileConflict, suggestedChoice, textOf } from './conflict';
import type { Resolution } from './resolution';

export type { Resolution };

/** The member's answer to a conflict: its code comes with the first conflict resolved, not with the screen. */
export async function resolveProfileConflict(resolution: Resolution): Promise<'discarded' | 'saved' | 'queued' | 'conflict'> {
  return (await import('./resolution')).resolveProfileConflict(resolution);
}
