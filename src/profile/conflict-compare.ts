import { ApiError } from '../api/errors';
import type { Profile, ProfilePatch } from './requests';
import {
  CONFLICT_FIELDS,
  type ConflictField,
  fieldsOf,
  type ProfileConflict,
  profileConflict,
  setProfileConflict,
  type Side,
} from './conflict-state';
import { profileCalls } from './store';

/*
 * A save the server refused with 412 is a conflict (conflict-state.ts): this is the code that reads
 * the server's version and compares the two, loaded with the first conflict, never at start.
 */

/** A field's value compared and shown as text: interests joined, nothing as empty. */
export function textOf(fields: ProfilePatch | null, field: ConflictField): string {
  const value = fields?.[field];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** The fields an edit sets to something other than the server's version holds (a field it leaves out is not in conflict). */
export function differingFields(mine: ProfilePatch, theirs: ProfilePatch): ConflictField[] {
  return CONFLICT_FIELDS.filter((field) => mine[field] !== undefined && textOf(mine, field) !== textOf(theirs, field));
}

/**
 * The side a merge starts from for each differing field: the member's value where they changed
 * it, the server's where they did not (without the base, theirs is not known to be untouched: mine).
 */
export function suggestedChoice(conflict: Pick<ProfileConflict, 'fields' | 'mine' | 'base'>): Record<ConflictField, Side> {
  const choice = Object.fromEntries(CONFLICT_FIELDS.map((field) => [field, 'mine'])) as Record<ConflictField, Side>;
  for (const field of conflict.fields) {
    if (conflict.base && textOf(conflict.base, field) === textOf(conflict.mine, field)) choice[field] = 'theirs';
  }
  return choice;
}

/**
 * Who changed a differing field since the edit's base: this device ('here'), the other one
 * ('there'), or both, the one real conflict, where a choice must be made. Unknown (null) without
 * the base.
 */
export function changedBy(
  conflict: Pick<ProfileConflict, 'mine' | 'theirs' | 'base'>,
  field: ConflictField,
): 'here' | 'there' | 'both' | null {
  if (!conflict.base) return null;
  const base = textOf(conflict.base, field);
  const here = textOf(conflict.mine, field) !== base;
  const there = textOf(fieldsOf(conflict.theirs), field) !== base;
  return here && there ? 'both' : here ? 'here' : 'there';
}

/** The fields to send for a merge: each differing field from the chosen side, every other from mine (equal to theirs). */
export function mergedFields(
  conflict: Pick<ProfileConflict, 'fields' | 'mine' | 'theirs'>,
  choice: Record<ConflictField, Side>,
): ProfilePatch {
  const theirs = fieldsOf(conflict.theirs);
  const merged: ProfilePatch = { ...conflict.mine };
  for (const field of conflict.fields) {
    if (choice[field] === 'theirs') Object.assign(merged, { [field]: theirs[field] });
  }
  return merged;
}

export interface ConflictingEdit {
  id: string;
  mine: ProfilePatch;
  avatar: Blob | null;
  /** The profile the edit was made on (or its fields), if known. */
  base: Profile | ProfilePatch | null;
  queued: boolean;
}

const isProfile = (value: Profile | ProfilePatch): value is Profile => 'id' in value;

/** Reads the server's version of the profile and its ETag, and puts both versions before the member. */
export async function openConflict(edit: ConflictingEdit): Promise<ProfileConflict> {
  const { profile: theirs, etag } = await (await profileCalls()).read();
  if (!theirs || theirs.id !== edit.id) {
    // Deleted (or replaced) elsewhere: there is nothing left to apply the edit to. The draft stays.
    throw new ApiError(404, { status: 404, error: 'Not Found', message: `Profile '${edit.id}' no longer exists` });
  }
  const base = edit.base && isProfile(edit.base) ? fieldsOf(edit.base) : edit.base;
  const conflict: ProfileConflict = {
    id: edit.id,
    mine: edit.mine,
    base,
    avatar: edit.avatar,
    theirs,
    // A server that sends no ETag cannot be matched: the next attempt is refused again, never blind.
    etag: etag ?? '"unknown"',
    queued: edit.queued,
    fields: differingFields(edit.mine, fieldsOf(theirs)),
  };
  setProfileConflict(conflict);
  return conflict;
}

/** The member made their choice (or the conflict was replaced by a newer one). */
export function closeConflict(conflict: ProfileConflict): void {
  if (profileConflict.peek() === conflict) setProfileConflict(null);
}

/** For tests and sign-out: no conflict. */
export function resetProfileConflict(): void {
  setProfileConflict(null);
}
