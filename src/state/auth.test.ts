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

  it("signIn and signOut set the flag and persist it under 'auth.isLoggedIn'", async () => {
    const auth = await freshAuth();
    auth.signIn();
    expect(auth.isLoggedIn.value).toBe(true);
    expect(localStorage.getItem('auth.isLoggedIn')).toBe('true');
    auth.signOut();
    expect(auth.isLoggedIn.value).toBe(false);
    expect(localStorage.getItem('auth.isLoggedIn')).toBe('false');
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
