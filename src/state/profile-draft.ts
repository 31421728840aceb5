import { removePersisted } from './persist';

/** Where the profile form keeps what was typed: one draft for a new profile, one per profile edited. */
export function draftKey(profileId: string | null | undefined): string {
  return profileId ? `draft.profile.${profileId}` : 'draft.profile.new';
}

export function clearProfileDraft(profileId: string | null | undefined): void {
  removePersisted(draftKey(profileId));
}
