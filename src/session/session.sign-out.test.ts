import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { eventually, fresh, queuedCreate, session, settle, resetBetweenTests } from './session.test-support';

/**
 * Sign-out, here, everywhere or from another tab: what is cleared from the device and from memory,
 * and what the provider is asked.
 */
const { oidc } = await vi.hoisted(() => import('./session.test-support'));
vi.mock('../api/oidc-client', () => oidc);

resetBetweenTests();

describe('the session model', () => {
  it('another tab signing out signs this one out at once: the member and what is held of them in memory are gone', async () => {
    const { store, auth, model } = await fresh();
    const { setProfileState, profile } = await import('../profile/store');
    await store.writeSession(session());
    await model.restoreSession();
    setProfileState('test', { profile: { id: 'p-1', displayName: 'Ada' } as never });
    const otherTab = new BroadcastChannel('circle-session');
    otherTab.postMessage({ type: 'signed-out' });
    await eventually(async () => expect(auth.isLoggedIn.value).toBe(false));
    expect(auth.member.value).toBeNull();
    expect(auth.sessionExpired.value).toBe(false);
    expect(profile.value).toBeNull();
    // Another message on the channel changes nothing.
    await store.writeSession(session());
    await model.restoreSession();
    otherTab.postMessage({ type: 'hello' });
    otherTab.postMessage(null);
    await settle();
    expect(auth.isLoggedIn.value).toBe(true);
    otherTab.close();
  });

  it("another tab's sign-out clears this one's conflict, and leaves the device's data to the tab that signed out", async () => {
    const { store, auth, model } = await fresh();
    const { setProfileConflict, profileConflict } = await import('../profile/conflict-state');
    const { writePendingSave, readPendingSave } = await import('../profile/pending-save');
    await store.writeSession(session());
    await model.restoreSession();
    setProfileConflict({ id: 'p-1', mine: {}, base: null, avatar: null, theirs: {} as never, etag: '"v2"', queued: false, fields: [] });
    // Written here after the other tab had cleared the device: that tab's sign-out already did its part.
    localStorage.setItem('draft.profile.p-1', JSON.stringify({ bio: 'typed here' }));
    await writePendingSave(queuedCreate('k-here'));
    const otherTab = new BroadcastChannel('circle-session');
    otherTab.postMessage({ type: 'signed-out' });
    await eventually(async () => expect(auth.isLoggedIn.value).toBe(false));
    await eventually(async () => expect(profileConflict.value).toBeNull());
    expect(localStorage.getItem('draft.profile.p-1')).not.toBeNull();
    expect(await readPendingSave()).toMatchObject({ key: 'k-here' });
    otherTab.close();
  });

  it('sign-out tells the other tabs of the app', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    const otherTab = new BroadcastChannel('circle-session');
    const heard: unknown[] = [];
    otherTab.addEventListener('message', (event) => heard.push(event.data));
    await model.endSession();
    await eventually(async () => expect(heard).toEqual([{ type: 'signed-out' }]));
    otherTab.close();
  });

  it('sign-out removes the member’s drafts, queued save, kept inbox and session, then ends the session at the provider', async () => {
    const { store, auth, model } = await fresh();
    const { writePendingSave, readPendingSave } = await import('../profile/pending-save');
    await store.writeSession(session());
    await model.restoreSession();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    localStorage.setItem('draft.profile.p-1', JSON.stringify({ bio: 'x' }));
    localStorage.setItem('cache.notifications', JSON.stringify([{ id: 'n-1', title: 'Welcome' }]));
    // The inbox kept for the next visit, and its read marks not sent yet, are the member's.
    localStorage.setItem('inbox.list', JSON.stringify({ items: [{ id: 'n-1', title: 'Welcome' }], language: 'en' }));
    localStorage.setItem('inbox.marks', JSON.stringify({ ids: { 'n-1': true } }));
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: 's-1', code: 'MSFT' }]));
    localStorage.setItem('preference', JSON.stringify({ language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
    await writePendingSave(queuedCreate('k-1'));
    await model.endSession();
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(localStorage.getItem('draft.profile.p-1')).toBeNull();
    expect(localStorage.getItem('cache.notifications')).toBeNull();
    expect(localStorage.getItem('inbox.list')).toBeNull();
    expect(localStorage.getItem('inbox.marks')).toBeNull();
    // The shared lists are nobody's: they stay for the next visit.
    expect(localStorage.getItem('cache.symbols')).not.toBeNull();
    expect(localStorage.getItem('preference')).not.toBeNull();
    expect(await readPendingSave()).toBeNull();
    expect(await store.readSession()).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.sessionExpired.value).toBe(false);
    expect(oidc.revoke).toHaveBeenCalledTimes(1);
    expect(location.assign).toHaveBeenCalledWith('https://app.example/oidc/session/end?x=1');
  });

  it('clearing the member’s data cancels a profile read still running: its late answer puts nothing back', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    const { configureApi } = await import('../api/instance');
    configureApi('/api/');
    const answers: ((response: Response) => void)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (request: Request) =>
          new Promise<Response>((resolve, reject) => {
            request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
            answers.push(resolve);
          }),
      ),
    );
    try {
      const [{ fetchProfile }, { profileState }] = await Promise.all([import('../profile/store'), import('../profile/store')]);
      // Its outcome is taken at once, as the screens do: the cancellation is not an unhandled rejection.
      const read = fetchProfile().then(
        (profile) => ({ profile }),
        (error: unknown) => ({ error }),
      );
      await vi.waitFor(() => expect(answers).toHaveLength(1));
      await model.clearMemberData();
      const late = {
        id: 'p-1',
        displayName: 'Ada Lovelace',
        username: 'ada',
        email: 'ada@example.org',
        bio: '',
        interests: [],
        language: 'en',
        createdAt: '2026-11-01T00:00:00Z',
        updatedAt: '2026-11-01T00:00:00Z',
      };
      answers[0]!(new Response(JSON.stringify(late), { status: 200, headers: { 'content-type': 'application/json' } }));
      expect(await read).toMatchObject({ error: { name: 'AbortError' } });
      expect(profileState.value).toMatchObject({ profile: null, loading: false });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sign-out empties the worker’s cache of API answers and the profile held in memory', async () => {
    const { store, model } = await fresh();
    const { setProfileState, profile } = await import('../profile/store');
    const deleted: string[] = [];
    vi.stubGlobal('caches', { delete: vi.fn(async (name: string) => deleted.push(name) > 0) });
    await store.writeSession(session());
    await model.restoreSession();
    setProfileState('test', { profile: { id: 'p-1', displayName: 'Ada' } as never });
    await model.endSession();
    expect(deleted).toEqual(['api-reads']);
    expect(profile.value).toBeNull();
    vi.unstubAllGlobals();
  });

  it('signed out while offline: the device is cleared at once, the provider is not asked', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    await model.endSession();
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(oidc.revoke).not.toHaveBeenCalled();
    expect(location.assign).not.toHaveBeenCalled();
  });

  it('sign-out forgets the chosen avatars and a conflict waiting for the member’s choice', async () => {
    const { store, model } = await fresh();
    const { keepDraftAvatar, avatarStore } = await import('../profile/draft');
    const avatars = async () => {
      const { idb, store: kept } = await (avatarStore() ?? Promise.reject(new Error('no IndexedDB')));
      return idb.keys(kept);
    };
    const { setProfileConflict, profileConflict } = await import('../profile/conflict-state');
    await store.writeSession(session());
    await model.restoreSession();
    await keepDraftAvatar('p-1', new File(['png'], 'me.png', { type: 'image/png' }));
    expect(await avatars()).toHaveLength(1);
    setProfileConflict({
      id: 'p-1',
      mine: { displayName: 'Ada' },
      base: null,
      avatar: null,
      theirs: { id: 'p-1', displayName: 'Ada L.' } as never,
      etag: '"2"',
      queued: false,
      fields: ['displayName'],
    });
    await model.endSession();
    expect(await avatars()).toEqual([]);
    expect(profileConflict.value).toBeNull();
  });

  it('sign-out before the stored session was read back still ends it at the provider', async () => {
    const { store, auth, model } = await fresh();
    localStorage.setItem('auth.isLoggedIn', 'true');
    await store.writeSession(session());
    await model.endSession();
    expect(await store.readSession()).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(oidc.revoke).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ refreshToken: 'refresh-1' }));
    expect(location.assign).toHaveBeenCalledWith('https://app.example/oidc/session/end?x=1');
  });

  it('sign-out everywhere: the provider ends every session of the member, and there is nothing left to end on its page', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    oidc.signOutEverywhere.mockClear().mockResolvedValueOnce(true);
    oidc.revoke.mockClear();
    vi.mocked(location.assign).mockClear();
    await model.endSession(true);
    expect(oidc.signOutEverywhere).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ accessToken: 'access-1' }));
    expect(await store.readSession()).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(oidc.revoke).not.toHaveBeenCalled();
    expect(location.assign).not.toHaveBeenCalled();
  });

  it('sign-out everywhere refused (another provider, a token no longer valid): this device signs out as usual', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    oidc.signOutEverywhere.mockClear().mockResolvedValueOnce(false);
    oidc.revoke.mockClear();
    await model.endSession(true);
    expect(oidc.signOutEverywhere).toHaveBeenCalledTimes(1);
    expect(oidc.revoke).toHaveBeenCalledTimes(1);
    expect(location.assign).toHaveBeenCalledWith('https://app.example/oidc/session/end?x=1');
    // A plain sign-out does not ask for every device.
    oidc.signOutEverywhere.mockClear();
    await store.writeSession(session());
    await model.restoreSession();
    await model.endSession();
    expect(oidc.signOutEverywhere).not.toHaveBeenCalled();
  });
});
