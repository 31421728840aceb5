import type { PendingProfileSave } from './pending-save';
import type { Profile } from './requests';

/**
 * The profile as it will be once the save waiting on the device is sent: what the profile screen
 * shows meanwhile, so that a member who saved offline sees what they saved, not the version from
 * before. An update is laid over the profile held; a create is shown from its own fields (it has no
 * id yet, and "member since" is the moment it was saved). Its avatar, a file not sent yet, is
 * `avatarUrl` (an object URL the caller made of it) or, without one, the profile's own.
 */
export function profileWithPending(held: Profile | null, save: PendingProfileSave | null, avatarUrl: string | null = null): Profile | null {
  if (!save) return held;
  // A field the save leaves out keeps the value held.
  const fields = Object.fromEntries(Object.entries(save.fields).filter(([, value]) => value !== undefined));
  if (save.kind === 'update') {
    if (!held || held.id !== save.id) return held;
    return { ...held, ...fields, avatar: avatarUrl ?? held.avatar ?? null };
  }
  // A profile already there is the one to show: a create cannot replace it.
  if (held) return held;
  const since = new Date(save.queuedAt).toISOString();
  return { ...save.fields, id: '', createdAt: since, updatedAt: since, interests: save.fields.interests ?? [], avatar: avatarUrl };
}
