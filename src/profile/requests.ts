import type { components } from './schema';
import { type ApiClient, unwrap } from './client';
import { checkProfile } from './guards';
import { profileFormData } from './profile-form-data';
import type { FetchLike } from './transport';

export type Profile = components['schemas']['Profile'];
export type ProfileInput = components['schemas']['ProfileInput'];
export type ProfilePatch = components['schemas']['ProfilePatch'];

/** The fields as the form schemas have them: the interests as one comma-separated value. */
type FormOf<F extends { interests?: string[] }> = Omit<F, 'interests'> & { interests?: string };

function asForm<F extends { interests?: string[] }>(fields: F): FormOf<F> {
  const { interests, ...rest } = fields;
  return interests === undefined ? rest : { ...rest, interests: interests.join(',') };
}

/**
 * A save of the member's profile: a new one, or changes to an existing one. An update carries the
 * ETag of the profile its changes were made on as `ifMatch` (its If-Match header): when the
 * profile changed since, on another device or tab, the server answers 412 instead of overwriting
 * that change, and the app asks the member what to keep (state/profile-conflict.ts).
 */
export type ProfileSave = { kind: 'create'; fields: ProfileInput } | { kind: 'update'; id: string; fields: ProfilePatch; ifMatch: string };

/** A profile as an answer carried it, with the ETag that names that version (null if the server sent none). */
export interface TaggedProfile {
  profile: Profile;
  etag: string | null;
}

/** The ETag of an answer, as the If-Match of the next change. */
export const etagOf = (response: Response): string | null => response.headers.get('etag');

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
