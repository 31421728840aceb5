import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { setTokenKeeper } from '../../api/credentials';
import { forgetAvatars } from './avatar-images';
import { useAvatarSrc } from './useAvatarSrc';

const AVATAR = 'https://api.example.org/avatars/p-1';
const OTHER = 'https://api.example.org/avatars/p-2';

/** A fetch whose answers the test hands out one by one, in the order asked. */
function controlledFetch() {
  const pending: { url: string; init: RequestInit; answer: (r: Response) => void; fail: (e: unknown) => void }[] = [];
  const fetchMock = vi.fn(
    (url: string, init: RequestInit) =>
      new Promise<Response>((answer, fail) => {
        pending.push({ url, init, answer, fail });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, pending };
}

const image = () => new Response(new Blob(['png'], { type: 'image/png' }), { status: 200 });

let made: string[];
let revoked: string[];
beforeEach(() => {
  forgetAvatars();
  setTokenKeeper({ accessToken: async () => 'token-1' });
  made = [];
  revoked = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:avatar-${made.length + 1}`;
    made.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url: string) => {
    revoked.push(url);
  });
});
afterEach(() => {
  setTokenKeeper({ accessToken: async () => null });
});

describe('useAvatarSrc', () => {
  it('fetches nothing when there is no avatar, and says there is none', async () => {
    const { fetchMock } = controlledFetch();
    const { result } = renderHook(() => useAvatarSrc(null));
    // Give a load that should not have started the time to reach fetch.
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(result.current).toBeNull();
  });

  it('shows an image made on this device as it is', async () => {
    const { fetchMock } = controlledFetch();
    const { result } = renderHook(() => useAvatarSrc('blob:chosen'));
    expect(result.current).toBe('blob:chosen');
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('fetches the avatar with the member token and gives it as an object URL once here', async () => {
    const { fetchMock, pending } = controlledFetch();
    const { result } = renderHook(() => useAvatarSrc(AVATAR));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    expect(pending[0]!.url).toBe(AVATAR);
    expect(pending[0]!.init.headers).toEqual({ Authorization: 'Bearer token-1' });
    expect(result.current).toBeUndefined();
    pending[0]!.answer(image());
    await waitFor(() => expect(result.current).toBe('blob:avatar-1'));
    expect(revoked).toEqual([]);
  });

  it('says there is none for an image the server refused, and for one it could not fetch', async () => {
    const { fetchMock, pending } = controlledFetch();
    const { result, rerender } = renderHook(({ url }) => useAvatarSrc(url), { initialProps: { url: AVATAR } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    pending[0]!.answer(new Response('gone', { status: 404 }));
    await waitFor(() => expect(result.current).toBeNull());
    rerender({ url: OTHER });
    // Another avatar: on its way again, not the first one's answer.
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    pending[1]!.fail(new TypeError('Failed to fetch'));
    await waitFor(() => expect(result.current).toBeNull());
    expect(made).toEqual([]);
  });

  it('fetches an avatar once for every place showing it, and keeps it for the next screen', async () => {
    const { fetchMock, pending } = controlledFetch();
    // The bar's avatar and the card's, at once.
    const bar = renderHook(() => useAvatarSrc(AVATAR));
    const card = renderHook(() => useAvatarSrc(AVATAR));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    pending[0]!.answer(image());
    await waitFor(() => expect(card.result.current).toBe('blob:avatar-1'));
    expect(bar.result.current).toBe('blob:avatar-1');
    card.unmount();
    bar.unmount();
    expect(revoked).toEqual([]);

    // The screen opened again: the image from the first render, nothing fetched.
    const again = renderHook(() => useAvatarSrc(AVATAR));
    expect(again.result.current).toBe('blob:avatar-1');
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).toHaveBeenCalledOnce();

    // Sign-out frees it: the next one is fetched again.
    again.unmount();
    forgetAvatars();
    expect(revoked).toEqual(['blob:avatar-1']);
    renderHook(() => useAvatarSrc(AVATAR));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });

  it('asks again on the next screen for an avatar it could not have', async () => {
    const { fetchMock, pending } = controlledFetch();
    const first = renderHook(() => useAvatarSrc(AVATAR));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    pending[0]!.fail(new TypeError('Failed to fetch'));
    await waitFor(() => expect(first.result.current).toBeNull());
    first.unmount();
    const next = renderHook(() => useAvatarSrc(AVATAR));
    expect(next.result.current).toBeUndefined();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    pending[1]!.answer(image());
    await waitFor(() => expect(next.result.current).toBe('blob:avatar-1'));
  });

  it('an image arriving after its screen closed is kept for the next one', async () => {
    const { fetchMock, pending } = controlledFetch();
    const { unmount } = renderHook(() => useAvatarSrc(AVATAR));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    unmount();
    pending[0]!.answer(image());
    await waitFor(() => expect(made).toEqual(['blob:avatar-1']));
    expect(renderHook(() => useAvatarSrc(AVATAR)).result.current).toBe('blob:avatar-1');
    expect(revoked).toEqual([]);
  });

  it('on a new avatar shows none until the new one is here, then the new one; only the last few unused are kept', async () => {
    const { fetchMock, pending } = controlledFetch();
    const { result, rerender, unmount } = renderHook(({ url }) => useAvatarSrc(url), { initialProps: { url: AVATAR } });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());
    pending[0]!.answer(image());
    await waitFor(() => expect(result.current).toBe('blob:avatar-1'));

    rerender({ url: OTHER });
    expect(result.current).toBeUndefined();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(pending[1]!.url).toBe(OTHER);
    pending[1]!.answer(image());
    await waitFor(() => expect(result.current).toBe('blob:avatar-2'));

    // The same avatar again is not fetched again.
    rerender({ url: OTHER });
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchMock).toHaveBeenCalledTimes(2);

    // Versions after versions: the oldest unused images are freed, the one shown never.
    for (let v = 3; v <= 6; v++) {
      rerender({ url: `${OTHER}?v=${v}` });
      await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(v));
      pending[v - 1]!.answer(image());
      await waitFor(() => expect(result.current).toBe(`blob:avatar-${v}`));
    }
    expect(revoked).toEqual(['blob:avatar-1']);
    unmount();
    expect(revoked).toEqual(['blob:avatar-1', 'blob:avatar-2']);
  });
});
