import { type ApiClient, unwrap } from './client';
import type { ProgressListener } from './progress';
import { checkProfile } from './guards';
import { etagOf, type Profile, type ProfileInput, type ProfilePatch, sendProfileSave } from './profile-save';

export type { Profile, ProfileInput, ProfilePatch, TaggedProfile } from './profile-save';

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
    async create(fields: ProfileInput, avatar: Blob | null, { onProgress, signal }: TransferOptions = {}): Promise<Profile> {
      return (await sendProfileSave(client, { kind: 'create', fields }, avatar, { fetch: await transferFetch(onProgress), signal }))
        .profile;
    },
    /** Changes the profile whose version `ifMatch` names (its ETag); the answer carries the new one. */
    async update(
      id: string,
      fields: ProfilePatch,
      avatar: Blob | null,
      { ifMatch, onProgress, signal }: TransferOptions & { ifMatch: string },
    ): Promise<Profile> {
      const save = { kind: 'update', id, fields, ifMatch } as const;
      return (await sendProfileSave(client, save, avatar, { fetch: await transferFetch(onProgress), signal })).profile;
    },
    /** Deletes the profile if it is still the version `ifMatch` names (412 when it changed since). */
    async remove(id: string, ifMatch: string): Promise<void> {
      await unwrap(client.DELETE('/user/profile/{id}', { params: { path: { id }, header: { 'If-Match': ifMatch } } }));
    },
  };
}
