import { type ApiClient, unwrap } from './client';
import type { ProgressListener } from './progress';
import { checkProfile } from './guards';
import { ifMatchOf, type Profile, type ProfileInput, type ProfilePatch, sendProfileSave } from './profile-save';

export type { Profile, ProfileInput, ProfilePatch } from './profile-save';

export interface TransferOptions {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/**
 * The fetch for a save: with a listener, the progress transport (loaded only then, not at start);
 * without one, the client's own fetch.
 */
async function transferFetch(onProgress: ProgressListener | undefined) {
  if (!onProgress) return undefined;
  const { progressFetch } = await import('./transport');
  return progressFetch(onProgress);
}

export function profileApi(client: ApiClient) {
  return {
    /** The member's profile, or null when they have not created one yet (204). */
    async get(signal?: AbortSignal): Promise<Profile | null> {
      const profile = await unwrap(client.GET('/user/profile/myprofile', { signal }));
      return profile ? checkProfile(profile) : null;
    },
    async create(fields: ProfileInput, avatar: Blob | null, { onProgress, signal }: TransferOptions = {}): Promise<Profile> {
      return sendProfileSave(client, { kind: 'create', fields }, avatar, { fetch: await transferFetch(onProgress), signal });
    },
    async update(id: string, fields: ProfilePatch, avatar: Blob | null, { onProgress, signal }: TransferOptions = {}): Promise<Profile> {
      return sendProfileSave(client, { kind: 'update', id, fields }, avatar, { fetch: await transferFetch(onProgress), signal });
    },
    /** Deletes the profile; `etag` is its If-Match (`*` without one, see ProfileSave). */
    async remove(id: string, etag?: string): Promise<void> {
      await unwrap(client.DELETE('/user/profile/{id}', { params: { path: { id }, header: { 'If-Match': ifMatchOf(etag) } } }));
    },
  };
}
