import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fresh, queuedCreate, session, settle, resetBetweenTests } from './session.test-support';

/**
 * The start: a stored session read back (this provider's, another's, one that ran out, one found
 * offline), and a flag left from an earlier visit.
 */
const { oidc } = await vi.hoisted(() => import('./session.test-support'));
vi.mock('../api/oidc-client', () => oidc);

resetBetweenTests();

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

  it('a stored session that ran out is renewed before the start is over', async () => {
    const { store, model } = await fresh();
    await store.writeSession(session({ expiresAt: Date.now() - 1_000 }));
    oidc.renewSession.mockResolvedValueOnce(session({ accessToken: 'access-2' }));
    await model.restoreSession();
    expect(oidc.renewSession).toHaveBeenCalledTimes(1);
    expect((await store.readSession())?.accessToken).toBe('access-2');
  });
});
