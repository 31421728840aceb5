import type { UseStore } from 'idb-keyval';
import { readPersisted, removePersisted } from '../lib/persist';

/** Where the profile form keeps what was typed: one draft for a new profile, one per profile edited. */
export function draftKey(profileId: string | null | undefined): string {
  return profileId ? `draft.profile.${profileId}` : 'draft.profile.new';
}

// The chosen avatar is a file: it waits in IndexedDB (localStorage holds text only), under the same
// key. The IndexedDB helper loads with the first avatar, not with the app.
let avatars: Promise<{ idb: typeof import('idb-keyval'); store: UseStore }> | null = null;
export function avatarStore() {
  if (typeof indexedDB === 'undefined') return null;
  avatars ??= import('idb-keyval').then((idb) => ({ idb, store: idb.createStore('circle-drafts', 'avatars') }));
  return avatars;
}

/** Keeps (or, with null, forgets) the avatar chosen in the form until the profile is saved. */
export async function keepDraftAvatar(profileId: string | null | undefined, file: File | null): Promise<void> {
  const opened = avatarStore();
  if (!opened) return;
  const { idb, store } = await opened;
  await (file ? idb.set(draftKey(profileId), file, store) : idb.del(draftKey(profileId), store));
}

/** The avatar chosen before a reload, if one waits and is still a file. */
export async function restoreDraftAvatar(profileId: string | null | undefined): Promise<File | null> {
  const opened = avatarStore();
  if (!opened) return null;
  const { idb, store } = await opened;
  const value: unknown = await idb.get(draftKey(profileId), store);
  return value instanceof Blob ? new File([value], value instanceof File ? value.name : 'avatar', { type: value.type }) : null;
}

export function clearProfileDraft(profileId: string | null | undefined): void {
  removePersisted(draftKey(profileId));
  keepDraftAvatar(profileId, null).catch(() => undefined);
}

/**
 * Forgets every draft and chosen avatar on this device, whoever's profile they were for: what
 * sign-out leaves for the next person is nothing.
 */
export async function clearAllProfileDrafts(): Promise<void> {
  // Stryker disable next-line ArithmeticOperator: starting past the end only reads two missing keys (null), which are skipped
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    // Stryker disable next-line OptionalChaining: key(i) is never null below length, and the loop removes only keys above i
    if (key?.startsWith('draft.profile.')) removePersisted(key);
  }
  const avatars = avatarStore();
  if (!avatars) return;
  const { idb, store } = await avatars;
  await idb.clear(store);
}

/** Whether something typed for this profile is still waiting to be saved. */
export function hasProfileDraft(profileId: string | null | undefined): boolean {
  return readPersisted(draftKey(profileId), (raw) => (raw ? true : null), false);
}
