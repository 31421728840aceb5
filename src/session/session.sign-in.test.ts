import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { expireWithDataKept, fresh, queuedCreate, session, resetBetweenTests } from './session.test-support';

/**
 * Sign-in: the way to the provider's page, and what a member finds on a device another used before.
 */
const { oidc } = await vi.hoisted(() => import('./session.test-support'));
vi.mock('../api/oidc-client', () => oidc);

resetBetweenTests();

describe('the session model', () => {
  it('a different member signing in on this device finds nothing of the one before', async () => {
    const { store, auth, model } = await fresh();
    await store.writeSession(session());
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Ada’s draft' }));
    oidc.completeSignIn.mockResolvedValueOnce({ session: session({ subject: 'grace', name: 'Grace Hopper' }), next: '/profile' });
    expect(await model.finishSignIn(new URL(`${location.origin}/auth/callback?code=c&state=s`))).toBe('/profile');
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(auth.member.value?.name).toBe('Grace Hopper');
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
});
