import { ApiError, isAbort } from '../api/errors';
import type { Profile, ProfileInput, ProfilePatch, ProfileSave, TaggedProfile } from './requests';
import { isOnline } from '../lib/connectivity';
import { apiModule, fetchProfile, profileCalls } from './store';
import { clearProfileDraft } from './draft';
import { onTransfer, profileState as state, runProfileAction as run, setProfileState as set } from './store';

/*
 * The changes of the profile: create, update, delete, and the save the form calls. Loaded with the
 * profile screen: the first screen only reads the profile (store.ts).
 */

/** Sends a save with upload and download progress; the progress transport loads with the first save. */
function send(save: ProfileSave, avatar: Blob | null, signal?: AbortSignal, idempotencyKey?: string): Promise<TaggedProfile> {
  set(`${save.kind}:reset`, { progress: 0, progressMessage: null });
  return run(
    save.kind,
    async () => {
      const [{ api }, { sendProfileSave }, { progressFetch }] = await Promise.all([
        apiModule(),
        import('./requests'),
        import('../api/transport'),
      ]);
      return sendProfileSave(api.client(), save, avatar, { fetch: progressFetch(onTransfer), signal, idempotencyKey });
    },
    (saved) => saved,
  );
}

/** A change of the profile as the form asks for it; the model adds the If-Match of the profile it holds. */
export type ProfileEdit = { kind: 'create'; fields: ProfileInput } | { kind: 'update'; id: string; fields: ProfilePatch };

/** The edit as a request: an update names the version it was made on, the ETag of the profile held now. */
function requestOf(edit: ProfileEdit, etag: string): ProfileSave {
  return edit.kind === 'create' ? edit : { ...edit, ifMatch: etag };
}

export async function createProfile(fields: ProfileInput, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  return (await send({ kind: 'create', fields }, avatar, signal)).profile;
}

/** Changes the profile held, if it is still the version on the server (else 412, see saveProfile). */
export async function updateProfile(id: string, fields: ProfilePatch, avatar: Blob | null, signal?: AbortSignal): Promise<Profile> {
  return (await send({ kind: 'update', id, fields, ifMatch: heldEtag() }, avatar, signal)).profile;
}

/**
 * The ETag of the profile held, which every change names as If-Match. Without one (a server that
 * sent none) the app cannot say which version an edit was made on: a tag that matches nothing
 * makes the server answer 412, and the member chooses what to keep rather than overwrite blindly.
 */
function heldEtag(): string {
  return state.peek().etag ?? '"unknown"';
}

/**
 * Deletes the profile if it is still the version held. When it changed elsewhere since (412),
 * the current one is read and shown, and 'changed' asks the member to confirm again.
 */
export async function deleteProfile(id: string): Promise<'deleted' | 'changed'> {
  try {
    await run(
      'delete',
      async () => (await profileCalls()).remove(id, heldEtag()),
      () => ({ profile: null, etag: null }),
    );
    return 'deleted';
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 412)) throw error;
    await fetchProfile();
    // Stryker disable next-line ObjectLiteral: fetchProfile has just cleared the error (its start sets it to null, its success leaves it); the step is named for the history
    set('delete:stale', { error: null });
    return 'changed';
  }
}

/**
 * Saves the profile, the one path from the form to the server: sent at once when online (with
 * progress), kept on the device when offline or when the network fails on the way (the outbox,
 * outbox.ts, loads then). An update names the version it was made on (If-Match);
 * when the profile changed elsewhere since, the server answers 412 and nothing is overwritten:
 * the edit is kept (the form's draft), the server's version is read, and the member chooses
 * (conflict-compare.ts, loaded then). Resolves 'saved', 'queued' or 'conflict'; rejects with
 * the server's refusal (ApiError), a cancel (AbortError), or a failure to keep the save on the device.
 */
export async function saveProfile(edit: ProfileEdit, avatar: Blob | null, signal?: AbortSignal): Promise<'saved' | 'queued' | 'conflict'> {
  // One key for every attempt of this save: sent now and replayed later, it is applied once.
  const key = crypto.randomUUID();
  // The profile this edit was made on, and its version: the If-Match, and what "mine" changed.
  const base = state.peek().profile;
  const request = requestOf(edit, heldEtag());
  const queue = async () => {
    const { queueSave } = await import('./outbox');
    await queueSave(request, avatar, key, base);
    return 'queued' as const;
  };
  if (!isOnline.value) return queue();
  try {
    await send(request, avatar, signal, key);
    // Stryker disable next-line ConditionalExpression,StringLiteral: a create has no id, and draftKey(undefined) is draftKey(null), so always edit.id changes nothing (the other side is tested)
    clearProfileDraft(edit.kind === 'create' ? null : edit.id);
    return 'saved';
  } catch (error) {
    if (isAbort(error)) {
      // The server may have taken the whole body before the cancel: show what it holds now.
      fetchProfile().catch(() => undefined);
      throw error;
    }
    if (error instanceof ApiError && error.status === 412 && request.kind === 'update') {
      set('save:conflict', { error: null });
      const [{ keepConflictedSave }, { openConflict }] = await Promise.all([import('./outbox'), import('./conflict-compare')]);
      // Kept on the device too, so a reload before the member has chosen finds the conflict again.
      const kept = await keepConflictedSave(request, avatar, key, base).then(
        () => true,
        () => false,
      );
      await openConflict({ id: request.id, mine: request.fields, avatar, base, queued: kept });
      return 'conflict';
    }
    if (error instanceof ApiError) throw error;
    // The network failed on the way: keep the save for later rather than lose it.
    return queue();
  }
}
