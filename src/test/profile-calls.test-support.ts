/**
 * The profile's calls as the app's contract tests make them: reading and deleting through profileApi,
 * creating and changing through the app's one save request (sendProfileSave, which the page and the
 * service worker use), with the page's progress transport when a test listens to the upload.
 */
import type { ApiClient } from '../api/client';
import { type Profile, type ProfileInput, type ProfilePatch, profileApi, sendProfileSave } from '../profile/requests';
import type { ProgressListener } from '../api/progress';
import { progressFetch } from '../api/transport';

export interface TransferOptions {
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

export function profileCalls(client: ApiClient) {
  const transfer = ({ onProgress, signal }: TransferOptions) => ({ fetch: onProgress ? progressFetch(onProgress) : undefined, signal });
  return {
    ...profileApi(client),
    async create(fields: ProfileInput, avatar: Blob | null, options: TransferOptions = {}): Promise<Profile> {
      return (await sendProfileSave(client, { kind: 'create', fields }, avatar, transfer(options))).profile;
    },
    /** Changes the profile whose version `ifMatch` names (its ETag). */
    async update(id: string, fields: ProfilePatch, avatar: Blob | null, options: TransferOptions & { ifMatch: string }): Promise<Profile> {
      return (await sendProfileSave(client, { kind: 'update', id, fields, ifMatch: options.ifMatch }, avatar, transfer(options))).profile;
    },
  };
}
