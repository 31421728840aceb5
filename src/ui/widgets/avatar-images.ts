import { authorizationHeader } from '../../api/credentials';

export interface KeptAvatar {
  /** The object URL once the image is here; null when it could not be had. */
  src?: string | null;
  /** Settles once `src` is set. */
  here: Promise<void>;
  /** The avatars on screen showing it: a kept image is freed only when none is. */
  users: number;
}

/**
 * The avatars fetched in this page, by URL. The API's avatar URL changes with the image (openapi.yaml,
 * Profile.avatar), so one URL is one image for good: it is fetched once for every avatar showing it
 * (the bar's and the card's), and a screen opened again shows it at once instead of an empty place
 * while it is fetched again. Only the last few unused ones are kept. Loaded with the first avatar
 * that has an image, not with the first screen.
 */
const kept = new Map<string, KeptAvatar>();
const UNUSED_KEPT = 4;

/** The image kept for `url`, if it is here. */
export const keptAvatar = (url: string): string | null | undefined => kept.get(url)?.src;

/** The image of `url` for one more avatar on screen: the one kept, or one fetched with the member's token. */
export function takeAvatar(url: string): KeptAvatar {
  let entry = kept.get(url);
  if (!entry) {
    const made: KeptAvatar = { users: 0, here: Promise.resolve() };
    made.here = authorizationHeader()
      .then((headers) => fetch(url, { headers }))
      .then(async (response) => {
        if (!response.ok) throw new Error(`avatar ${response.status}`);
        made.src = URL.createObjectURL(await response.blob());
      })
      .catch(() => {
        // No image (offline and never seen, refused): the initials stand in, and the next screen asks again.
        made.src = null;
        kept.delete(url);
      });
    entry = made;
    kept.set(url, entry);
  }
  entry.users++;
  return entry;
}

/** One avatar fewer shows `entry`; the oldest images none shows are freed, past the few kept. */
export function releaseAvatar(entry: KeptAvatar): void {
  entry.users--;
  const unused = [...kept].filter(([, e]) => e.users === 0 && e.src);
  for (const [url, e] of unused.slice(0, Math.max(0, unused.length - UNUSED_KEPT))) {
    URL.revokeObjectURL(e.src!);
    kept.delete(url);
  }
}

/** Frees every kept image: a sign-out leaves none of the member's in the page. */
export function forgetAvatars(): void {
  for (const entry of kept.values()) if (entry.src) URL.revokeObjectURL(entry.src);
  kept.clear();
}
