import type { components } from './schema';
import { type ApiClient, unwrap } from './client';
import { checkProfile } from './guards';
import { profileFormData } from './profile-form-data';
import type { FetchLike } from './transport';

export type Profile = components['schemas']['Profile'];
export type ProfileInput = components['schemas']['ProfileInput'];
export type ProfilePatch = components['schemas']['ProfilePatch'];

/** A save of the member's profile: a new one, or changes to an existing one. */
export type ProfileSave = { kind: 'create'; fields: ProfileInput } | { kind: 'update'; id: string; fields: ProfilePatch };

export interface SaveOptions {
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** Names this save, so that sending it again (after a reload, from the worker) cannot apply it twice. */
  idempotencyKey?: string;
}

/**
 * The one request that saves a profile: multipart/form-data with the avatar, through the typed
 * client. The page sends it with the progress transport as `fetch`; the service worker replays a
 * queued save with the client's own. This module loads nothing on demand, so the worker can bundle it.
 */
export async function sendProfileSave(
  client: ApiClient,
  save: ProfileSave,
  avatar: Blob | null,
  { fetch, signal, idempotencyKey }: SaveOptions = {},
): Promise<Profile> {
  const bodySerializer = () => profileFormData(save.fields, avatar);
  // The same key on every attempt of one save: a repeat the server already took changes nothing.
  const header = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined;
  const answer =
    save.kind === 'create'
      ? client.POST('/user/profile', {
          params: { header },
          // The form is built from `fields`; the typed body keeps the call checked against the contract.
          body: save.fields as unknown as components['schemas']['ProfileForm'],
          bodySerializer,
          fetch,
          signal,
        })
      : client.PATCH('/user/profile/{id}', {
          params: { path: { id: save.id }, header },
          body: save.fields as unknown as components['schemas']['ProfilePatchForm'],
          bodySerializer,
          fetch,
          signal,
        });
  return checkProfile(await unwrap(answer));
}
