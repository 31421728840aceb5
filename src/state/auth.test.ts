import { beforeEach, describe, expect, it, vi } from 'vitest';

async function freshAuth() {
  vi.resetModules();
  return import('./auth');
}

/** The auth store's entries in the change log of the same module graph. */
async function authLog() {
  const { stateHistory } = await import('./history');
  return stateHistory()
    .filter((e) => e.store === 'auth')
    .map((e) => [e.action, e.state]);
}

describe('auth store', () => {
  beforeEach(() => localStorage.clear());

  it('is signed out by default', async () => {
    const auth = await freshAuth();
    expect(auth.AUTH_KEY).toBe('auth.isLoggedIn');
    expect(auth.isLoggedIn.value).toBe(false);
  });

  it("the flag follows the session and persists under 'auth.isLoggedIn'; the member is who the ID token names", async () => {
    const auth = await freshAuth();
    auth.sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' });
    expect(auth.isLoggedIn.value).toBe(true);
    expect(auth.member.value?.name).toBe('Ada Lovelace');
    expect(localStorage.getItem('auth.isLoggedIn')).toBe('true');
    auth.sessionEnded('signed-out');
    expect(auth.isLoggedIn.value).toBe(false);
    expect(auth.member.value).toBeNull();
    expect(auth.sessionExpired.value).toBe(false);
    expect(localStorage.getItem('auth.isLoggedIn')).toBe('false');
  });

  it('a session that ends by expiry says so (the member is asked to sign in again); one never started does not', async () => {
    const auth = await freshAuth();
    auth.sessionEnded('expired');
    expect(auth.sessionExpired.value).toBe(false);
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    auth.sessionEnded('expired');
    expect(auth.sessionExpired.value).toBe(true);
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    expect(auth.sessionExpired.value).toBe(false);
  });

  it('reads the persisted flag at start', async () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    expect((await freshAuth()).isLoggedIn.value).toBe(true);
    localStorage.setItem('auth.isLoggedIn', 'false');
    expect((await freshAuth()).isLoggedIn.value).toBe(false);
  });

  it('treats anything but a JSON boolean as signed out', async () => {
    for (const raw of ['"true"', '1', 'yes', '{"isLoggedIn":true}', '[true]', 'null', '']) {
      localStorage.setItem('auth.isLoggedIn', raw);
      expect((await freshAuth()).isLoggedIn.value, raw).toBe(false);
    }
  });

  it('a second word that the session expired keeps the notice (two requests refused at once)', async () => {
    const auth = await freshAuth();
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    auth.sessionEnded('expired');
    auth.sessionEnded('expired');
    expect(auth.sessionExpired.value).toBe(true);
    // Signing out on purpose, though, puts the notice away.
    auth.sessionEnded('signed-out');
    expect(auth.sessionExpired.value).toBe(false);
  });
});

describe('the change log of sign-in and sign-out', () => {
  beforeEach(() => localStorage.clear());

  it('logs a sign-in once per member: the same member renewed is no change, another one is', async () => {
    const auth = await freshAuth();
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    auth.sessionStarted({ subject: 'ada', name: 'Ada L.', email: 'ada@circle.example.org' });
    auth.sessionStarted({ subject: 'grace', name: 'Grace', email: null });
    expect(await authLog()).toEqual([
      ['signIn', { isLoggedIn: true, subject: 'ada' }],
      ['signIn', { isLoggedIn: true, subject: 'grace' }],
    ]);
  });

  it('logs the restore of a member the persisted flag already said was signed in', async () => {
    localStorage.setItem('auth.isLoggedIn', 'true');
    const auth = await freshAuth();
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    expect(auth.member.value?.subject).toBe('ada');
    expect(await authLog()).toEqual([['signIn', { isLoggedIn: true, subject: 'ada' }]]);
  });

  it('logs a sign-out and an expiry apart, and nothing for a session that was not there', async () => {
    const auth = await freshAuth();
    auth.sessionEnded('signed-out');
    auth.sessionEnded('expired');
    expect(await authLog()).toEqual([]);
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    auth.sessionEnded('signed-out');
    auth.sessionStarted({ subject: 'ada', name: 'Ada', email: null });
    auth.sessionEnded('expired');
    expect((await authLog()).slice(1)).toEqual([
      ['signOut', { isLoggedIn: false }],
      ['signIn', { isLoggedIn: true, subject: 'ada' }],
      ['expired', { isLoggedIn: false }],
    ]);
  });
});
