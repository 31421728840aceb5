import { useEffect, useState } from 'react';

/** The page's kept avatars (./avatar-images), once the first avatar with an image has loaded them. */
let images: typeof import('./avatar-images') | undefined;

/**
 * The avatar as a URL an <img> can show: undefined while it is on its way, null when there is none
 * (no avatar, or one that could not be had). The image is the member's own and the API asks for
 * their token, which an <img> cannot send: it is fetched with it, once for the page (./avatar-images),
 * and shown once it is here; one fetched before shows from the first render. An object URL made on
 * this device (an avatar chosen, not sent yet) is shown as it is.
 */
export function useAvatarSrc(url: string | null | undefined): string | null | undefined {
  const local = url?.startsWith('blob:') ? url : null;
  const [fetched, setFetched] = useState<{ url: string; src: string | null } | null>(null);
  useEffect(() => {
    if (!url || local) return;
    let shown = true;
    let release = () => {};
    void import('./avatar-images').then((loaded) => {
      images = loaded;
      if (!shown) return;
      const entry = loaded.takeAvatar(url);
      release = () => loaded.releaseAvatar(entry);
      return entry.here.then(() => shown && setFetched({ url, src: entry.src ?? null }));
    });
    return () => {
      shown = false;
      release();
    };
  }, [url, local]);
  if (!url) return null;
  if (local) return local;
  // Only the answer for this URL counts, or the image kept for it.
  return images?.keptAvatar(url) || (fetched?.url === url ? fetched.src : undefined);
}
