import { beforeEach, describe, expect, it, vi } from 'vitest';

async function freshAuth() {
  vi.resetModules();
  return import('./auth');
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
});
