import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fakeClock, fresh, session, resetBetweenTests } from './session.test-support';

/**
 * The tokens requests get: renewed before they run out and when refused, once however many ask,
 * kept while the provider cannot be reached, and the session ended when the provider will not renew.
 */
const { oidc } = await vi.hoisted(() => import('./session.test-support'));
vi.mock('../api/oidc-client', () => oidc);

resetBetweenTests();

describe('the session model', () => {
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
