import { useEffect, useState } from 'react';

/**
 * The avatar as a URL an <img> can show: undefined while it is on its way, null when there is none
 * (no avatar, or one that could not be had). The image is the member's own and the API asks for
 * their token, which an <img> cannot send: it is fetched with it, and shown once it is here. An
 * object URL made on this device (an avatar chosen, not sent yet) is shown as it is.
 */
export function useAvatarSrc(url: string | null | undefined): string | null | undefined {
  const local = url?.startsWith('blob:') ? url : null;
  const [fetched, setFetched] = useState<{ url: string; src: string | null } | null>(null);
  useEffect(() => {
    if (!url || local) return;
    const controller = new AbortController();
    let made: string | undefined;
    void import('../../api/credentials')
      .then(async ({ authorizationHeader }) => {
        const response = await fetch(url, { headers: await authorizationHeader(), signal: controller.signal });
        if (!response.ok) throw new Error(`avatar ${response.status}`);
        made = URL.createObjectURL(await response.blob());
        if (controller.signal.aborted) URL.revokeObjectURL(made);
        else setFetched({ url, src: made });
      })
      // No image (offline and never seen, refused): the initials stand in.
      .catch(() => !controller.signal.aborted && setFetched({ url, src: null }));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
      setFetched(null);
    };
  }, [url, local]);
  if (!url) return null;
  if (local) return local;
  // Only the answer for this URL counts: one for the URL before is already freed.
  return fetched?.url === url ? fetched.src : undefined;
}
