import type { ProfilePatch } from './requests';
import { saveProfile } from './save';
import { closeConflict, mergedFields, suggestedChoice } from './conflict-compare';
import { type ConflictField, profileConflict, type Side } from './conflict-state';
import { clearProfileDraft } from './draft';
import { dropQueuedSave } from './outbox';
import { setProfileState as set } from './store';

/**
 * What the member chose for a conflict: their changes ("keep mine": each field they changed from
 * the version their edit started from wins, every other keeps the server's value), the server's
 * version, or field by field.
 */
export type Resolution = { kind: 'mine' } | { kind: 'theirs' } | { kind: 'merge'; choice: Record<ConflictField, Side> };

/**
 * Ends the conflict as the member chose. "Theirs" drops the edit (draft, avatar, queued save) and
 * shows the server's version; "mine" (a three-way merge from the edit's base: a field this device
 * never touched keeps what another device saved) and a merge are saved over the server's version, naming its
 * ETag, through the one save path (sent, or queued when offline; a newer change elsewhere opens a
 * new conflict). Rejects, the conflict still open, when the save is refused.
 */
export async function resolveProfileConflict(resolution: Resolution): Promise<'discarded' | 'saved' | 'queued' | 'conflict'> {
  const conflict = profileConflict.peek();
  if (!conflict) return 'discarded';
  // The server's version is now the one the member's choice is made on: its ETag is the If-Match.
  set('conflict:theirs', { profile: conflict.theirs, etag: conflict.etag });
  // The edit now lives in this choice: the queued copy, refused with its old ETag, is not replayed.
  if (conflict.queued) await dropQueuedSave();
  if (resolution.kind === 'theirs') {
    clearProfileDraft(conflict.id);
    closeConflict(conflict);
    return 'discarded';
  }
  // Without the base, which fields the member changed is unknown: "mine" is then all of theirs (suggestedChoice).
  const choice = resolution.kind === 'mine' ? suggestedChoice(conflict) : resolution.choice;
  const fields: ProfilePatch = mergedFields(conflict, choice);
  // The conflict stays on screen until the save is through; a newer conflict replaces it.
  const outcome = await saveProfile({ kind: 'update', id: conflict.id, fields }, conflict.avatar);
  closeConflict(conflict);
  return outcome;
}
