import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredSession } from '../api/session-store';

const oidc = vi.hoisted(() => ({
  renewSession: vi.fn(),
  completeSignIn: vi.fn(),
  revoke: vi.fn(async () => undefined),
  signOutEverywhere: vi.fn(async () => true),
  signOutUrl: vi.fn(async () => new URL('https://app.example/oidc/session/end?x=1')),
  signInUrl: vi.fn(async () => new URL('https://app.example/oidc/auth?x=1')),
}));
vi.mock('../api/oidc-client', () => oidc);

const ISSUER = `${location.origin}/oidc`;
const session = (overrides: Partial<StoredSession> = {}): StoredSession => ({
  accessToken: 'access-1',
  expiresAt: Date.now() + 300_000,
  refreshToken: 'refresh-1',
  idToken: 'id-1',
  issuer: ISSUER,
  subject: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@circle.example.org',
  ...overrides,
});

/** Ada's profile creation, queued on the device while offline (idempotency key `key`). */
const queuedCreate = (key: string) => ({
  kind: 'create' as const,
  fields: { displayName: 'Ada', username: 'ada_l', email: 'ada@example.org' },
  avatar: null,
  apiBase: `${location.origin}/api/`,
  key,
  queuedAt: Date.now(),
});

// Taken before any test fakes the timers: a short real wait lets the IndexedDB work a renewal
// started by a (fake) timer run to its end.
const realSetTimeout = globalThis.setTimeout;
const settle = () => new Promise<void>((resolve) => realSetTimeout(resolve, 30));
/** Waits in real time, leaving the fake clock where the test put it (vi.waitFor would move it). */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await check();
    } catch (error) {
      if (tries === 50) throw error;
      await settle();
    }
  }
}

/** The clock and the timers under the test's control; IndexedDB keeps running on its own. */
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

/** Another tab's renewal as the Web Locks API shows it: `hold` runs before this tab gets the lock. */
function stubLocks(hold: () => Promise<unknown> = async () => undefined) {
  const request = vi.fn(async (_name: string, run: () => Promise<unknown>) => {
    await hold();
    return run();
  });
  Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
  return request;
}

