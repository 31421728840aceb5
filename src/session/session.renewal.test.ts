import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { eventually, fakeClock, fresh, session, settle, showTab, stubLocks, resetBetweenTests } from './session.test-support';

/**
 * When a token is renewed on its own: the schedule, the other tabs' renewals, and a hidden tab.
 */
const { oidc } = await vi.hoisted(() => import('./session.test-support'));
vi.mock('../api/oidc-client', () => oidc);

resetBetweenTests();

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
