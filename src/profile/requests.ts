import type { components } from '../api/schema';
import { type ApiClient, unwrap } from '../api/client';
import { checkProfile } from '../api/guards';
import type { FetchLike } from '../api/transport';

/**
 * The profile's requests: read, save (multipart with the avatar) and delete, through the typed
 * client. The page sends a save with the progress transport as `fetch`; the service worker replays
 * a queued one with the client's own. This module loads nothing on demand, so the worker can bundle it.
 */

export type Profile = components['schemas']['Profile'];
export type ProfileInput = components['schemas']['ProfileInput'];
export type ProfilePatch = components['schemas']['ProfilePatch'];

/**
 * A save of the member's profile: a new one, or changes to an existing one. An update carries the
 * ETag of the profile its changes were made on as `ifMatch` (its If-Match header): when the
 * profile changed since, on another device or tab, the server answers 412 instead of overwriting
 * that change, and the app asks the member what to keep (conflict-compare.ts).
 */
export type ProfileSave = { kind: 'create'; fields: ProfileInput } | { kind: 'update'; id: string; fields: ProfilePatch; ifMatch: string };

/** A profile as an answer carried it, with the ETag that names that version (null if the server sent none). */
export interface TaggedProfile {
  profile: Profile;
  etag: string | null;
}

/** The ETag of an answer, as the If-Match of the next change. */
export const etagOf = (response: Response): string | null => response.headers.get('etag');

/** Reading and deleting the member's profile. */
export function profileApi(client: ApiClient) {
  const read = async (signal?: AbortSignal): Promise<{ profile: Profile | null; etag: string | null }> => {
    const call = client.GET('/user/profile/myprofile', { signal });
    const profile = await unwrap(call);
    return profile ? { profile: checkProfile(profile), etag: etagOf((await call).response) } : { profile: null, etag: null };
  };
  return {
    /** The member's profile with its ETag (the If-Match of the next change); null when they have none yet (204). */
    read,
    /** The member's profile, or null when they have not created one yet (204). */
    async get(signal?: AbortSignal): Promise<Profile | null> {
      return (await read(signal)).profile;
    },
    /** Deletes the profile if it is still the version `ifMatch` names (412 when it changed since). */
    async remove(id: string, ifMatch: string): Promise<void> {
      await unwrap(client.DELETE('/user/profile/{id}', { params: { path: { id }, header: { 'If-Match': ifMatch } } }));
    },
  };
}

/**
 * A profile's fields as the multipart/form-data body the API takes (lists comma-separated),
 * with the avatar file when one is chosen.
 */
export function profileFormData(fields: Readonly<Record<string, unknown>>, avatar?: Blob | null): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (avatar) form.append('avatar', avatar, avatar instanceof File ? avatar.name : 'avatar');
  return form;
}

/** The fields as the form schemas have them: the interests as one comma-separated value. */
type FormOf<F extends { interests?: string[] }> = Omit<F, 'interests'> & { interests?: string };

function asForm<F extends { interests?: string[] }>(fields: F): FormOf<F> {
  const { interests, ...rest } = fields;
  return interests === undefined ? rest : { ...rest, interests: interests.join(',') };
}

export interface SaveOptions {
  fetch?: FetchLike;
  signal?: AbortSignal;
  /** Names this save, so that sending it again (after a reload, from the worker) cannot apply it twice. */
  idempotencyKey?: string;
}

/** The one request that saves a profile: multipart/form-data with the avatar. */
export async function sendProfileSave(
  client: ApiClient,
  save: ProfileSave,
  avatar: Blob | null,
  { fetch, signal, idempotencyKey }: SaveOptions = {},
): Promise<TaggedProfile> {
  // The typed body keeps the call checked against the form schema; the serializer sends it with the file.
  const multipart = (form: Record<string, unknown>) => () => profileFormData(form, avatar);
  // The same key on every attempt of one save: a repeat the server already took changes nothing.
  const key = idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {};
  let answer: Promise<{ data?: Profile; error?: unknown; response: Response }>;
  if (save.kind === 'create') {
    const body = asForm(save.fields);
    answer = client.POST('/user/profile', { params: { header: key }, body, bodySerializer: multipart(body), fetch, signal });
  } else {
    const body = asForm(save.fields);
    answer = client.PATCH('/user/profile/{id}', {
      params: { path: { id: save.id }, header: { ...key, 'If-Match': save.ifMatch } },
      body,
      bodySerializer: multipart(body),
      fetch,
      signal,
    });
  }
  const { response } = await answer;
  return { profile: checkProfile(await unwrap(answer)), etag: etagOf(response) };
}
