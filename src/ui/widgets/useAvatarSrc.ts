import { useEffect, useState } from 'react';

/**
 * The avatar as an object URL. The image is the member's own and the API asks for their token,
 * which an <img> cannot send: it is fetched with it, and shown once it is here.
 */
export function useAvatarSrc(url: string | null | undefined): string | undefined {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let made: string | undefined;
    void import('../../api/credentials')
      .then(async ({ authorizationHeader }) => {
        const response = await fetch(url, { headers: await authorizationHeader(), signal: controller.signal });
        if (!response.ok) return;
        made = URL.createObjectURL(await response.blob());
        if (controller.signal.aborted) URL.revokeObjectURL(made);
        else setSrc(made);
      })
      // No image (offline and never seen, refused): the initials stay.
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
      setSrc(undefined);
    };
  }, [url]);
  return src;
}
