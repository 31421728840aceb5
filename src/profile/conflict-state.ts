import { computed, signal } from '@preact/signals-core';
import type { Profile, ProfilePatch } from './requests';

/**
 * A save the server refused with 412: the profile changed elsewhere (another device, another tab)
 * after the member's edit began. Nothing was overwritten and nothing is dropped: the edit waits
 * (the form's draft, or the queued save marked as a conflict) while the member sees both versions
 * and chooses (conflict-resolve.ts). This module holds only the state, so the profile screen
 * can show it; the code that opens and resolves a conflict loads with the first one.
 */
export interface ProfileConflict {
  id: string;
  /** The fields this device tried to save. */
  mine: ProfilePatch;
  /** The fields of the profile the edit started from, when known: a field equal there is one the member did not touch. */
  base: ProfilePatch | null;
  /** The avatar chosen with the edit: it goes with "keep mine" and with a merge. */
  avatar: Blob | null;
  /** The profile on the server now, and its ETag: the If-Match of whatever the member chooses to send. */
  theirs: Profile;
  etag: string;
  /** The edit waits in the outbox (its replay was refused), not only in the form. */
  queued: boolean;
  /** The fields whose values differ between mine and theirs, in the form's order. */
  fields: ConflictField[];
}

export const CONFLICT_FIELDS = ['displayName', 'username', 'email', 'bio', 'language', 'interests'] as const;
export type ConflictField = (typeof CONFLICT_FIELDS)[number];
export type Side = 'mine' | 'theirs';

const current = signal<ProfileConflict | null>(null);

/** The conflict waiting for the member's choice, if any. */
export const profileConflict = computed(() => current.value);

/** The one writer: a conflict is put before the member (conflict-compare.ts) or ended. */
export function setProfileConflict(conflict: ProfileConflict | null): void {
  current.value = conflict;
}

/** The profile's fields as a save sends them (an absent bio is an empty one). */
export function fieldsOf(profile: Profile): ProfilePatch {
  const { displayName, username, email, bio, language, interests } = profile;
  return { displayName, username, email, bio: bio ?? '', language, interests };
}