function showTab(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

// Each fresh model listens to the tab and the network: the ones of earlier tests must not answer too.
const removals: Array<() => void> = [];
function trackListeners(target: EventTarget) {
  const add = target.addEventListener.bind(target);
  vi.spyOn(target, 'addEventListener').mockImplementation((type, listener, options) => {
    add(type, listener, options);
    removals.push(() => target.removeEventListener(type, listener, options));
  });
}

async function fresh() {
  vi.resetModules();
  trackListeners(document);
  trackListeners(window);
  const store = await import('../api/session-store');
  const auth = await import('../state/auth');
  // Through its entry, as the app loads it: the API's requests then take their tokens from it.
  const model = await (await import('./index')).loadSession();
  return { store, auth, model };
}

/**
 * Ada signed in, with a draft and a queued save, until her session ends on its own: the provider
 * refuses the renewal. Resolves with what the renewal gave (null).
 */
async function expireWithDataKept({ store, model }: Awaited<ReturnType<typeof fresh>>) {
  const { writePendingSave } = await import('../profile/pending-save');
  await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
  await model.restoreSession().catch(() => undefined);
  localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada’s draft' }));
  await writePendingSave(queuedCreate('k-ada'));
  oidc.renewSession.mockRejectedValue(Object.assign(new Error('grant revoked'), { code: 'invalid_grant' }));
  return model.renew(true);
}

beforeEach(() => {
  localStorage.clear();
  for (const fn of Object.values(oidc)) fn.mockClear();
  vi.spyOn(location, 'assign').mockImplementation(() => undefined);
});
afterEach(async () => {
  for (const remove of removals.splice(0)) remove();
  vi.useRealTimers();
  Reflect.deleteProperty(navigator, 'locks');
  Reflect.deleteProperty(document, 'visibilityState');
  oidc.renewSession.mockReset();
  oidc.completeSignIn.mockReset();
  const { clearSession } = await import('../api/session-store');
  await clearSession();
  vi.restoreAllMocks();
});

describe('the session model', () => {
  it('restores a stored session of this provider: the member is known and the token used as is', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    expect(auth.member.value).toEqual({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org', roles: [] });
    expect(auth.isLoggedIn.value).toBe(true);
    expect(await model.accessToken()).toBe('access-1');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('drops a session of another provider, and a flag left without a session', async () => {
    const { store, auth, model } = await fresh();
    localStorage.setItem('auth.isLoggedIn', 'true');
    await store.writeSession(session({ issuer: 'https://elsewhere.example/realms/x' }));
    await model.restoreSession();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(await store.readSession()).toBeNull();
  });

  it("a session of another provider found at start takes its member's drafts and queued save with it", async () => {
    const { store, model } = await fresh();
    const { writePendingSave, readPendingSave } = await import('../profile/pending-save');
    await store.writeSession(session({ issuer: 'https://elsewhere.example/realms/x' }));
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada’s draft' }));
    await writePendingSave(queuedCreate('k-elsewhere'));
    await model.restoreSession();
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(await readPendingSave()).toBeNull();
    expect(await store.readDataOwner()).toBeNull();
  });

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

  it('a flag left from an earlier visit with no session stored: the start shows the member signed out', async () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    const { auth, model } = await fresh();
    expect(auth.isLoggedIn.value).toBe(true);
    await model.restoreSession();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.sessionExpired.value).toBe(false);
    expect(localStorage.getItem('auth.isLoggedIn')).toBe('false');
  });

  it('a newer token refused before the session was read back does not end it: the start reads it back and deals with it', async () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    const { store, auth } = await fresh();
    await store.writeSession(session({ accessToken: 'access-2' }));
    const { bearerMiddleware } = await import('../api/credentials');
    const { createApiClient } = await import('../api/client');
    const sent: string[] = [];
    const client = createApiClient({
      baseUrl: `${location.origin}/api/`,
      fetch: async (request: Request) => {
        sent.push(request.headers.get('authorization') ?? '');
        return new Response('{"status":401,"error":"Unauthorized","message":"no"}', { status: 401 });
      },
      log: () => undefined,
      // The request went out with the token another tab has since replaced.
      use: [
        bearerMiddleware(
          () => `${location.origin}/api/`,
          async () => 'access-1',
        ),
      ],
    });
    const { response } = await client.GET('/user/profile/myprofile');
    expect(response.status).toBe(401);
    expect(sent).toEqual(['Bearer access-1', 'Bearer access-2']);
    await settle();
    expect(auth.isLoggedIn.value).toBe(true);
    expect(auth.sessionExpired.value).toBe(false);
    expect((await store.readSession())?.accessToken).toBe('access-2');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('renews a token about to expire before handing it out, and stores the new one', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    expect(await model.accessToken()).toBe('access-2');
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    // The provider's client as the deployment configures it, returning to this origin.
    expect(oidc.renewSession).toHaveBeenCalledWith(
      expect.objectContaining({ issuer: '/oidc', clientId: 'circle-web', origin: location.origin }),
      expect.objectContaining({ refreshToken: 'refresh-1' }),
    );
    expect((await store.readSession())?.accessToken).toBe('access-2');
  });

  it('renews once for many requests at the same time', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockImplementationOnce(async () => session({ accessToken: 'access-3' }));
    const tokens = await Promise.all([model.accessToken(), model.accessToken(), model.accessToken()]);
    expect(tokens).toEqual(['access-3', 'access-3', 'access-3']);
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the provider refuses the refresh token, and says it expired', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    await model.restoreSession().catch(() => undefined);
    oidc.renewSession.mockClear();
    oidc.renewSession.mockRejectedValue(Object.assign(new Error('grant revoked'), { code: 'invalid_grant' }));
    expect(await model.renew(true)).toBeNull();
    expect(await model.accessToken()).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.sessionExpired.value).toBe(true);
    expect(await store.readSession()).toBeNull();
  });

  it('keeps the session when the provider cannot be reached (offline, a network failure)', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    // The token in hand is still good for a few seconds: it is used, and the session stays.
    expect(await model.accessToken()).toBe('access-1');
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    expect(await store.readSession()).not.toBeNull();
    expect(auth.sessionExpired.value).toBe(false);
  });

  it('sign-out removes the member’s drafts, queued save and session, then ends the session at the provider', async () => {
    const { store, auth, model } = await fresh();
    const { writePendingSave, readPendingSave } = await import('../profile/pending-save');
    await store.writeSession(session());
    await model.restoreSession();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    localStorage.setItem('draft.profile.p-1', JSON.stringify({ bio: 'x' }));
    localStorage.setItem('cache.notifications', JSON.stringify([{ id: 'n-1', title: 'Welcome' }]));
    localStorage.setItem('cache.symbols', JSON.stringify([{ id: 's-1', code: 'MSFT' }]));
    localStorage.setItem('preference', JSON.stringify({ language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
    await writePendingSave(queuedCreate('k-1'));
    await model.endSession();
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(localStorage.getItem('draft.profile.p-1')).toBeNull();
    expect(localStorage.getItem('cache.notifications')).toBeNull();
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

  it('a different member signing in on this device finds nothing of the one before', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada’s draft' }));
    oidc.completeSignIn.mockResolvedValueOnce({ session: session({ subject: 'grace', name: 'Grace Hopper' }), next: '/profile' });
    expect(await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`))).toBe('/profile');
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(auth.member.value?.name).toBe('Grace Hopper');
  });

  it('a refused token is renewed once, however many requests were refused with it', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    oidc.renewSession.mockImplementationOnce(async () => session({ accessToken: 'access-2' }));
    const tokens = await Promise.all([model.renewRefused('access-1'), model.renewRefused('access-1')]);
    expect(tokens).toEqual(['access-2', 'access-2']);
    // A request refused with the old token after the renewal takes the new one as it is.
    expect(await model.renewRefused('access-1')).toBe('access-2');
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
  });

  it('no new token while the provider cannot be reached: the session stays, nothing is sent again', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    oidc.renewSession.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await model.renewRefused('access-1')).toBeNull();
    expect(auth.isLoggedIn.value).toBe(true);
    expect(await store.readSession()).not.toBeNull();
  });

  it('a different member signing in after the first one’s session expired finds nothing of theirs either', async () => {
    const loaded = await fresh();
    const { auth, model } = loaded;
    const { readPendingSave } = await import('../profile/pending-save');
    // Ada's session ends on its own: her draft and queued save are kept for her return.
    expect(await expireWithDataKept(loaded)).toBeNull();
    expect(auth.sessionExpired.value).toBe(true);
    expect(localStorage.getItem('draft.profile.new')).not.toBeNull();

    // Grace signs in on the same device: Ada's save must never go out with Grace's token.
    oidc.completeSignIn.mockResolvedValueOnce({ session: session({ subject: 'grace', name: 'Grace Hopper' }), next: '/profile' });
    await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`));
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(await readPendingSave()).toBeNull();
    expect(auth.member.value?.subject).toBe('grace');
  });

  it('the same member signing in after their session expired gets their draft and queued save back', async () => {
    const loaded = await fresh();
    const { model } = loaded;
    const { readPendingSave } = await import('../profile/pending-save');
    await expireWithDataKept(loaded);
    oidc.completeSignIn.mockResolvedValueOnce({ session: session({ accessToken: 'access-2' }), next: '/profile' });
    await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`));
    expect(localStorage.getItem('draft.profile.new')).not.toBeNull();
    expect(await readPendingSave()).not.toBeNull();
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

  it('a renewed token refused too: shown signed out, asked to sign in again, and what was typed is kept', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    // The session model was handed to the middleware as its renewer and listener when it loaded.
    const { bearerMiddleware } = await import('../api/credentials');
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    const { createApiClient } = await import('../api/client');
    const client = createApiClient({
      baseUrl: `${location.origin}/api/`,
      fetch: async () => new Response('{"status":401,"error":"Unauthorized","message":"no"}', { status: 401 }),
      log: () => undefined,
      use: [bearerMiddleware(() => `${location.origin}/api/`, model.accessToken)],
    });
    const { response } = await client.GET('/user/profile/myprofile');
    expect(response.status).toBe(401);
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(auth.isLoggedIn.value).toBe(false));
    expect(auth.sessionExpired.value).toBe(true);
    expect(await store.readSession()).toBeNull();
    expect(localStorage.getItem('draft.profile.new')).not.toBeNull();
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

  it('offline, an expired session is kept and renewed once the network is back', async () => {
    const { store, auth, model } = await fresh();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await store.writeSession(session({ expiresAt: Date.now() - 1_000 }));
    await model.restoreSession();
    expect(auth.isLoggedIn.value).toBe(true);
    expect(oidc.renewSession).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(async () => expect((await store.readSession())?.accessToken).toBe('access-2'));
  });

  it('sign-in goes to the provider’s page, with where to come back to and the member’s language', async () => {
    const { model } = await fresh();
    await model.beginSignIn('/profile');
    expect(oidc.signInUrl).toHaveBeenCalledWith(
      expect.objectContaining({ issuer: '/oidc', clientId: 'circle-web', origin: location.origin }),
      '/profile',
      'en',
    );
    expect(location.assign).toHaveBeenCalledWith('https://app.example/oidc/auth?x=1');
  });

  it('a first sign-in on this device keeps what was typed before it', async () => {
    const { auth, model } = await fresh();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Typed first' }));
    oidc.completeSignIn.mockResolvedValueOnce({ session: session(), next: '/profile' });
    expect(await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`))).toBe('/profile');
    expect(localStorage.getItem('draft.profile.new')).not.toBeNull();
    expect(auth.member.value?.subject).toBe('ada');
  });

  it('the same member signing in again keeps their drafts and their queued save', async () => {
    const { store, model } = await fresh();
    const { writePendingSave, readPendingSave } = await import('../profile/pending-save');
    await store.writeSession(session());
    localStorage.setItem('draft.profile.p-1', JSON.stringify({ bio: 'Half typed' }));
    await writePendingSave(queuedCreate('k-1'));
    oidc.completeSignIn.mockResolvedValueOnce({ session: session({ accessToken: 'access-9' }), next: '/profile' });
    await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`));
    expect(localStorage.getItem('draft.profile.p-1')).not.toBeNull();
    expect(await readPendingSave()).not.toBeNull();
    expect(await model.accessToken()).toBe('access-9');
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

  it('a stored session that ran out is renewed before the start is over', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() - 1_000 }));
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    await model.restoreSession();
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    expect((await store.readSession())?.accessToken).toBe('access-2');
  });

  it('a token the provider will not renew: the request goes without one, and the member is asked to sign in again', async () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    const { store, auth, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockRejectedValueOnce(Object.assign(new Error('grant revoked'), { code: 'invalid_grant' }));
    expect(await model.accessToken()).toBeNull();
    expect(auth.sessionExpired.value).toBe(true);
  });

  it('requests get a renewed token through the API client’s own source, not the stored one as it is', async () => {
    const { store } = await fresh();
    const { authorizationHeader } = await import('../api/credentials');
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    expect(await authorizationHeader()).toEqual({ Authorization: 'Bearer access-2' });
  });

  it('a token refused before the session was read back: the newer stored one is taken, nothing renewed', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ accessToken: 'access-2' }));
    expect(await model.renewRefused('access-1')).toBe('access-2');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('two requests refused with the same token, the second after the provider ended the session: still asked to sign in again', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    oidc.renewSession.mockRejectedValue(Object.assign(new Error('grant revoked'), { code: 'invalid_grant' }));
    expect(await model.renewRefused('access-1')).toBeNull();
    expect(await model.renewRefused('access-1')).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.sessionExpired.value).toBe(true);
  });

  it('the stored session gone when a renewal is due (storage cleared): no token, and the member is asked to sign in again', async () => {
    fakeClock();
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    await store.clearSession();
    vi.setSystemTime(Date.now() + 250_000);
    expect(await model.accessToken()).toBeNull();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.sessionExpired.value).toBe(true);
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('a stored session of another provider when a renewal is due is not used', async () => {
    fakeClock();
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    vi.setSystemTime(Date.now() + 250_000);
    await store.writeSession(session({ accessToken: 'elsewhere', issuer: 'https://elsewhere.example/realms/x' }));
    expect(await model.accessToken()).toBeNull();
    expect(auth.sessionExpired.value).toBe(true);
    expect(await store.readSession()).toBeNull();
  });
});

describe('when the session is renewed', () => {
  it('at three quarters of the token’s life, at most a minute before its end', async () => {
    fakeClock();
    const { store, model } = await fresh();
    // Five minutes: renewed a minute before the end.
    await store.writeSession(session({ expiresAt: Date.now() + 300_000 }));
    await model.restoreSession();
    // The provider's next token lives ten seconds only: renewed at seven and a half.
    oidc.renewSession.mockImplementationOnce(async () => session({ accessToken: 'access-2', expiresAt: Date.now() + 10_000 }));
    await vi.advanceTimersByTimeAsync(239_000);
    await settle();
    expect(oidc.renewSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    await eventually(async () => expect((await store.readSession())?.accessToken).toBe('access-2'));
    await vi.advanceTimersByTimeAsync(7_400);
    await settle();
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    expect(await model.accessToken()).toBe('access-2');
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-3' }));
    await vi.advanceTimersByTimeAsync(100);
    await eventually(async () => expect((await store.readSession())?.accessToken).toBe('access-3'));
  });

  it('restoring the session again does not move its renewal: still at three quarters of the token’s whole life', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 10_000 }));
    await model.restoreSession();
    await vi.advanceTimersByTimeAsync(4_000);
    await model.restoreSession();
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    await vi.advanceTimersByTimeAsync(3_400);
    await settle();
    expect(oidc.renewSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    await eventually(async () => expect((await store.readSession())?.accessToken).toBe('access-2'));
  });

  it('a short-lived token restored is used for three quarters of its life, not renewed at once', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 10_000 }));
    await model.restoreSession();
    vi.setSystemTime(Date.now() + 7_000);
    expect(await model.accessToken()).toBe('access-1');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('a request at three quarters exactly gets a renewed token', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 300_000 }));
    await model.restoreSession();
    vi.setSystemTime(Date.now() + 240_000);
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    expect(await model.accessToken()).toBe('access-2');
  });

  it('a long-lived token is still used 61 seconds before its end', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 3_600_000 }));
    await model.restoreSession();
    vi.setSystemTime(Date.now() + 3_539_000);
    expect(await model.accessToken()).toBe('access-1');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('tokens another tab renewed are taken as they are, and renewed on their own schedule', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    // The tab slept through its renewal; the other tab got a token for 100 s meanwhile.
    vi.setSystemTime(Date.now() + 250_000);
    await store.writeSession(session({ accessToken: 'access-2', expiresAt: Date.now() + 100_000 }));
    expect(await model.accessToken()).toBe('access-2');
    // 50 s later that token is in its last quarter but one: still used as it is.
    vi.setSystemTime(Date.now() + 50_000);
    expect(await model.accessToken()).toBe('access-2');
    expect(oidc.renewSession).not.toHaveBeenCalled();
  });

  it('one renewal across tabs at a time: after waiting for the other tab, its tokens are taken', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    vi.setSystemTime(Date.now() + 250_000);
    const lock = stubLocks(() => store.writeSession(session({ accessToken: 'access-2', expiresAt: Date.now() + 300_000 })));
    expect(await model.accessToken()).toBe('access-2');
    expect(oidc.renewSession).not.toHaveBeenCalled();
    // The lock's name is shared by every tab, whatever version of the app each one runs.
    expect(lock).toHaveBeenCalledWith('circle-session-renew', expect.any(Function));
  });

  it('with a good token nothing waits for another tab’s renewal, nor takes the lock', async () => {
    fakeClock();
    const { store, model } = await fresh();
    // The other tab holds the lock for as long as this test runs.
    const lock = stubLocks(() => new Promise(() => undefined));
    const waited = () => settle().then(() => 'waited');
    await store.writeSession(session());
    expect(await Promise.race([model.restoreSession().then(() => 'started'), waited()])).toBe('started');
    expect(await Promise.race([model.accessToken(), waited()])).toBe('access-1');
    showTab('visible');
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(200_000);
    await settle();
    expect(lock).not.toHaveBeenCalled();
  });

  it('a renewal made early moves the next one: nothing runs on the old token’s schedule', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    await vi.advanceTimersByTimeAsync(100_000);
    const lock = stubLocks();
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    expect(await model.renewRefused('access-1')).toBe('access-2');
    expect(lock).toHaveBeenCalledTimes(1);
    // The old token's renewal time passes: nothing; the new one's comes 240 s after it was had.
    await vi.advanceTimersByTimeAsync(200_000);
    await settle();
    expect(lock).toHaveBeenCalledTimes(1);
  });

  it('once signed out, nothing runs on the old schedule', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await model.endSession();
    const lock = stubLocks();
    await vi.advanceTimersByTimeAsync(300_000);
    await settle();
    expect(lock).not.toHaveBeenCalled();
  });

  it('on return to the tab, a token that ran out while it was hidden is renewed; not while it stays hidden', async () => {
    fakeClock();
    const { store, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    // Hidden tabs' timers may not run: the clock moves on without them.
    vi.setSystemTime(Date.now() + 250_000);
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    showTab('hidden');
    await settle();
    expect(oidc.renewSession).not.toHaveBeenCalled();
    showTab('visible');
    await eventually(async () => expect((await store.readSession())?.accessToken).toBe('access-2'));
    expect(await model.accessToken()).toBe('access-2');
  });
});
