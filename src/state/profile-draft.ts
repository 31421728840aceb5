import { readPersisted, removePersisted } from '../lib/persist';

/** Where the profile form keeps what was typed: one draft for a new profile, one per profile edited. */
export function draftKey(profileId: string | null | undefined): string {
  return profileId ? `draft.profile.${profileId}` : 'draft.profile.new';
}

export function clearProfileDraft(profileId: string | null | undefined): void {
  removePersisted(draftKey(profileId));
}

/** Whether something typed for this profile is still waiting to be saved. */
export function hasProfileDraft(profileId: string | null | undefined): boolean {
  return readPersisted(draftKey(profileId), (raw) => (raw ? true : null), false);
}
