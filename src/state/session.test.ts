import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredSession } from '../api/session-store';

const oidc = vi.hoisted(() => ({
  renewSession: vi.fn(),
  completeSignIn: vi.fn(),
  revoke: vi.fn(async () => undefined),
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

async function fresh() {
  vi.resetModules();
  const store = await import('../api/session-store');
  const auth = await import('./auth');
  const model = await import('./session');
  return { store, auth, model };
}

beforeEach(() => {
  localStorage.clear();
  for (const fn of Object.values(oidc)) fn.mockClear();
  vi.spyOn(location, 'assign').mockImplementation(() => undefined);
});
afterEach(async () => {
  const { clearSession } = await import('../api/session-store');
  await clearSession();
  vi.restoreAllMocks();
});

describe('the session model', () => {
  it('restores a stored session of this provider: the member is known and the token used as is', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    expect(auth.member.value).toEqual({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' });
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

  it('renews a token about to expire before handing it out, and stores the new one', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() + 5_000 }));
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    expect(await model.accessToken()).toBe('access-2');
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
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
    const { writePendingSave, readPendingSave } = await import('../api/pending-save');
    await store.writeSession(session());
    await model.restoreSession();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    localStorage.setItem('draft.profile.p-1', JSON.stringify({ bio: 'x' }));
    localStorage.setItem('preference', JSON.stringify({ language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
    await writePendingSave({
      kind: 'create',
      fields: { displayName: 'Ada', username: 'ada_l', email: 'ada@example.org' },
      avatar: null,
      apiBase: `${location.origin}/api/`,
      key: 'k-1',
      queuedAt: Date.now(),
    });
    await model.endSession();
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(localStorage.getItem('draft.profile.p-1')).toBeNull();
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

  it('a renewed token refused too: shown signed out, asked to sign in again, and what was typed is kept', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    await model.restoreSession();
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    // The session model set itself up as the middleware's renewer and listener when it loaded.
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
    const { setProfileState, profile } = await import('./profile-store');
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
});
