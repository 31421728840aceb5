import { type ApiClient, unwrap } from './client';
import { checkProfile } from './guards';
import { etagOf, type Profile } from './profile-save';

export type { Profile, ProfileInput, ProfilePatch, TaggedProfile } from './profile-save';

/**
 * Reading and deleting the member's profile. Creating and changing it is one request of its own,
 * shared by the page and the service worker: sendProfileSave (profile-save.ts).
 */
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
