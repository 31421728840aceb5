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
 * profile's ETag as `ifMatch` (its If-Match header); without one it is sent with `*`, which the
 * server matches against whatever profile exists: the app does not keep ETags yet, and the
 * conflict handling that will (a 412 answered with the current profile) is built on this field.
 */
export type ProfileSave = { kind: 'create'; fields: ProfileInput } | { kind: 'update'; id: string; fields: ProfilePatch; ifMatch?: string };

/** If-Match of an update or delete: the given ETag, else `*` (see ProfileSave). */
export const ifMatchOf = (etag: string | undefined): string => etag ?? '*';

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
      params: { path: { id: save.id }, header: { ...key, 'If-Match': ifMatchOf(save.ifMatch) } },
      body,
      bodySerializer: multipart(body),
      fetch,
      signal,
    });
  }
  return checkProfile(await unwrap(answer));
}
