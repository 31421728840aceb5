import type { components } from './schema';
import { type ApiClient, unwrap } from './client';
import type { ProgressListener } from './progress';
import { checkProfile } from './guards';
import { profileFormData } from './profile-form-data';

export type Profile = components['schemas']['Profile'];
export type ProfileInput = components['schemas']['ProfileInput'];
export type ProfilePatch = components['schemas']['ProfilePatch'];

export interface TransferOptions {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/**
 * The fetch for a save: with a listener, the progress transport (loaded only then, not at start);
 * without one (the service worker replaying a queued save), the client's own fetch.
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
      const fetch = await transferFetch(onProgress);
      return checkProfile(
        await unwrap(
          client.POST('/user/profile', {
            // The form is built from `fields`; the typed body keeps the call checked against the contract.
            body: fields as unknown as components['schemas']['ProfileForm'],
            bodySerializer: () => profileFormData(fields, avatar),
            fetch,
            signal,
          }),
        ),
      );
    },
    async update(id: string, fields: ProfilePatch, avatar: Blob | null, { onProgress, signal }: TransferOptions = {}): Promise<Profile> {
      const fetch = await transferFetch(onProgress);
      return checkProfile(
        await unwrap(
          client.PATCH('/user/profile/{id}', {
            params: { path: { id } },
            body: fields as unknown as components['schemas']['ProfilePatchForm'],
            bodySerializer: () => profileFormData(fields, avatar),
            fetch,
            signal,
          }),
        ),
      );
    },
    async remove(id: string): Promise<void> {
      await unwrap(client.DELETE('/user/profile/{id}', { params: { path: { id } } }));
    },
  };
}
